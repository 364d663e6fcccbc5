#!/bin/bash
# Debian packages the rdma-core build, its checks and pyverbs need.
# Idempotent: installs only what is missing.
set -euo pipefail
pkgs=(cmake ninja-build pkg-config libnl-3-dev libnl-route-3-dev libudev-dev
      cython3 python3-dev python3-docutils python3-setuptools pandoc
      libsystemd-dev gcc g++ perl binutils)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "rdma-core deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q --no-install-recommends -o DPkg::Lock::Timeout=600 "${missing[@]}" ||
	{ apt-get update -q && apt-get install -y -q --no-install-recommends -o DPkg::Lock::Timeout=600 "${missing[@]}"; }
