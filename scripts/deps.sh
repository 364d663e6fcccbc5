#!/bin/bash
# Install what the workbench needs from Debian, and any further packages
# (name or name=version) given as arguments. Idempotent: installs only what
# is missing, and leaves apt alone when nothing is.
#   deps.sh [PKG...]
source "$(dirname "$0")/lib.sh"

pkgs=(
	build-essential bc bison flex libelf-dev libssl-dev dwarves cpio rsync
	python3 python3-ply python3-git git sparse
	coccinelle ocaml			# some .cocci rules are OCaml scripts
	ccache					# kernel objects kept in $CACHE/ccache
	qemu-system-x86 busybox-static
	cmake g++ libgtest-dev pkg-config
	# libibverbs' headers and library only: not the rdma-core package,
	# whose daemons and udev rules pull udev and systemd onto the host
	libibverbs-dev				# brings libibverbs1, ibverbs-providers
	# building rdma-core from its source (RDMA_CORE_SRC)
	ninja-build libnl-3-dev libnl-route-3-dev cython3 pandoc python3-dev
	${EXTRA_DEPS:-} "$@"
)

# name or name=version; prints the installed version, empty if none
installed() {
	{ dpkg-query -W -f='${Status}|${Version}' "$1" 2>/dev/null || true; } |
		sed -n 's/^install ok installed|//p'
}

missing=()
for p in "${pkgs[@]}"; do
	name=${p%%=*}
	have=$(installed "$name")
	if [ -z "$have" ] || { [ "$name" != "$p" ] && [ "$have" != "${p#*=}" ]; }; then
		missing+=("$p")
	fi
done

if [ ${#missing[@]} -eq 0 ]; then
	step "deps: all ${#pkgs[@]} packages present"
	exit 0
fi
step "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# make test's two lanes may both get here: apt waits for the other's lock
# Fresh package lists only when the ones here cannot serve the request
apt-get install -y -q --no-install-recommends -o DPkg::Lock::Timeout=600 "${missing[@]}" ||
	{ apt-get update -q && apt-get install -y -q --no-install-recommends -o DPkg::Lock::Timeout=600 "${missing[@]}"; }
