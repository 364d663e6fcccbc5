#!/bin/bash
# End-to-end: the series' kernel (the one KUnit uses: KASAN, lockdep,
# kmemleak), the simulated XRC device and the static C++ suites, in a
# QEMU guest. Fails on any failed test, on any kernel report, and on any
# skipped test that userspace-test/tests/e2e-skip-allow.txt does not list.
# Prints passed/failed/skipped per transport and writes them, key=value,
# to $BUILD/e2e/summary.txt (see tests/summarise-guest-log.sh).
#
# Environment (all optional):
#   E2E_NO_KERNEL_BUILD=1  boot the kernel that is already built instead of
#                          running scripts/kernel.sh (which may rebuild it)
#   E2E_KERNEL=BZIMAGE     the kernel to boot (default: $KBUILD's bzImage)
#   E2E_XRC_SIM_KO=KO      a prebuilt xrc_sim.ko for that kernel (default:
#                          scripts/simdev.sh builds one against $KBUILD)
#   E2E_GUEST_ENV='K=V ..' exported in the guest before the suites, e.g.
#                          XRC_E2E_FUZZ_ITERATIONS=2000 for a quick run,
#                          XRC_RACE_SEED=0x... to replay a race fuzzer run
#   E2E_TIMEOUT=SECONDS    for the whole guest boot (default 3600)
source "$(dirname "$0")/lib.sh"

guest="$TOP/userspace-test/guest"
tests="$TOP/userspace-test/tests"
[ "${E2E_NO_KERNEL_BUILD:-0}" = 1 ] || "$TOP/scripts/kernel.sh"
kernel=${E2E_KERNEL:-$KBUILD/arch/x86/boot/bzImage}
[ -f "$kernel" ] || die "no kernel to boot: $kernel"
if [ -n "${E2E_XRC_SIM_KO:-}" ]; then
	ko=$E2E_XRC_SIM_KO
	[ -f "$ko" ] || die "no such module: $ko"
else
	ko=$("$TOP/scripts/simdev.sh")
fi
static=$("$TOP/scripts/userspace.sh")

out="$BUILD/e2e"
mkdir -p "$out"
{
	for kv in ${E2E_GUEST_ENV:-}; do
		case $kv in
		[A-Z_]*=*) echo "export $kv" ;;
		*) die "E2E_GUEST_ENV: not NAME=VALUE: $kv" ;;
		esac
	done
	cat "$tests/guest-run.sh"
} > "$out/guest-run.sh"
# What `rdma resource show qp` would print, from a static netlink client
cc -static -O2 -Wall -Wextra -Werror -o "$out/rdma-res-qp" \
	"$TOP/userspace-test/tools/rdma-res-qp/rdma-res-qp.c"

step "e2e: packing the guest (xrc_sim, unit, e2e, race, fault and device-removal suites, xrc-rcv)"
"$guest/mkinitramfs.sh" -o "$out/initramfs.cpio.gz" -k "$ko" \
	-s "$out/guest-run.sh" "$out/rdma-res-qp" \
	"$static/xrc-rcv" "$static/tests/xrc_unit_tests" \
	"$static/tests/xrc_e2e_tests" "$static/tests/xrc_e2e_rmmod_tests" \
	"$static/tests/xrc_race" "$static/tests/xrc_faults" \
	"$TOP/userspace-test/tools/xrc-rcv/xrc-rcv-demo.sh"

step "e2e: booting $kernel (TCG; the suites take a while under KASAN)"
# Show what the suites say as they say it, not the kernel's own messages
XRC_BUILD="$BUILD" "$guest/run-qemu.sh" -k "$kernel" \
	-i "$out/initramfs.cpio.gz" -l "$out/guest.log" -t "${E2E_TIMEOUT:-3600}" |
	grep --line-buffered -E '^\[ *(FAILED|SKIPPED) *\]|^\[==========\]|^XRC-|^\[demo\]|^\[restrack\]|^\[cgroup\]|^\[race\]|^\[faults\]|^\[  NO-XRC|^run-qemu' || true

step "e2e: results (ioctl: the suites over the XRCD ioctl methods, the only transport since series v4)"
summary_ok=1
"$tests/summarise-guest-log.sh" "$out/guest.log" "$tests/e2e-skip-allow.txt" \
	"$out/summary.txt" || summary_ok=0
# userspace.sh wrote its host test counts there before it returned
cat "$static/ctest-summary.txt" >> "$out/summary.txt"
echo "summary: $out/summary.txt"
log_ok=1
"$guest/check-log.sh" "$out/guest.log" || log_ok=0
[ "$log_ok" = 1 ] || die "end-to-end tests failed or the kernel reported: $out/guest.log"
[ "$summary_ok" = 1 ] || die "end-to-end results not accepted (failed or unlisted skips): $out/guest.log"
step "e2e: passed, no unlisted skips, no kernel reports ($out/guest.log)"
