#!/bin/bash
# Build the workbench: the pinned base as a git repo, and the series
# applied onto it with git am. Warm runs do nothing when the workbench
# already holds exactly patches/.
source "$(dirname "$0")/lib.sh"

# make test's two lanes both depend on this: one at a time, so that a
# tree being (re)built is never read half done
mkdir -p "$CACHE"
exec 8> "$CACHE/tree.lock"
flock 8

# The base commit is made with fixed identities and dates, so the same
# tarball always gives the same hash; the cover letter records it.
# A base from the host's own suite is a package make deps installed; one
# from another suite (BASE_SUITE) comes through scripts/fetch-deb.sh, its
# sha256 pinned (BASE_SHA256), and is read straight out of the .deb.
unpack_base() { # DIR
	local tarball=/usr/src/$BASE_PKG.tar.xz deb

	if [ -z "${BASE_SUITE:-}" ]; then
		[ -f "$tarball" ] || die "$tarball missing: run make deps"
		step "tree: unpacking $tarball"
		tar -xaf "$tarball" -C "$1" --strip-components=1
		return
	fi
	deb=$("$TOP/scripts/fetch-deb.sh" "$BASE_PKG" "$BASE_VERSION" \
		"$BASE_SUITE" "${BASE_SHA256:?BASE_SHA256 pins the .deb}")
	step "tree: unpacking .$tarball from $deb"
	dpkg-deb --fsys-tarfile "$deb" | tar -xO ".$tarball" |
		tar -xJ -C "$1" --strip-components=1
}

make_base_repo() {
	rm -rf "$SRC_REPO" "$SRC_REPO.tmp"
	mkdir -p "$SRC_REPO.tmp"
	unpack_base "$SRC_REPO.tmp"
	step "tree: committing the base (about 90,000 files)"
	(
		cd "$SRC_REPO.tmp"
		export GIT_AUTHOR_NAME=base GIT_AUTHOR_EMAIL=base@localhost \
		       GIT_COMMITTER_NAME=base GIT_COMMITTER_EMAIL=base@localhost \
		       GIT_AUTHOR_DATE=2000-01-01T00:00:00Z \
		       GIT_COMMITTER_DATE=2000-01-01T00:00:00Z
		git init -q -b "$BASE_REF" .
		# Debian's top-level .gitignore ignores everything: add by force
		git add -f -A .
		git commit -q -m "Linux $BASE_VERSION ($BASE_PKG)"
	)
	mv "$SRC_REPO.tmp" "$SRC_REPO"
}

base_ok() {
	[ "$(git -C "$SRC_REPO" rev-parse -q --verify "$BASE_REF" 2>/dev/null)" = "$BASE_COMMIT" ]
}

stamp() { cat "$SERIES_DIR"/*.patch | sha256sum | cut -d' ' -f1; }

if [ -n "${KERNEL_SRC:-}" ]; then
	# A user's own checkout: apply onto its HEAD in a worktree of it ($TREE)
	SRC_REPO=$KERNEL_SRC
	BASE_COMMIT=$(git -C "$KERNEL_SRC" rev-parse HEAD)
	git -C "$KERNEL_SRC" branch -f "$BASE_REF" HEAD
else
	base_ok || make_base_repo
	base_ok || die "base commit $(git -C "$SRC_REPO" rev-parse "$BASE_REF") is not the pinned $BASE_COMMIT"
fi

state="$TREE.applied"
if [ -d "$TREE" ] && [ -f "$state" ]; then
	read -r applied_stamp applied_head < "$state"
	head=$(git -C "$TREE" rev-parse HEAD)
	if [ "$applied_stamp" = "$(stamp)" ] && [ "$applied_head" = "$head" ]; then
		step "tree: $TREE already holds patches/ ($(git -C "$TREE" log --oneline "$BASE_REF"..HEAD | wc -l) commits)"
		exit 0
	fi
	if [ "$applied_head" != "$head" ] && [ -z "${FORCE:-}" ]; then
		# Edited and exported since: the workbench is patches/ already
		if "$TOP/scripts/export.py" "$TREE" "$BASE_REF" "$SERIES_REF" \
			"$BASE_COMMIT" "$state.export" >/dev/null &&
			diff -rq --exclude=rdma-core --exclude=fixes --exclude=rxe --exclude=rdma-core-rxe \
			"$SERIES_DIR" "$state.export" >/dev/null; then
			rm -rf "$state.export"
			echo "$(stamp) $head" > "$state"
			step "tree: $TREE holds patches/ (exported from it)"
			exit 0
		fi
		die "$TREE has commits that are not in patches/: run 'make export', or 'make tree FORCE=1' to throw them away"
	fi
fi

if [ ! -d "$TREE" ]; then
	step "tree: creating the workbench $TREE"
	git -C "$SRC_REPO" worktree prune
	git -C "$SRC_REPO" worktree add -q -f --detach "$TREE" "$BASE_REF"
fi

# --ignore-other-worktrees: another worktree of the base repo (a hand-made
# workbench, say) may have the branch checked out; this one must not fail.
step "tree: applying $(series_patches | wc -l) patches onto base $BASE_COMMIT"
git -C "$TREE" am --abort >/dev/null 2>&1 || true
git -C "$TREE" checkout -q -f --ignore-other-worktrees -B "$SERIES_REF" "$BASE_REF"
git -C "$TREE" am -q --committer-date-is-author-date $(series_patches)
echo "$(stamp) $(git -C "$TREE" rev-parse HEAD)" > "$state"
git -C "$TREE" log --oneline "$BASE_REF"..HEAD
