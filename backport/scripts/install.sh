#!/bin/bash
# install.sh [-u] KVER [DESTDIR]: install the stack built by build.sh KVER
# under DESTDIR/lib/modules/KVER/updates/xrc-rcv-backport/, the modules
# and the dummies of backport/unsupported, and run depmod, so that
# modprobe prefers them to the stock ones in kernel/. -u removes them.
#
# With Secure Boot: SIGN_KEY=key.priv SIGN_CERT=cert.der (a MOK enrolled
# with mokutil --import) signs each module with the kernel's sign-file
# before depmod (backport/README.md, "Secure Boot").
#
# Without DESTDIR this changes the running system's module tree: it is
# `make backport-install`, run as root. The DKMS package (make
# backport-deb) is the other way; do not use both for one kernel.
source "$(dirname "$0")/lib.sh"

remove=0
[ "${1:-}" != -u ] || { remove=1; shift; }
kver=${1:?usage: install.sh [-u] KVER [DESTDIR]}
destdir=${2:-}
B=$(builddir_of "$kver")
mods=$destdir/lib/modules/$kver
dest=$mods/updates/$BP_NAME
[ -d "$mods" ] || die "no $mods: is $kver installed there?"

depmod_() {
	if [ -n "$destdir" ]; then
		depmod -b "$destdir" "$kver"
	else
		depmod "$kver"
	fi
}

# Debian's initramfs (MODULES=most) carries the stock mlx4_core and
# mlx4_en, which udev loads before the root file system is mounted, so
# before ours: rebuild it, on install and on removal. Not for a DESTDIR.
initramfs() {
	if [ -n "$destdir" ]; then
		echo "    DESTDIR: not rebuilding an initramfs; on that system run update-initramfs -u -k $kver"
	elif [ -e "/boot/initrd.img-$kver" ] && command -v update-initramfs > /dev/null; then
		update-initramfs -u -k "$kver"
	else
		echo "    no /boot/initrd.img-$kver (or no update-initramfs): if this kernel's initramfs holds RDMA or mlx4 modules, rebuild it"
	fi
}

if [ $remove = 1 ]; then
	rm -rf "$dest"
	depmod_
	initramfs
	step "removed $dest; modprobe uses the stock modules of $kver again"
	exit 0
fi

[ -f "$B/VERSION" ] || die "nothing built for $kver: make backport KVER=$kver"
! ls "$mods"/updates/dkms/ib_core.ko* > /dev/null 2>&1 ||
	die "$mods/updates/dkms has an ib_core (the .deb of this backport, or MLNX_OFED): remove that package first"
rm -rf "$dest"
mkdir -p "$dest/dummy"
n=0
while read -r m d; do
	install -m 0644 "$B/$d/$m.ko" "$dest/$m.ko"
	n=$((n + 1))
done < "$B/modules"
while read -r m; do
	install -m 0644 "$B/dummy/$m.ko" "$dest/dummy/$m.ko"
done < "$B/unsupported"
if [ -n "${SIGN_KEY:-}" ]; then
	sign=$(kdir_of "$kver")/scripts/sign-file
	[ -x "$sign" ] || die "no $sign to sign with"
	[ -f "$SIGN_KEY" ] && [ -f "${SIGN_CERT:-}" ] || die "SIGN_KEY needs SIGN_CERT, both files"
	find "$dest" -name '*.ko' -exec "$sign" sha256 "$SIGN_KEY" "$SIGN_CERT" {} \;
	echo "    signed with $SIGN_CERT ($(modinfo -F signer "$dest/ib_core.ko"))"
fi
depmod_
step "installed $n modules and $(wc -l < "$B/unsupported") dummies of $BP_NAME $(cat "$B/VERSION") in $dest"
modprobe_n=$(modinfo -b "${destdir:-/}" -k "$kver" -n ib_core 2>/dev/null || true)
case $modprobe_n in
"$dest"/*) echo "    modprobe ib_core now loads $modprobe_n" ;;
*) die "depmod does not prefer the backport: modinfo -n ib_core is '$modprobe_n'" ;;
esac
initramfs
echo "    To remove: make backport-uninstall KVER=$kver"
