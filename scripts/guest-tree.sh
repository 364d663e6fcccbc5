#!/bin/bash
# The tree of the kernel that KUnit and the guests boot ($KTREE): the
# workbench's series (patches/, as $TREE's HEAD holds it) with the rxe
# series (patches/rxe/) on top, so that one kernel both registers receive
# QPs and moves XRC messages through soft-RoCE. The two series touch
# different files and go to the list apart (make rxe-roundtrip checks that
# patches/rxe/ applies alone and on top of patches/).
#
# Rebuilt when $TREE's HEAD or patches/rxe/ changes. Edits in the
# workbench reach the guest kernel once committed there.
source "$(dirname "$0")/lib.sh"

RXE_DIR="$TOP/patches/rxe"
rxe_patches() { SERIES_DIR="$RXE_DIR" series_patches; }

exec 8> "$CACHE/tree-guest.lock"
flock 8

head=$(git -C "$TREE" rev-parse HEAD)
want="$head $(cat $(rxe_patches) | sha256sum | cut -d' ' -f1)"
state="$KTREE.applied"
# the state names what was applied and the commit that came of it: a
# commit made by hand in $KTREE, or an edit, is thrown away here
if [ -d "$KTREE" ] &&
	[ "$(cat "$state" 2>/dev/null)" = "$want $(git -C "$KTREE" rev-parse HEAD)" ] &&
	git -C "$KTREE" diff --quiet HEAD; then
	step "guest tree: $KTREE holds the workbench and patches/rxe/"
	exit 0
fi

[ -d "$KTREE" ] || git -C "$TREE" worktree add -q -f --detach "$KTREE" "$head"
step "guest tree: $(rxe_patches | wc -l) patches of patches/rxe/ on top of the workbench"
git -C "$KTREE" am --abort >/dev/null 2>&1 || true
git -C "$KTREE" checkout -q -f --detach "$head"
git -C "$KTREE" am -q --committer-date-is-author-date $(rxe_patches) ||
	die "patches/rxe/ does not apply on top of the workbench ($TREE)"
echo "$want $(git -C "$KTREE" rev-parse HEAD)" > "$state"
