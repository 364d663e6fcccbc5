#!/bin/bash
# The main job: boot the series' kernel with the simulated XRC device and
# walk, with xrc-rcv, through the life of one shared receive QP. Process A
# creates it, B registers its number, A exits, the QP lives on, B queries
# and modifies it, B's unregister destroys it; then the same with A killed
# by SIGKILL. Every step and the QP's state are printed as they happen.
source "$(dirname "$0")/lib.sh"

guest="$TOP/userspace-test/guest"
"$TOP/scripts/kernel.sh"
ko=$("$TOP/scripts/simdev.sh")
static=$("$TOP/scripts/userspace.sh")

out="$BUILD/demo"
mkdir -p "$out"
cat > "$out/demo.sh" <<'SCRIPT'
echo '=== A creates the QP and exits normally ==='
XRC_RCV=xrc-rcv sh /tests/xrc-rcv-demo.sh exit
echo '=== A creates the QP and is killed with SIGKILL ==='
XRC_RCV=xrc-rcv sh /tests/xrc-rcv-demo.sh kill
SCRIPT
"$guest/mkinitramfs.sh" -o "$out/initramfs.cpio.gz" -k "$ko" -s "$out/demo.sh" \
	"$static/xrc-rcv" "$TOP/userspace-test/tools/xrc-rcv/xrc-rcv-demo.sh"
step "demo: booting the guest (about 30 s to the first step)"
XRC_BUILD="$BUILD" "$guest/run-qemu.sh" -k "$KBUILD/arch/x86/boot/bzImage" \
	-i "$out/initramfs.cpio.gz" -l "$out/guest.log" -t 900 |
	grep -vE '^\[ *[0-9]+\.[0-9]+\]' || true
"$guest/check-log.sh" "$out/guest.log" > /dev/null || die "the demo failed: $out/guest.log"
step "demo: done, no kernel reports"
