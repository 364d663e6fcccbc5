#!/bin/bash
# Documentation/abi.md is the contract, kept in the repository. Where the
# shared copy it came from sits beside the checkout (../shared/abi.md, as
# in the team's workspace), the two must not differ; a clone without it
# skips the comparison.
source "$(dirname "$0")/lib.sh"

ours="$TOP/Documentation/abi.md"
shared="$TOP/../shared/abi.md"
[ -f "$ours" ] || die "Documentation/abi.md is missing"
if [ ! -f "$shared" ]; then
	summary_set compared=no
	step "abi: no ../shared/abi.md beside the checkout; nothing to compare"
	exit 0
fi
summary_set compared=yes
if ! cmp -s "$shared" "$ours"; then
	diff -u "$shared" "$ours" | head -40 || true
	die "Documentation/abi.md differs from ../shared/abi.md: copy the contract in (cp ../shared/abi.md Documentation/abi.md) and follow its changes"
fi
step "abi: Documentation/abi.md is ../shared/abi.md, byte for byte"
