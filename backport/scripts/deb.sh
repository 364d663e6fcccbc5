#!/bin/bash
# deb.sh [KVER]: make backport-deb. Builds $CACHE/build/backport-deb/
# <name>-dkms_<version>-1_all.deb, a DKMS source package the way
# MLNX_OFED ships mlnx-ofed-kernel-dkms: /usr/src/<name>-<version>/ is
# the source tree of prepare.sh (without xrc_sim, a test device), its
# dkms.conf runs build-modules.sh, and the maintainer scripts are those
# of backport/dkms/. Prints the path of the .deb on stdout.
source "$(dirname "$0")/lib.sh"

# the input of KVER (default: the first of backport/kernels), for the
# kernels of that input only (dkms.conf: BUILD_EXCLUSIVE_KERNEL)
use_input "${1:-$(default_kver)}"
[ -f "$TREE/Makefile" ] || die "no patched tree at $TREE (make tree)"
version=$(bp_version)
D=$BPBUILD/backport-deb
src=$D/src
root=$D/root
"$BP/scripts/prepare.sh" "$src" >&2
rm -rf "$root"
usrsrc=$root/usr/src/$BP_NAME-$version
mkdir -p "$usrsrc" "$root/DEBIAN" "$root/usr/share/doc/$BP_NAME-dkms"
rsync -a --exclude=/ext/ --exclude=/.stage/ "$src/" "$usrsrc/"
install -m 0644 "$BP/README.md" "$root/usr/share/doc/$BP_NAME-dkms/README.md"
# DKMS declines a module whose MODULE_VERSION equals the stock one's
# (mlx4_core and mlx4_en are 4.0-0 in both): skip that check for this
# package, as MLNX_OFED does
mkdir -p "$root/usr/share/dkms/modules_to_force_install"
echo "${BP_NAME}_version-override" > "$root/usr/share/dkms/modules_to_force_install/$BP_NAME"
maintainer=$(sed -n 's/^M:[[:space:]]*//p' "$TOP/MAINTAINERS" | head -n 1)
fill() {
	sed -e "s/@NAME@/$BP_NAME/g" -e "s/@VERSION@/$version/g" -e "s/@MAINTAINER@/$maintainer/" "$1"
}
fill "$BP/dkms/control" > "$root/DEBIAN/control"
fill "$BP/dkms/copyright" > "$root/usr/share/doc/$BP_NAME-dkms/copyright"
{
	echo "$BP_NAME-dkms ($version-1) unstable; urgency=medium"
	echo
	echo "  * Built from the series at $(git -C "$TREE" rev-parse --short=12 HEAD)."
	echo
	echo " -- $maintainer  $(git -C "$TREE" log -1 --format=%aD)"
} | gzip -9n > "$root/usr/share/doc/$BP_NAME-dkms/changelog.Debian.gz"
for s in preinst postinst prerm postrm; do
	fill "$BP/dkms/$s" > "$root/DEBIAN/$s"
	chmod 0755 "$root/DEBIAN/$s"
done
deb=$D/${BP_NAME}-dkms_${version}-1_all.deb
rm -f "$D"/*.deb
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >&2
step "backport-deb: $deb ($(du -h "$deb" | cut -f1))" >&2
echo "$deb"
