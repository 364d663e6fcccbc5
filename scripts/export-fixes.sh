#!/bin/bash
# The series' first FIXES_COUNT patches are fixes for mainline that stand
# alone: patches/fixes/ holds them as a series of their own for rdma-rc,
# with its own cover letter, exported from the same commits.
#   export-fixes.sh TREE [OUTDIR]   (TREE: a tree with the series applied)
source "$(dirname "$0")/lib.sh"

FIXES_COUNT=3
tree=$1 out=${2:-$TOP/patches/fixes}
last=$(git -C "$tree" rev-list --reverse "$BASE_REF..HEAD" | sed -n "${FIXES_COUNT}p")
[ -n "$last" ] || die "$tree has fewer than $FIXES_COUNT patches on $BASE_REF"
EXPORT_PATCHES="$TOP/patches/fixes" EXPORT_PREFIX="PATCH rdma-rc" \
	"$TOP/scripts/export.py" "$tree" "$BASE_REF" "$last" "$BASE_COMMIT" "$out"
