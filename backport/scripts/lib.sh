# Shared helpers of the backport scripts. Source it; do not run it.
set -euo pipefail

BP="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"	# backport/
TOP="$(cd "$BP/.." && pwd)"				# the checkout
CACHE="${CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/xrc-rcv}"
BPBUILD="$CACHE/build"					# backport-<kver>/ live here
JOBS="${JOBS:-2}"
# The two inputs (read only), whichever TREE a caller set (use_input):
#   7.3  the tree of make tree: Linux 7.3.4 + patches/ (series v4)
#   v3   the frozen copy backport/series-v3/ on 6.12.118 (make backport-tree)
BP_TREE_73="${BP_TREE_73:-${TREE:-$CACHE/tree}}"
BP_SERIES_73="${BP_SERIES_73:-${SERIES_VERSION:-$(sed -n 's/^SERIES_VERSION *:= *//p' "$TOP/Makefile")}}"
BP_TREE_V3="$CACHE/tree-6.12"
export BP_TREE_73 BP_SERIES_73
TREE="${TREE:-$BP_TREE_73}"
SERIES_VERSION="${SERIES_VERSION:-$BP_SERIES_73}"

step() { printf '==> [%s] %s\n' "$(date +%H:%M:%S)" "$*"; }
die() { printf 'backport: error: %s\n' "$*" >&2; exit 1; }

# listed FILE: a list of backport/ (kernels, modules, unsupported)
# without its comments and blank lines
listed() { sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$1"; }
# The kernels file without comments: "kver headers=ver image=ver|- input"
kernels() { listed "$BP/kernels"; }
default_kver() { kernels | awk 'NR == 1 { print $1 }'; }
all_kvers() { kernels | awk '{ print $1 }'; }
# kernel_field KVER N: column N of KVER's line (2 headers, 3 image, 4 input)
kernel_field() {
	local v
	v=$(kernels | awk -v k="$1" -v n="$2" '$1 == k { print $n }')
	[ -n "$v" ] || die "kernel $1 is not in $BP/kernels (have: $(all_kvers | tr '\n' ' '))"
	echo "$v"
}
# use_input KVER: the stack for KVER comes from its input (column 4):
# sets and exports TREE, SERIES_VERSION, BP_PATCHES (the backport patches
# that fit that input's sources) and BP_INPUT.
use_input() {
	BP_INPUT=$(kernel_field "$1" 4)
	case $BP_INPUT in
	7.3) TREE=$BP_TREE_73 SERIES_VERSION=$BP_SERIES_73 BP_PATCHES=$BP/patches ;;
	v3) TREE=$BP_TREE_V3 SERIES_VERSION=3 BP_PATCHES=$BP/patches-v3 ;;
	*) die "kernel $1: input '$BP_INPUT' is neither 7.3 nor v3 ($BP/kernels)" ;;
	esac
	export TREE SERIES_VERSION BP_PATCHES BP_INPUT
}
# kvers_of INPUT: the kernels built from that input
kvers_of() { kernels | awk -v i="$1" '$4 == i { print $1 }'; }
kdir_of() { echo "/usr/src/linux-headers-$1"; }
builddir_of() { echo "$BPBUILD/backport-$1"; }

# name=version -> installed version of name, empty if none
installed_version() {
	{ dpkg-query -W -f='${Status}|${Version}' "${1%%=*}" 2>/dev/null || true; } |
		sed -n 's/^install ok installed|//p'
}

# The package's name, and its version: the base kernel the stack comes
# from, the series version, a count that only grows (the project's
# commits that touched patches/ or backport/, so that dpkg and DKMS order
# successive packages right) and the series commit (the patched tree's
# HEAD), e.g. 6.12.118+xrc3.57.gb3dc11b6570c. It is in modinfo
# (prepare.sh), the DKMS package and the .deb, and valid as all three.
BP_NAME=xrc-rcv-backport
bp_version() {
	local n
	n=$(git -C "$TOP" rev-list --count HEAD -- patches backport 2>/dev/null || echo 0)
	printf '%s+xrc%s.%s.g%s\n' "$(tree_kernel_version)" "${SERIES_VERSION:-0}" "$n" \
		"$(git -C "$TREE" rev-parse --short=12 HEAD)"
}

# The patched tree's VERSION.PATCHLEVEL.SUBLEVEL, e.g. 6.12.118
tree_kernel_version() {
	sed -n 's/^VERSION = //p; s/^PATCHLEVEL = //p; s/^SUBLEVEL = //p' "$TREE/Makefile" | paste -sd.
}

# The userspace-test sources the boot proof's C++ suites are built from,
# for a kernel of the v3 input. Series v3 (series-v3/) has the write
# commands 41-44 and no REG without a QP number. From series v4 on the
# suites in this checkout send REG without the number to create, expect
# EOPNOTSUPP from write() of 41-44, and use no write transport at all,
# so against a v3 kernel they would fail. For the v3 input boot-test.sh
# builds the suites of this commit instead: the last one whose
# userspace-test speaks v3 (`main` when the userspace moved to v4). A
# kernel of the 7.3 input (v4) runs the checkout's, built by
# scripts/userspace.sh as make e2e builds them. The pin goes with the
# last kernel of the v3 input.
BP_USERSPACE_PIN=8e8033d5845ff2c70b1149fe96eed90e96c7380d

# bp_userspace_build: `git archive` of userspace-test/ at BP_USERSPACE_PIN
# into the backport's build directory, built static as scripts/userspace.sh
# builds the checkout's (RelWithDebInfo, XRCRCV_STATIC=ON, through ccache
# when there is one, niced), the suites boot-test.sh runs only. Prints the
# build directory on its last line (stdout); progress on stderr.
bp_userspace_build() {
	local pin=$BP_USERSPACE_PIN short src out launcher=()
	short=$(git -C "$TOP" rev-parse --short=12 "$pin^{commit}" 2>/dev/null) ||
		die "userspace pin $pin is not in this clone (fetch its history: git fetch --unshallow)"
	src=$BPBUILD/backport-userspace-src-$short
	out=$BPBUILD/backport-userspace-$short
	mkdir -p "$BPBUILD"
	(
		exec 9> "$BPBUILD/backport-userspace.lock"
		flock 9
		if [ "$(cat "$src/.pin" 2>/dev/null)" != "$pin" ]; then
			step "backport: userspace-test of $short (git archive), the suites that speak series v3" >&2
			rm -rf "$src"
			mkdir -p "$src"
			git -C "$TOP" archive --format=tar "$pin" userspace-test | tar -x -C "$src" ||
				die "git archive of $pin failed"
			echo "$pin" > "$src/.pin"
		fi
		if command -v ccache > /dev/null; then
			launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
		fi
		step "backport: static build of the v3 suites in $out" >&2
		cmake -S "$src/userspace-test" -B "$out" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
			-DXRCRCV_STATIC=ON -DXRCRCV_BUILD_BENCH=OFF "${launcher[@]}" > "$out.log" 2>&1 ||
			{ cat "$out.log" >&2; die "backport: cmake of the pinned userspace failed: $out.log"; }
		nice -n 19 cmake --build "$out" -j"$JOBS" --target xrc_e2e_tests xrc_e2e_rmmod_tests \
			>> "$out.log" 2>&1 ||
			{ tail -40 "$out.log" >&2; die "backport: build of the pinned userspace failed: $out.log"; }
	) || exit 1
	echo "$out"
}
