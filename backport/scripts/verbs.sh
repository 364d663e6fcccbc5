#!/bin/bash
# verbs.sh OUT: the libibverbs half of the boot proof's payload, the same
# one make rdma-core-guest boots on the series' kernel:
#
#   OUT/root/usr/local/   ibv_devinfo and the patched libibverbs (rdma-core
#                         with patches/rdma-core/, the build of RC_BUILD),
#                         the xrc_sim provider (userspace-test/provider/,
#                         make xrc-sim-provider) with its driver file, and
#                         xrc_e2e_tests built against that libibverbs (its
#                         /verbs cases run over it), with every library
#                         they need and the loader (pack_libs)
#   OUT/expected          how many /verbs cases that binary lists: the
#                         guest must count them all
#
# The suites are built where rdma-core/guest.sh builds them
# ($CACHE/build/userspace-verbs) with the same configuration, so that one
# build serves both (a configuration of its own would make each of them
# recompile the other's). Nothing here is kernel-specific: the stock
# kernel's ib_uverbs is the backport's, which speaks what the series'
# kernel speaks.
#
# Run by boot-test.sh; the Makefile has built rdma-core and the provider
# (make xrc-sim-provider) first.
source "$(dirname "$0")/../../rdma-core/lib.sh"
export PATH=/usr/bin:/bin:/usr/sbin:/sbin:$PATH

out=${1:?usage: verbs.sh OUTDIR}
prov="$CACHE/build/xrc-sim-provider"
e2e="$CACHE/build/userspace-verbs"
[ -x "$RC_BUILD/bin/ibv_devinfo" ] && [ -e "$RC_BUILD/lib/libibverbs.so.1" ] ||
	die "no patched rdma-core build in $RC_BUILD: make xrc-sim-provider (it builds rdma-core first)"
[ -f "$prov/xrc_sim.driver" ] || die "no xrc_sim provider in $prov: make xrc-sim-provider"
mkdir -p "$out"

# The e2e suites with Transport::verbs, configured exactly as
# rdma-core/guest.sh configures them (ccache when the Makefile set
# CCACHE_DIR)
forget_foreign_cmake_build "$e2e" "$TOP/userspace-test"
launcher=()
if command -v ccache > /dev/null && [ -n "${CCACHE_DIR:-}" ]; then
	export CCACHE_BASEDIR="$TOP"
	launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
step "backport verbs: the e2e suites against the patched libibverbs ($e2e)"
cmake -S "$TOP/userspace-test" -B "$e2e" -DXRCRCV_IBVERBS_ROOT="$RC_BUILD" \
	-DXRCRCV_IBVERBS_ADAPTER=ON -DXRCRCV_BUILD_BENCH=OFF "${launcher[@]}" \
	> "$out/cmake.log" ||
	{ tail -20 "$out/cmake.log"; die "cmake of the e2e suites against $RC_BUILD failed"; }
nicely cmake --build "$e2e" -j"$JOBS" --target xrc_e2e_tests > "$out/build.log" ||
	{ tail -40 "$out/build.log"; die "the e2e suites did not build ($out/build.log)"; }
tests="$e2e/tests/xrc_e2e_tests"
n=$(LD_LIBRARY_PATH="$RC_BUILD/lib" "$tests" --gtest_list_tests --gtest_filter='*/verbs' |
	grep -c '^  ') || die "cannot list the /verbs cases of $tests"
[ "$n" -gt 0 ] || die "$tests has no /verbs case: not built with the libibverbs adapter"

# The payload, laid out as make rdma-core-guest lays it out: libibverbs
# finds the provider's driver file in /usr/local/etc/libibverbs.d and the
# provider in /usr/local/lib/libibverbs
root="$out/root"
rm -rf "$root"
mkdir -p "$root/usr/local/bin" "$root/usr/local/lib/libibverbs" "$root/usr/local/etc/libibverbs.d"
install -m 0755 "$RC_BUILD/bin/ibv_devinfo" "$tests" "$root/usr/local/bin/"
install -m 0755 "$prov"/libxrc_sim-rdmav*.so "$root/usr/local/lib/libibverbs/"
install -m 0644 "$prov/xrc_sim.driver" "$root/usr/local/etc/libibverbs.d/"
pack_libs "$root" "$RC_BUILD/lib"
echo "$n" > "$out/expected"
step "backport verbs: libibverbs $RC_VERSION (patches/rdma-core/), the xrc_sim provider, xrc_e2e_tests ($n /verbs cases)"
