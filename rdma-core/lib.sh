# Shared helpers for the rdma-core scripts. Source it; do not run it.
# The paths and pins come from rdma-core/rdma-core.mk, with defaults here
# so that each script also runs on its own.
set -euo pipefail

RC_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
TOP="$(cd "$RC_DIR/.." && pwd)"
CACHE="${CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/xrc-rcv}"

# rdma-core v64.0, as `git archive` of its tag gives it
RC_TARBALL_SHA256=aae6c2b16022f47529b2d1e6324df0b6d0b8a9940937cc3958639c702e512dc8
RC_VERSION=64.0
# The base commit made from that tarball with fixed identities and dates
# (make_base_repo in tree.sh); the cover letter's base-commit: line names it.
RC_BASE_COMMIT="${RC_BASE_COMMIT:-a91faaddefd6fbac02f5b0cabd4bd560ae78224b}"

RC_PATCHES="$TOP/patches/rdma-core"
RC_SRC_REPO="$CACHE/src/rdma-core"	# the pristine base, as a git repo
RC_TREE="${RC_TREE:-$CACHE/rdma-core-tree}"	# the workbench: base + series
RC_BUILD="${RC_BUILD:-$CACHE/build/rdma-core}"	# cmake + ninja build of RC_TREE
RC_BASE_REF=rdma-core/base
RC_SERIES_REF=rdma-core/series
JOBS="${JOBS:-2}"

step() { printf '==> [%s] %s\n' "$(date +%H:%M:%S)" "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Nice: the machine's two cores are shared with kernel builds.
nicely() { nice -n 19 "$@"; }

# forget_foreign_cmake_build DIR SRC, shared with scripts/userspace.sh
source "$TOP/scripts/cmake-dir.sh"

# The series in order, cover letter excluded.
rc_patches() { ls "$RC_PATCHES"/[0-9][0-9][0-9][0-9]-*.patch | grep -v /0000-; }

# Where rdma-core v64.0 comes from: RDMA_CORE_SRC (the tarball or a git
# checkout of v64.0), else ../shared/rdma-core/ beside this checkout.
rc_source() {
	local src="${RDMA_CORE_SRC:-}"
	if [ -z "$src" ] && [ -f "$TOP/../shared/rdma-core/rdma-core-$RC_VERSION.tar.xz" ]; then
		src="$TOP/../shared/rdma-core/rdma-core-$RC_VERSION.tar.xz"
	fi
	[ -n "$src" ] && [ -e "$src" ] || die "no rdma-core v$RC_VERSION source.
  Get it with either of
    git clone -b v$RC_VERSION https://github.com/linux-rdma/rdma-core ~/rdma-core
    (then: make rdma-core-test RDMA_CORE_SRC=~/rdma-core)
  or the release tarball of the same tag (git archive of v$RC_VERSION,
  sha256 $RC_TARBALL_SHA256), passed as RDMA_CORE_SRC=/path/to/rdma-core-$RC_VERSION.tar.xz"
	echo "$(cd "$(dirname "$src")" && pwd)/$(basename "$src")"
}

# The kernel series' export script, pointed at the rdma-core series
rc_export() { # TREE BASE_REF SERIES_REF BASE_COMMIT [OUTDIR]
	EXPORT_PATCHES="$TOP/patches/rdma-core" EXPORT_PREFIX="PATCH rdma-core" \
		SERIES_VERSION= "$TOP/scripts/export.py" "$@"
}
