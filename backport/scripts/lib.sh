# Shared helpers of the backport scripts. Source it; do not run it.
set -euo pipefail

BP="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"	# backport/
TOP="$(cd "$BP/.." && pwd)"				# the checkout
CACHE="${CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/xrc-rcv}"
BPBUILD="$CACHE/build"					# backport-<kver>/ live here
JOBS="${JOBS:-2}"
# The input (read only), whichever TREE a caller set (use_input):
#   7.3  the tree of make tree: Linux 7.3.4 + patches/ (series v4)
BP_TREE_73="${BP_TREE_73:-${TREE:-$CACHE/tree}}"
BP_SERIES_73="${BP_SERIES_73:-${SERIES_VERSION:-$(sed -n 's/^SERIES_VERSION *:= *//p' "$TOP/Makefile")}}"
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
	*) die "kernel $1: input '$BP_INPUT' is not 7.3 ($BP/kernels)" ;;
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
# HEAD), e.g. 7.3.4+xrc4.121.g96349d0ff75c. It is in modinfo
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
