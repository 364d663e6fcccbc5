#!/bin/bash
# patches/rxe/ -> git am onto the base -> format-patch must give it again,
# byte for byte; and it must apply on top of patches/ as well, since the
# two series go to the list apart and land in either order. Done in a
# worktree of its own; run through make (rxe/rxe.mk sets the series).
source "$(dirname "$0")/../scripts/lib.sh"

rt="$CACHE/roundtrip-rxe"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

[ -d "$rt" ] || git -C "$TREE" worktree add -q --detach "$rt" "$BASE_REF"
git -C "$rt" am --abort >/dev/null 2>&1 || true
git -C "$rt" checkout -q -f --detach "$BASE_REF"
git -C "$rt" am -q --committer-date-is-author-date $(series_patches) ||
	die "$SERIES_DIR does not apply with git am onto $BASE_COMMIT"
"$TOP/scripts/export.py" "$rt" "$BASE_REF" HEAD "$BASE_COMMIT" "$out" >/dev/null
diff -r "$SERIES_DIR" "$out" || die "git am + format-patch does not reproduce $SERIES_DIR"
step "rxe roundtrip: git am + format-patch reproduces all $(ls "$out" | wc -l) files of $(basename "$SERIES_DIR")/"

git -C "$rt" checkout -q -f --detach "$BASE_REF"
git -C "$rt" am -q --committer-date-is-author-date \
	$(SERIES_DIR="$TOP/patches" series_patches) $(series_patches) ||
	die "$SERIES_DIR does not apply on top of patches/"
step "rxe roundtrip: $(basename "$SERIES_DIR")/ applies on top of patches/ too"
