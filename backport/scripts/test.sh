#!/bin/bash
# test.sh: make backport-test after backport-all. Boots every kernel of
# backport/kernels that pins an image (boot-test.sh), in its order. The
# first kernel gets the
# backport as a user of the .deb would (make backport-deb, built by DKMS),
# the others through make backport-install. Then it compares the per-test
# outcomes of each kernel with those of its input's own base kernel, when
# one is booted: a test that fails on the older kernel but passes on the
# base is a backport bug; one that fails on both is not the backport's.
# Exits non-zero if any boot failed.
source "$(dirname "$0")/lib.sh"
export LC_ALL=C	# join(1) needs the sort order of results.txt

status=0
booted=()
route=deb
rm -f "$BPBUILD/backport-guest/loaded.txt"
for k in $(kernels | awk '$3 != "-" { print $1 }'); do
	"$BP/scripts/boot-test.sh" "$k" $route || status=1
	booted+=("$k")
	route=install
done
# For make test's table: kernels booted, and modules loaded by modprobe
if [ -n "${SUMMARY:-}" ] && [ -f "$BPBUILD/backport-guest/loaded.txt" ]; then
	{
		echo "kernels=$(wc -l < "$BPBUILD/backport-guest/loaded.txt")"
		echo "modules_loaded=$(awk '{ n += $3 } END { print n + 0 }' "$BPBUILD/backport-guest/loaded.txt")"
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
	refres=$BPBUILD/backport-guest/run-$ref/results.txt
	res=$BPBUILD/backport-guest/run-$k/results.txt
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
exit $status
