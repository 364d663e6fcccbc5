#!/bin/bash
# Build the simulated XRC device (userspace-test/simdev) against a kernel
# build directory, in a copy outside the checkout.
#   simdev.sh [KDIR]    default: the series' kernel, $KBUILD
source "$(dirname "$0")/lib.sh"

# Progress on stderr; stdout carries only the result, for $(...)
exec 3>&1 1>&2

kdir=${1:-$KBUILD}
out="$BUILD/simdev-$(basename "$kdir")"
mkdir -p "$out"
rsync -a --delete --exclude='*.o' --exclude='*.ko' --exclude='*.mod*' \
	--exclude='.*.cmd' --exclude=Module.symvers --exclude=modules.order \
	"$TOP/userspace-test/simdev/" "$out/"
step "simdev: building xrc_sim.ko against $kdir"
make -s -C "$out" KDIR="$kdir" > "$out/build.log" 2>&1 || { cat "$out/build.log"; die "xrc_sim build failed"; }
echo "$out/xrc_sim.ko" >&3
