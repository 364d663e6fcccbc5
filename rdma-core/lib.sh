# Shared helpers for the rdma-core scripts. Source it; do not run it.
# The paths and pins come from rdma-core/rdma-core.mk, with defaults here
# so that each script also runs on its own.
set -euo pipefail

RC_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
TOP="$(cd "$RC_DIR/.." && pwd)"
CACHE="${CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/xrc-rcv}"

# rdma-core master at 691953d8d (v64.0 + 61 commits, version 65.0, PABI
# 65), as `git archive` of that commit gives it
RC_NAME="master 691953d8d"
RC_GIT_COMMIT=691953d8d502f54088f776c5ba2aeed0a5ac945d
RC_TARBALL=rdma-core-master-691953d8d.tar.xz
RC_TARBALL_SHA256=73e187692da07180cbed13ac15fd4e938e43013ca91edee68184b4ba3c20d591
RC_VERSION=65.0	# PACKAGE_VERSION: libibverbs.so.1.18.$RC_VERSION
# The base commit made from that tarball with fixed identities and dates
# (make_base_repo in tree.sh); the cover letter's base-commit: line names it.
RC_BASE_COMMIT="${RC_BASE_COMMIT:-1b76412146c3771d456b73340f2fe53aa4f4b48f}"

# RC_PATCHES, RC_SERIES_REF, RC_TREE, RC_BUILD and RC_EXPORT_PREFIX serve
# another series on the same base too (rxe/rxe.mk: the rxe provider's)
RC_PATCHES="${RC_PATCHES:-$TOP/patches/rdma-core}"
RC_SRC_REPO="$CACHE/src/rdma-core"	# the pristine base, as a git repo
RC_TREE="${RC_TREE:-$CACHE/rdma-core-tree}"	# the workbench: base + series
RC_BUILD="${RC_BUILD:-$CACHE/build/rdma-core}"	# cmake + ninja build of RC_TREE
RC_BASE_REF=rdma-core/base
RC_SERIES_REF="${RC_SERIES_REF:-rdma-core/series}"
JOBS="${JOBS:-2}"

step() { printf '==> [%s] %s\n' "$(date +%H:%M:%S)" "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Nice: the machine's two cores are shared with kernel builds.
nicely() { nice -n 19 "$@"; }

# forget_foreign_cmake_build DIR SRC, shared with scripts/userspace.sh
source "$TOP/scripts/cmake-dir.sh"

# The series in order, cover letter excluded.
rc_patches() { ls "$RC_PATCHES"/[0-9][0-9][0-9][0-9]-*.patch | grep -v /0000-; }

# Where rdma-core master 691953d8d comes from: RDMA_CORE_SRC (the tarball
# or a git checkout of that commit), else ../shared/rdma-core/ beside this
# checkout.
rc_source() {
	local src="${RDMA_CORE_SRC:-}"
	if [ -z "$src" ] && [ -f "$TOP/../shared/rdma-core/$RC_TARBALL" ]; then
		src="$TOP/../shared/rdma-core/$RC_TARBALL"
	fi
	[ -n "$src" ] && [ -e "$src" ] || die "no rdma-core $RC_NAME source.
  Get it with either of
    git clone https://github.com/linux-rdma/rdma-core ~/rdma-core &&
      git -C ~/rdma-core checkout $RC_GIT_COMMIT
    (then: make rdma-core-test RDMA_CORE_SRC=~/rdma-core)
  or a tarball of the same commit (git archive of $RC_GIT_COMMIT,
  sha256 $RC_TARBALL_SHA256), passed as RDMA_CORE_SRC=/path/to/$RC_TARBALL"
	echo "$(cd "$(dirname "$src")" && pwd)/$(basename "$src")"
}

# The kernel series' export script, pointed at the rdma-core series
rc_export() { # TREE BASE_REF SERIES_REF BASE_COMMIT [OUTDIR]
	EXPORT_PATCHES="$RC_PATCHES" EXPORT_PREFIX="${RC_EXPORT_PREFIX:-PATCH rdma-core}" \
		SERIES_VERSION= "$TOP/scripts/export.py" "$@"
}

# pack_libs ROOT LIBPATH: every library that the ELF files under ROOT's
# /usr/local (programs, providers, Python extensions) need, found through
# LIBPATH first, into ROOT's /usr/local/lib (the loader where the
# programs' PT_INTERP names it). A guest's payload of dynamic programs:
# libibverbs dlopen()s its providers, so nothing of it is static.
pack_libs() {
	local root=$1 libpath=$2 elf lib real
	local -a elves=()
	while read -r elf; do
		[ "$(head -c4 "$elf")" = $'\x7fELF' ] && elves+=("$elf")
	done < <(find "$root/usr/local" -type f \( -name '*.so' -o -name '*.so.*' -o -perm -u+x \))
	for elf in "${elves[@]}"; do
		! LD_LIBRARY_PATH=$libpath ldd "$elf" | grep 'not found' ||
			die "$(basename "$elf") needs a library that is not in $libpath"
	done
	for elf in "${elves[@]}"; do
		LD_LIBRARY_PATH=$libpath ldd "$elf" | awk '/=> \// { print $3 } /^\t\// { print $1 }'
	done | sort -u | while read -r lib; do
		real=$(readlink -f "$lib")
		case $lib in
		*/ld-linux*)
			mkdir -p "$root$(dirname "$lib")"
			cp "$real" "$root$lib" ;;
		*)	[ -e "$root/usr/local/lib/$(basename "$lib")" ] ||
				cp "$real" "$root/usr/local/lib/$(basename "$lib")" ;;
		esac
	done
	[ -f "$root/usr/local/lib/libibverbs.so.1" ] || die "libibverbs.so.1 was not packed"
}
