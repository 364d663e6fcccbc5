#!/bin/bash
# test.sh: make backport-test after backport-all. Boots every kernel of
# backport/kernels that pins an image (boot-test.sh), in its order, each
# with the backport as a user of the .deb gets it (make backport-deb,
# built and installed by Debian's dkms), and the suites over ioctl and
# over libibverbs. Then the last of them once more with make
# backport-install's route (install.sh, signed modules). Then it compares
# the per-test outcomes of each kernel with those of its input's own base
# kernel, when one is booted: a test that fails on the older kernel but
# passes on the base is a backport bug; one that fails on both is not the
# backport's. Ends with each boot's counts. Exits non-zero if any boot
# failed.
source "$(dirname "$0")/lib.sh"
export LC_ALL=C	# join(1) needs the sort order of results.txt

G=$BPBUILD/backport-guest
status=0
booted=()
boots=()
rm -f "$G/loaded.txt" "$G"/run-*/counts.txt
for k in $(kernels | awk '$3 != "-" { print $1 }'); do
	"$BP/scripts/boot-test.sh" "$k" deb || status=1
	booted+=("$k")
	boots+=("$k deb")
done
# make backport-install's route (install.sh: updates/xrc-rcv-backport/,
# the modules signed), booted on one kernel: the same source tree and
# build script as the package's, so once is enough
if [ ${#booted[@]} -gt 0 ]; then
	k=${booted[-1]}
	"$BP/scripts/boot-test.sh" "$k" install || status=1
	boots+=("$k install")
fi
# For make test's table: kernels booted, boots, modules loaded by modprobe
if [ -n "${SUMMARY:-}" ] && [ -f "$G/loaded.txt" ]; then
	{
		echo "kernels=$(awk '{ print $1 }' "$G/loaded.txt" | sort -u | wc -l)"
		echo "boots=$(wc -l < "$G/loaded.txt")"
		echo "modules_loaded=$(awk '{ n += $3 } END { print n + 0 }' "$G/loaded.txt")"
	} >> "$SUMMARY"
fi

# The reference of a kernel: the booted stock kernel of its input's base
# version (the tree's VERSION.PATCHLEVEL.SUBLEVEL) built from the same
# input, where the stack is not a backport. The 7.3 input's base, 7.3.4,
# is not a Debian 12 kernel: no comparison then.
for k in "${booted[@]}"; do
	use_input "$k"
	base=$(tree_kernel_version)
	ref=
	for b in "${booted[@]}"; do
		if [ "$(kernel_field "$b" 4)" = "$BP_INPUT" ] && [ "${b#"$base"}" != "$b" ]; then
			ref=$b
			break
		fi
	done
	if [ -z "$ref" ]; then
		step "$k (input $BP_INPUT): no booted kernel of that input is its base $base: no comparison"
		continue
	fi
	[ "$k" != "$ref" ] || continue
	refres=$G/run-$ref-deb/results.txt
	res=$G/run-$k-deb/results.txt
	only=$(join <(grep ' FAILED$' "$res" | cut -d' ' -f1) \
		    <(grep ' OK$' "$refres" | cut -d' ' -f1) | tr '\n' ' ')
	both=$(join <(grep ' FAILED$' "$res" | cut -d' ' -f1) \
		    <(grep ' FAILED$' "$refres" | cut -d' ' -f1) | wc -l)
	step "compare $k with $ref: $(grep -c ' OK$' "$res") passed, $(grep -c ' FAILED$' "$res") failed; $both fail on $ref too (not the backport)"
	if [ -n "$only" ]; then
		echo "    failing on $k only (backport bugs): $only"
		status=1
	fi
done

# What each boot counted (boot-test.sh: summarise-section.sh per section)
step "backport-test: counts"
for b in "${boots[@]}"; do
	read -r k route <<< "$b"
	c=$G/run-$k-$route/counts.txt
	if [ -f "$c" ]; then
		sed "s/^/    $k ($route): /" "$c"
	else
		echo "    $k ($route): no counts (the boot failed before its tests)"
	fi
done
exit $status
