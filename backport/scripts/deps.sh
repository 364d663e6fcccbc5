#!/bin/bash
# deps.sh: install what the backport needs from Debian, pinned headers
# first. Idempotent: apt is left alone when everything is there.
#
# Note: Debian's linux-headers-6.12.*-amd64 depends on the matching
# linux-image-*-unsigned, so installing those headers also installs that
# image package on the host (it is never booted: no bootloader runs here).
# The 6.1 image of the boot proof is only downloaded (boot-test.sh).
source "$(dirname "$0")/lib.sh"

pkgs=($(kernels | awk '{ print $2 }')
      rsync patch kmod cpio gzip qemu-system-x86 busybox-static
      cmake g++ libgtest-dev pkg-config)

missing=()
for p in "${pkgs[@]}"; do
	have=$(installed_version "$p")
	if [ -z "$have" ] || { [ "${p%%=*}" != "$p" ] && [ "$have" != "${p#*=}" ]; }; then
		missing+=("$p")
	fi
done
if [ ${#missing[@]} -eq 0 ]; then
	step "backport-deps: all ${#pkgs[@]} packages present"
	exit 0
fi
step "backport-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q --no-install-recommends "${missing[@]}" ||
	{ apt-get update -q && apt-get install -y -q --no-install-recommends "${missing[@]}"; }
