#!/bin/bash
# patches/ -> git am -> format-patch must give patches/ again, byte for byte.
source "$(dirname "$0")/lib.sh"

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$TOP/scripts/export.py" "$TREE" "$BASE_REF" "$SERIES_REF" "$BASE_COMMIT" "$out" >/dev/null
if ! diff -r "$TOP/patches" "$out"; then
	die "exporting the workbench does not reproduce patches/ (edited the tree without 'make export'?)"
fi
step "roundtrip: git am + format-patch reproduces all $(ls "$out" | wc -l) files of patches/"
