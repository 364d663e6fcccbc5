#!/bin/bash
# Builds xrc_sim.ko and xrc-smoke against a kernel build dir and runs the
# smoke test in the guest.  Exits with vm-run.sh's status.
#
#   smoke/run.sh                  (KDIR defaults to the base kernel build)
#   KDIR=~/.cache/xrc-rcv/build/<dir> smoke/run.sh
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
xrc_build=${XRC_BUILD:-${XDG_CACHE_HOME:-$HOME/.cache}/xrc-rcv/build}
kdir=${KDIR:-$xrc_build/kernel}

make -s -C "$here/../../simdev" KDIR="$kdir"
make -s -C "$here" O="$xrc_build/guest"
KERNEL=$kdir/arch/x86/boot/bzImage \
XRC_SIM_KO=$here/../../simdev/xrc_sim.ko \
	exec "$here/../vm-run.sh" "$xrc_build/guest/xrc-smoke"
