#!/bin/bash
# patches/ -> git am onto the base -> format-patch must give patches/ again,
# byte for byte. Done in a worktree of its own, so the workbench is not
# touched and an unexported workbench edit cannot hide a broken patches/.
# With SERIES_DIR set to another series of the same base (rxe/rxe.mk, with
# ROUNDTRIP naming its worktree), that series instead, which must also
# apply on top of patches/: the two go to the list apart and land in
# either order.
source "$(dirname "$0")/lib.sh"

rt="${ROUNDTRIP:-$CACHE/roundtrip}"
name=$(basename "$SERIES_DIR")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

[ -d "$rt" ] || git -C "$TREE" worktree add -q --detach "$rt" "$BASE_REF"
git -C "$rt" am --abort >/dev/null 2>&1 || true
git -C "$rt" checkout -q -f --detach "$BASE_REF"
git -C "$rt" am -q --committer-date-is-author-date $(series_patches) ||
	die "$name/ does not apply with git am onto $BASE_COMMIT"
"$TOP/scripts/export.py" "$rt" "$BASE_REF" HEAD "$BASE_COMMIT" "$out" >/dev/null
diff -r --exclude=rdma-core --exclude=fixes --exclude=rxe --exclude=rdma-core-rxe "$SERIES_DIR" "$out" ||
	die "git am + format-patch does not reproduce $name/"
step "roundtrip: git am + format-patch reproduces all $(ls "$out" | wc -l) files of $name/"

if [ "$SERIES_DIR" != "$TOP/patches" ]; then
	git -C "$rt" checkout -q -f --detach "$BASE_REF"
	git -C "$rt" am -q --committer-date-is-author-date \
		$(SERIES_DIR="$TOP/patches" series_patches) $(series_patches) ||
		die "$name/ does not apply on top of patches/"
	step "roundtrip: $name/ applies on top of patches/ too"
	exit 0
fi

# patches/fixes/ is the series' first patches as a series of their own:
# the same commits, exported with their own cover letter
"$TOP/scripts/export-fixes.sh" "$rt" "$out/fixes" >/dev/null
diff -r "$TOP/patches/fixes" "$out/fixes" ||
	die "patches/fixes/ is not the series' first patches (make export)"
step "roundtrip: patches/fixes/ is the series' first $(($(ls "$out/fixes" | wc -l) - 1)) patches"
