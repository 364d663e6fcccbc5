#!/bin/bash
# Run the patched libibverbs in the end-to-end guest: the series' kernel,
# xrc_sim, the xrc_sim provider, and dynamic programs with their libraries.
#
#   guest.sh        ibv_devinfo, the verbs through libibverbs, the OFED-style
#                   multi-process program (ofa-compat/examples), and the
#                   end-to-end suites over libibverbs (xrc_e2e_tests, built
#                   here against the patched libibverbs: its /verbs cases)
#   guest.sh demo   only the OFED-style program, its narration printed
#   guest.sh bench  REG + UNREG through libibverbs against MLNX_OFED's
#                   emulation over ibv_open_qp() (guest/xrc_rcv_bench.c,
#                   RC_BENCH_ARGS); its line goes to RC_BENCH_OUT. make bench
#                   runs it on the bench kernel; the test mode runs a tiny
#                   one so that it cannot rot.
#
# userspace-test/guest/mkinitramfs.sh packs static programs only. The
# libibverbs stack is dynamic (providers are dlopen()ed), so this packs a
# second cpio archive - the programs, every library they and the provider
# need, the loader, and the provider's driver file where libibverbs looks
# (/usr/local/etc/libibverbs.d) - and appends it to mkinitramfs.sh's
# archive: the kernel unpacks concatenated archives in order.
#
# KERNEL=bzImage XRC_SIM_KO=xrc_sim.ko use those instead of building them
# with scripts/kernel.sh and scripts/simdev.sh (which need the top
# Makefile's environment).
source "$(dirname "$0")/lib.sh"
export PATH=/usr/bin:/bin:/usr/sbin:/sbin:$PATH

mode=${1:-test}
case $mode in
test|demo|bench) ;;
*) die "usage: guest.sh [demo|bench]" ;;
esac

out="$CACHE/build/rdma-core-guest"
prov="$CACHE/build/xrc-sim-provider"
ofa="$CACHE/build/ofa-compat"
mkdir -p "$out"

if [ -z "${KERNEL:-}" ] || [ -z "${XRC_SIM_KO:-}" ]; then
	"$TOP/scripts/kernel.sh" >&2
	KERNEL="$KBUILD/arch/x86/boot/bzImage"
	XRC_SIM_KO=$("$TOP/scripts/simdev.sh")
fi
[ -f "$KERNEL" ] || die "no kernel at $KERNEL"
[ -f "$XRC_SIM_KO" ] || die "no xrc_sim.ko at $XRC_SIM_KO"

step "rdma-core guest: programs"
for prog in xrc_rcv_verbs xrc_rcv_bench; do
	cc -O2 -Wall -Wextra -Werror -I"$RC_BUILD/include" -o "$out/$prog" \
		"$RC_DIR/guest/$prog.c" -L"$RC_BUILD/lib" -libverbs
done
# The e2e suites with Transport::verbs: a dynamic build of the C++ tests
# against the patched libibverbs (the static ones in make e2e have no
# libibverbs: it dlopen()s its providers).  Not for the demo.
e2e_tests=()
if [ "$mode" = test ]; then
	e2e="$CACHE/build/userspace-verbs"
	forget_foreign_cmake_build "$e2e" "$TOP/userspace-test"
	# Through ccache, as scripts/userspace.sh does, so that a fresh clone
	# at the same path (CI's) does not compile the suites again
	launcher=()
	if command -v ccache > /dev/null && [ -n "${CCACHE_DIR:-}" ]; then
		export CCACHE_BASEDIR="$TOP"
		launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
	fi
	cmake -S "$TOP/userspace-test" -B "$e2e" -DXRCRCV_IBVERBS_ROOT="$RC_BUILD" \
		-DXRCRCV_IBVERBS_ADAPTER=ON -DXRCRCV_BUILD_BENCH=OFF "${launcher[@]}" \
		> "$out/cmake.log" ||
		{ tail -20 "$out/cmake.log"; die "cmake of the e2e suites against $RC_BUILD failed"; }
	nicely cmake --build "$e2e" -j"$JOBS" --target xrc_e2e_tests xrc_unit_tests \
		> "$out/build.log" ||
		{ tail -40 "$out/build.log"; die "the e2e suites did not build ($out/build.log)"; }
	# The adapter's host tests need this build too: its translations and
	# that every fallible call of it is [[nodiscard]]
	(cd "$e2e" && ctest -R 'IbverbsAdapter|nodiscard' > "$out/ctest.log" 2>&1) ||
		{ cat "$out/ctest.log"; die "the adapter's host tests failed ($out/ctest.log)"; }
	grep -E '^[0-9]+% tests passed' "$out/ctest.log"
	grep -qE 'IbverbsAdapter.*Passed' "$out/ctest.log" ||
		die "no IbverbsAdapter test ran ($out/ctest.log)"
	e2e_tests=("$e2e/tests/xrc_e2e_tests")
	# How many /verbs cases the binary has: the guest must count them all
	verbs_expected=$(LD_LIBRARY_PATH="$RC_BUILD/lib" "$e2e/tests/xrc_e2e_tests" \
		--gtest_list_tests --gtest_filter='*/verbs' | grep -c '^  ') ||
		die "cannot list the /verbs cases of $e2e/tests/xrc_e2e_tests"
fi
[ -x "$ofa/ofed_xrc_share" ] || die "no $ofa/ofed_xrc_share: run make ofa-compat-test"
[ -f "$prov/xrc_sim.driver" ] || die "no provider in $prov: run make xrc-sim-provider"

# The payload: everything under /usr/local, plus the loader and libc where
# the programs' ELF headers name them
root="$out/root"
rm -rf "$root"
mkdir -p "$root/usr/local/bin" "$root/usr/local/lib/libibverbs" \
	"$root/usr/local/etc/libibverbs.d" "$root/etc"
install -m 0755 "$RC_BUILD/bin/ibv_devinfo" "$RC_BUILD/bin/ibv_devices" \
	"$out/xrc_rcv_verbs" "$out/xrc_rcv_bench" "$ofa/ofed_xrc_share" "${e2e_tests[@]}" \
	"$root/usr/local/bin/"
install -m 0755 "$prov"/libxrc_sim-rdmav*.so "$root/usr/local/lib/libibverbs/"
install -m 0644 "$prov/xrc_sim.driver" "$root/usr/local/etc/libibverbs.d/"
pack_libs "$root" "$RC_BUILD/lib:$ofa"

if [ "$mode" = bench ]; then
	cat > "$out/guest.sh" <<GUEST
#!/bin/sh
# Run by the guest's /init (sh -e): the libibverbs benchmark.
export LD_LIBRARY_PATH=/usr/local/lib
/usr/local/bin/xrc_rcv_bench ${RC_BENCH_ARGS:-}
GUEST
elif [ "$mode" = demo ]; then
	cat > "$out/guest.sh" <<'GUEST'
#!/bin/sh
# Run by the guest's /init (sh -e): an OFED 1.5-style code on libibverbs.
export LD_LIBRARY_PATH=/usr/local/lib
echo "RC-DEMO: 4 processes, one receive QP per peer, as MPI XRC setup does"
/usr/local/bin/ofed_xrc_share 4
GUEST
else
	cat > "$out/guest.sh" <<'GUEST'
#!/bin/sh
# Run by the guest's /init (sh -e): the libibverbs stack on xrc_sim0.
export LD_LIBRARY_PATH=/usr/local/lib
export PATH=/usr/local/bin:$PATH
echo "== ibv_devices"
ibv_devices
echo "== ibv_devinfo -v"
ibv_devinfo -v > /tmp/devinfo
cat /tmp/devinfo
grep -q 'hca_id:[[:space:]]*xrc_sim0' /tmp/devinfo
grep -q 'PORT_ACTIVE' /tmp/devinfo
echo "RC-GUEST: ibv_devinfo shows xrc_sim0"
echo "== xrc_rcv_verbs"
xrc_rcv_verbs
echo "== ofed_xrc_share"
ofed_xrc_share 4
ofed_xrc_share 7
echo "== xrc_rcv_bench (tiny: that it runs, not what it measures)"
xrc_rcv_bench --pairs 20 --trials 3
# The e2e suites' cases over libibverbs (tests/summarise-section.sh counts
# the section on the host)
echo "== xrc_e2e_tests over libibverbs"
echo "XRC-SUITE=e2e-verbs"
xrc_e2e_tests --gtest_filter='*/verbs'
echo "XRC-SUITE=end"
echo "RC-GUEST: all passed"
GUEST
fi

step "rdma-core guest: initramfs"
"$TOP/userspace-test/guest/mkinitramfs.sh" -o "$out/base.cpio.gz" -k "$XRC_SIM_KO" -s "$out/guest.sh"
(cd "$root" && find . -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc -R 0:0 --quiet) | gzip -1 > "$out/stack.cpio.gz"
cat "$out/base.cpio.gz" "$out/stack.cpio.gz" > "$out/initramfs.cpio.gz"

step "rdma-core guest: booting $KERNEL"
"$TOP/userspace-test/guest/run-qemu.sh" -i "$out/initramfs.cpio.gz" -k "$KERNEL" \
	-l "$out/guest.log" -t 900 > /dev/null || die "the guest did not power off by itself ($out/guest.log)"
if [ "$mode" = test ]; then
	# Counted first, so that a failed guest still shows them
	verbs=$("$TOP/userspace-test/tests/summarise-section.sh" "$out/guest.log" e2e-verbs \
		"$TOP/userspace-test/tests/e2e-skip-allow.txt" "$verbs_expected") || verbs_failed=1
	printf '%s\n' "$verbs"
	[ -z "${verbs_failed:-}" ] || die "the e2e suites over libibverbs failed ($out/guest.log)"
fi
grep -q '^XRC-GUEST-EXIT=0' "$out/guest.log" ||
	{ tail -40 "$out/guest.log"; die "the guest's tests failed ($out/guest.log)"; }
if [ "$mode" = test ] && [ -n "${SUMMARY:-}" ]; then
	# make test's row, from a guest that ran to the end: e2e_verbs_passed=N ...
	counts=$(tail -1 <<< "$verbs")
	tr ' ' '\n' <<< "${counts#e2e-verbs: }" | sed 's/^/e2e_verbs_/' >> "$SUMMARY"
fi
"$TOP/userspace-test/guest/check-log.sh" "$out/guest.log" ||
	die "the guest's kernel log has findings ($out/guest.log)"
if [ "$mode" = bench ]; then
	line=$(grep -a '^XRC-VERBS-BENCH ' "$out/guest.log" | tail -1)
	[ -n "$line" ] || die "no XRC-VERBS-BENCH line in $out/guest.log"
	echo "$line"
	[ -z "${RC_BENCH_OUT:-}" ] || echo "$line" > "$RC_BENCH_OUT"
	step "rdma-core bench: done, no kernel reports"
	exit 0
fi
if [ "$mode" = demo ]; then
	grep -E '^(RC-DEMO|\[(proc|parent)|ofed_xrc_share)' "$out/guest.log"
	step "rdma-core demo: done, no kernel reports"
	exit 0
fi
grep -aq '^XRC-VERBS-BENCH ' "$out/guest.log" || die "xrc_rcv_bench printed no result ($out/guest.log)"
grep -E '^(RC-GUEST|xrc_rcv_verbs|ofed_xrc_share):|^XRC-VERBS-BENCH ' "$out/guest.log"
step "rdma-core guest: passed"
