#!/bin/bash
# patches/rdma-core/ -> git am onto the rdma-core master 691953d8d base -> format-patch
# must give patches/rdma-core/ again, byte for byte. Done in a worktree of
# its own, so the workbench is not touched.
source "$(dirname "$0")/lib.sh"

rt="${RC_ROUNDTRIP:-$CACHE/rdma-core-roundtrip}"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

[ -d "$rt" ] || git -C "$RC_SRC_REPO" worktree add -q --detach "$rt" "$RC_BASE_REF"
git -C "$rt" am --abort >/dev/null 2>&1 || true
git -C "$rt" checkout -q -f --detach "$RC_BASE_REF"
git -C "$rt" am -q --committer-date-is-author-date $(rc_patches) ||
	die "$RC_PATCHES does not apply with git am onto $RC_BASE_COMMIT"
rc_export "$rt" "$RC_BASE_REF" HEAD "$RC_BASE_COMMIT" "$out" >/dev/null
diff -r "$RC_PATCHES" "$out" ||
	die "git am + format-patch does not reproduce $RC_PATCHES"
step "rdma-core roundtrip: git am + format-patch reproduces all $(ls "$out" | wc -l) files of $(basename "$RC_PATCHES")/"
