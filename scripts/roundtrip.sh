#!/bin/bash
# patches/ -> git am onto the base -> format-patch must give patches/ again,
# byte for byte. Done in a worktree of its own, so the workbench is not
# touched and an unexported workbench edit cannot hide a broken patches/.
source "$(dirname "$0")/lib.sh"

rt="$CACHE/roundtrip"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

[ -d "$rt" ] || git -C "$TREE" worktree add -q --detach "$rt" "$BASE_REF"
git -C "$rt" am --abort >/dev/null 2>&1 || true
git -C "$rt" checkout -q -f --detach "$BASE_REF"
git -C "$rt" am -q --committer-date-is-author-date $(series_patches) ||
	die "patches/ does not apply with git am onto $BASE_COMMIT"
"$TOP/scripts/export.py" "$rt" "$BASE_REF" HEAD "$BASE_COMMIT" "$out" >/dev/null
diff -r --exclude=rdma-core --exclude=fixes --exclude=rxe --exclude=rdma-core-rxe "$TOP/patches" "$out" ||
	die "git am + format-patch does not reproduce patches/"
step "roundtrip: git am + format-patch reproduces all $(ls "$out" | wc -l) files of patches/"

# patches/fixes/ is the series' first patches as a series of their own:
# the same commits, exported with their own cover letter
"$TOP/scripts/export-fixes.sh" "$rt" "$out/fixes" >/dev/null
diff -r "$TOP/patches/fixes" "$out/fixes" ||
	die "patches/fixes/ is not the series' first patches (make export)"
step "roundtrip: patches/fixes/ is the series' first $(($(ls "$out/fixes" | wc -l) - 1)) patches"
