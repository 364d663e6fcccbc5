#!/bin/bash
# End-to-end: the series' kernel (the one KUnit uses: KASAN, lockdep,
# kmemleak), the simulated XRC device and the static C++ suites, in a
# QEMU guest. Fails on any failed test and on any kernel report.
source "$(dirname "$0")/lib.sh"

guest="$TOP/userspace-test/guest"
"$TOP/scripts/kernel.sh"
ko=$("$TOP/scripts/simdev.sh")
static=$("$TOP/scripts/userspace.sh")

out="$BUILD/e2e"
mkdir -p "$out"
step "e2e: packing the guest (xrc_sim, unit, e2e and device-removal suites, xrc-rcv)"
"$guest/mkinitramfs.sh" -o "$out/initramfs.cpio.gz" -k "$ko" \
	-s "$TOP/userspace-test/tests/guest-run.sh" \
	"$static/xrc-rcv" "$static/tests/xrc_unit_tests" \
	"$static/tests/xrc_e2e_tests" "$static/tests/xrc_e2e_rmmod_tests" \
	"$TOP/userspace-test/tools/xrc-rcv/xrc-rcv-demo.sh"

step "e2e: booting the guest (TCG; the suites take a few minutes under KASAN)"
# Show what the suites say as they say it, not the kernel's own messages
XRC_BUILD="$BUILD" "$guest/run-qemu.sh" -k "$KBUILD/arch/x86/boot/bzImage" \
	-i "$out/initramfs.cpio.gz" -l "$out/guest.log" -t 2400 |
	grep --line-buffered -E '^\[ *(PASSED|FAILED|SKIPPED) *\]|^\[==========\]|^XRC-GUEST|^\[demo\]|^run-qemu' || true
"$guest/check-log.sh" "$out/guest.log" || die "end-to-end tests failed: $out/guest.log"
step "e2e: passed, no kernel reports ($out/guest.log)"
