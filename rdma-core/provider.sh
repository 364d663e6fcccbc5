#!/bin/bash
# Build the test-only xrc_sim provider (userspace-test/provider/) against
# the patched rdma-core build, and check that the patched libibverbs
# loads it and finds no device on a host without xrc_sim.
source "$(dirname "$0")/lib.sh"
export PATH=/usr/bin:/bin:/usr/sbin:/sbin:$PATH

out="$CACHE/build/xrc-sim-provider"
step "xrc_sim provider: build"
nicely make -s -C "$TOP/userspace-test/provider" RC_BUILD="$RC_BUILD" RC_TREE="$RC_TREE" O="$out" >/dev/null
# The one for this tree's PABI (an earlier base's may be beside it)
pabi=$(sed -n 's/^set(IBVERBS_PABI_VERSION "\([0-9]*\)")/\1/p' "$RC_TREE/CMakeLists.txt")
so="$out/libxrc_sim-rdmav$pabi.so"
# The patched libibverbs can load it: dlopen() with RTLD_NOW binds every
# IBVERBS_PRIVATE symbol and runs its constructor (verbs_register_driver).
# (ibv_get_device_list() would not try on a host without uverbs devices.)
/usr/bin/python3 -c '
import ctypes, sys
ctypes.CDLL(sys.argv[1], mode=ctypes.RTLD_GLOBAL)
ctypes.CDLL(sys.argv[2], mode=2)   # RTLD_NOW
' "$(readlink -f "$RC_BUILD/lib/libibverbs.so.1")" "$so" ||
	die "the patched libibverbs cannot load $so"
step "xrc_sim provider: $so loads into the patched libibverbs"
