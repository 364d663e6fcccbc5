#!/bin/bash
# The rdma-core workbench: rdma-core master 691953d8d as a git repo with a
# reproducible base commit, and patches/rdma-core/ applied onto it with
# git am. Warm runs do nothing when the workbench already holds exactly
# patches/rdma-core/.
#
#   RDMA_CORE_SRC=/path/rdma-core-master-691953d8d.tar.xz   its tarball, or
#   RDMA_CORE_SRC=/path/rdma-core        a git checkout of 691953d8d
#                                        (its HEAD is archived)
source "$(dirname "$0")/lib.sh"

# The base commit is made with fixed identities and dates, so the same
# source always gives the same hash, and a checkout of 691953d8d gives
# the same hash as the tarball.
make_base_repo() {
	local src=$1
	step "rdma-core: unpacking $src"
	rm -rf "$RC_SRC_REPO" "$RC_SRC_REPO.tmp"
	mkdir -p "$RC_SRC_REPO.tmp"
	if [ -d "$src" ]; then
		git -C "$src" archive --format=tar HEAD | tar -x -C "$RC_SRC_REPO.tmp"
	else
		tar -xaf "$src" -C "$RC_SRC_REPO.tmp" --strip-components=1
	fi
	(
		cd "$RC_SRC_REPO.tmp"
		export GIT_AUTHOR_NAME=base GIT_AUTHOR_EMAIL=base@localhost \
		       GIT_COMMITTER_NAME=base GIT_COMMITTER_EMAIL=base@localhost \
		       GIT_AUTHOR_DATE=2000-01-01T00:00:00Z \
		       GIT_COMMITTER_DATE=2000-01-01T00:00:00Z
		git init -q -b "$RC_BASE_REF" .
		git add -f -A .
		git commit -q -m "rdma-core $RC_NAME ($RC_VERSION)"
	)
	mv "$RC_SRC_REPO.tmp" "$RC_SRC_REPO"
}

base_head() { git -C "$RC_SRC_REPO" rev-parse -q --verify "$RC_BASE_REF" 2>/dev/null || true; }
stamp() { cat "$RC_PATCHES"/*.patch | sha256sum | cut -d' ' -f1; }

if [ "$(base_head)" != "$RC_BASE_COMMIT" ]; then
	src=$(rc_source)
	if [ -f "$src" ]; then
		have=$(sha256sum "$src" | cut -d' ' -f1)
		[ "$have" = "$RC_TARBALL_SHA256" ] ||
			step "rdma-core: warning: $src is not the pinned $RC_NAME tarball (sha256 $have)"
	fi
	# A workbench on another base (an older pin) keeps its commits in the
	# base repo: move both aside rather than delete them.
	old=$(base_head)
	if [ -n "$old" ]; then
		step "rdma-core: the base was ${old:0:12}: moving it aside to $RC_SRC_REPO.${old:0:12}"
		rm -rf "$RC_SRC_REPO.${old:0:12}" "$RC_TREE.${old:0:12}"
		mv "$RC_SRC_REPO" "$RC_SRC_REPO.${old:0:12}"
		if [ -d "$RC_TREE" ]; then
			mv "$RC_TREE" "$RC_TREE.${old:0:12}"
			git -C "$RC_SRC_REPO.${old:0:12}" worktree repair "$RC_TREE.${old:0:12}" 2>/dev/null
		fi
		rm -rf "$RC_TREE.applied" "$CACHE/rdma-core-roundtrip"
	fi
	make_base_repo "$src"
	[ "$(base_head)" = "$RC_BASE_COMMIT" ] ||
		die "rdma-core base commit $(base_head) is not the pinned $RC_BASE_COMMIT: $src is not rdma-core $RC_NAME"
fi

state="$RC_TREE.applied"
if [ -d "$RC_TREE" ] && [ -f "$state" ]; then
	read -r applied_stamp applied_head < "$state"
	head=$(git -C "$RC_TREE" rev-parse HEAD)
	if [ "$applied_stamp" = "$(stamp)" ] && [ "$applied_head" = "$head" ]; then
		step "rdma-core: $RC_TREE already holds $(basename "$RC_PATCHES") ($(git -C "$RC_TREE" rev-list --count "$RC_BASE_REF"..HEAD) commits)"
		exit 0
	fi
	if [ "$applied_head" != "$head" ] && [ -z "${FORCE:-}" ]; then
		if rc_export "$RC_TREE" "$RC_BASE_REF" "$RC_SERIES_REF" "$RC_BASE_COMMIT" "$state.export" >/dev/null &&
			diff -rq "$RC_PATCHES" "$state.export" >/dev/null; then
			rm -rf "$state.export"
			echo "$(stamp) $head" > "$state"
			step "rdma-core: $RC_TREE holds $(basename "$RC_PATCHES") (exported from it)"
			exit 0
		fi
		rm -rf "$state.export"
		die "$RC_TREE has commits that are not in $RC_PATCHES: run 'make rdma-core-export', or 'make rdma-core-tree FORCE=1' to throw them away"
	fi
fi

if [ ! -d "$RC_TREE" ]; then
	step "rdma-core: creating the workbench $RC_TREE"
	git -C "$RC_SRC_REPO" worktree prune
	git -C "$RC_SRC_REPO" worktree add -q -f --detach "$RC_TREE" "$RC_BASE_REF"
fi

# --ignore-other-worktrees: a hand-made workbench (RC_TREE=...) on the same
# base repo may have the branch checked out; this one must not fail for it.
step "rdma-core: applying $(rc_patches | wc -l) patches onto base $RC_BASE_COMMIT"
git -C "$RC_TREE" am --abort >/dev/null 2>&1 || true
git -C "$RC_TREE" checkout -q -f --ignore-other-worktrees -B "$RC_SERIES_REF" "$RC_BASE_REF"
git -C "$RC_TREE" am -q --committer-date-is-author-date $(rc_patches)
echo "$(stamp) $(git -C "$RC_TREE" rev-parse HEAD)" > "$state"
git -C "$RC_TREE" log --oneline "$RC_BASE_REF"..HEAD | cat
