#!/bin/bash
# Boot the KUnit kernel with a minimal busybox initramfs that has kmemleak
# scan once the built-in suites have run, print its report and reboot.
#   kmemleak-boot.sh KBUILD
set -euo pipefail
kbuild=$1
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT

mkdir -p "$root"/{bin,proc,sys,dev}
cp /bin/busybox "$root/bin/busybox"
cat > "$root/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox mount -t proc proc /proc
/bin/busybox mount -t sysfs sys /sys
/bin/busybox mount -t debugfs debugfs /sys/kernel/debug
# Objects younger than a few seconds are not reported: scan, wait, scan.
echo scan > /sys/kernel/debug/kmemleak
/bin/busybox sleep 6
echo scan > /sys/kernel/debug/kmemleak
/bin/busybox cat /sys/kernel/debug/kmemleak
echo kmemleak-scan-done
/bin/busybox reboot -f
INIT
chmod +x "$root/init"
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$root.cpio.gz"
trap 'rm -rf "$root" "$root.cpio.gz"' EXIT

timeout 900 qemu-system-x86_64 -nodefaults -nographic -no-reboot \
	-bios qboot.rom -m 1024 -smp 2 -serial stdio \
	-kernel "$kbuild/arch/x86/boot/bzImage" -initrd "$root.cpio.gz" \
	-append "console=ttyS0 kunit.filter_glob=${KUNIT_SUITES:-*} panic=-1 rdinit=/init"
