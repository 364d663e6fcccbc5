#!/bin/bash
# test.sh: make backport-test after backport-all. Boots every kernel of
# backport/kernels that pins an image (boot-test.sh), the 6.1 proof first
# and the stock 6.12 kernel as the control. The first kernel gets the
# backport as a user of the .deb would (make backport-deb, built by DKMS),
# the others through make backport-install. Then it compares the per-test
# outcomes: a test that fails on an older kernel but passes on 6.12 is a
# backport bug; one that fails on both is not the backport's. Exits
# non-zero if any boot failed.
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

# The reference: the stock kernel of the series' own base version (the
# tree's VERSION.PATCHLEVEL.SUBLEVEL), where the stack is not a backport.
base=$(tree_kernel_version)
ref=$(printf '%s\n' "${booted[@]}" | awk -v b="$base" 'index($0, b) == 1 { print; exit }')
if [ -z "$ref" ]; then
	step "no booted kernel is the series' base $base: no comparison"
	exit $status
fi
refres=$BPBUILD/backport-guest/run-$ref/results.txt
for k in "${booted[@]}"; do
	[ "$k" != "$ref" ] || continue
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
