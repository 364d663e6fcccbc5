#!/bin/bash
# dkms-install.sh KVER DEB DESTDIR: what installing DEB (make backport-deb)
# does on a system with kernel KVER, into DESTDIR instead of /: unpack the
# package, then Debian's dkms adds, builds and installs its source for
# KVER (into DESTDIR/lib/modules/KVER/updates/dkms), and depmod -b.
#
# A warm run reuses what DKMS built last time when the package's source,
# the kernel headers and dkms are all the same (a stamp of their hashes);
# any change to them rebuilds from scratch, as DKMS would.
#
# Nothing is installed on the host, and nothing of it is read. dkms
# itself is Debian's package, apt-get downloaded and unpacked into the
# cache (it is one bash script); its trees (--sourcetree, --dkmstree,
# --installtree) point into the cache, and the run's copy of the script
# has its fixed paths (/etc/dkms, /var/lib/dkms,
# /usr/share/dkms/modules_to_force_install) moved there too, the last to
# the unpacked package: as if DKMS and the package were installed in a
# root of their own. The install tree holds the stock modules (hard
# links), so DKMS's version checks against them run as on a real system.
# The package's postinst does the same through
# /usr/lib/dkms/common.postinst, which this does not run.
source "$(dirname "$0")/lib.sh"

kver=${1:?usage: dkms-install.sh KVER DEB DESTDIR}
stock_dep=${STOCK_MODULES_DEP:?the stock modules.dep of KVER (boot-test.sh sets it)}
deb=${2:?usage: dkms-install.sh KVER DEB DESTDIR}
destdir=${3:?usage: dkms-install.sh KVER DEB DESTDIR}
W=$BPBUILD/backport-dkms
tools=$BPBUILD/tools

# dkms, unpacked
dkms=$tools/dkms/usr/sbin/dkms
if [ ! -x "$dkms" ]; then
	mkdir -p "$tools/debs"
	(cd "$tools/debs" && apt-get download -q dkms 2>&1 | grep -v '^W: Download is performed unsandboxed') ||
		die "cannot download Debian's dkms"
	rm -rf "$tools/dkms"
	dpkg-deb -x "$(ls -t "$tools"/debs/dkms_*.deb | head -n 1)" "$tools/dkms"
fi

name=$(dpkg-deb -f "$deb" Package)
version=$(dpkg-deb -f "$deb" Version)
version=${version%-*}		# the Debian revision is not DKMS's
name=${name%-dkms}
dkmsdeb=$(ls -t "$tools"/debs/dkms_*.deb | head -n 1)
out=$W/out-$kver		# its lib/modules/KVER is DKMS's install tree
dlog=$W/dkms-$kver.log	# of the last build for KVER (a reuse keeps it)
# dpkg-deb -x makes its target, not the target's parents
mkdir -p "$W"
rm -rf "$W/root"
dpkg-deb -x "$deb" "$W/root"
src=$W/root/usr/src/$name-$version
[ -f "$src/dkms.conf" ] || die "$deb has no usr/src/$name-$version/dkms.conf"
key=$( { (cd "$src" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum)
	 echo "$kver $(installed_version "$(kernel_field "$kver" 2)") $(sha256sum < "$dkmsdeb") $(sha256sum < "$0")"; } |
	sha256sum | cut -d' ' -f1)
if [ -f "$out/.stamp" ] && [ "$(cat "$out/.stamp")" = "$key" ]; then
	step "dkms: $name $version for $kver: package source, headers and dkms unchanged, reusing the modules DKMS built before"
else
	rm -rf "$W/tree" "$W/etc" "$W/var" "$out"
	mkdir -p "$W/tree" "$W/etc" "$W/var" "$out/lib/modules/$kver"
	cp -al "$destdir/lib/modules/$kver/kernel" "$out/lib/modules/$kver/"
	cp "$stock_dep" "$out/lib/modules/$kver/modules.dep"
	sed -e "s|/etc/dkms/|$W/etc/|g" -e "s|/var/lib/dkms|$W/var|g" \
	    -e "s|/usr/share/dkms/modules_to_force_install|$W/root/usr/share/dkms/modules_to_force_install|" \
	    -e "s|/lib/modules/\$kernel_test/modules.dep|$out/lib/modules/\$kernel_test/modules.dep|g" \
		"$dkms" > "$W/dkms"
	grep -q "$out/lib/modules/\$kernel_test/modules.dep" "$W/dkms" ||
		die "dkms $(dpkg-deb -f "$dkmsdeb" Version) reads modules.dep elsewhere: update dkms-install.sh"
	chmod +x "$W/dkms"
	dk() {
		"$W/dkms" --sourcetree "$W/root/usr/src" --dkmstree "$W/tree" \
			--installtree "$out/lib/modules" --no-depmod \
			-m "$name" -v "$version" "$@"
	}
	step "dkms: add, build, install $name $version for $kver (dkms $(dpkg-deb -f "$dkmsdeb" Version))"
	dk add > "$dlog" 2>&1 &&
	dk build -k "$kver" --kernelsourcedir "$(kdir_of "$kver")" >> "$dlog" 2>&1 &&
	dk install -k "$kver" >> "$dlog" 2>&1 || {
		tail -n 30 "$dlog"
		grep -E 'error|Error' "$W/tree/$name/$version/build/make.log" 2>/dev/null | head -n 20
		die "dkms failed: $dlog"
	}
	# dkms install says 0 when it declines a module (e.g. one whose
	# version equals the stock one's): every built module must be there
	n=$(grep -c '^BUILT_MODULE_NAME' "$src/dkms.conf")
	got=$(find "$out/lib/modules/$kver/updates/dkms" -name '*.ko*' | wc -l)
	[ "$got" = "$n" ] || { grep -iE 'will not replace|not newer|obsolete' "$dlog"
		die "dkms installed $got of $n modules: $dlog"; }
	# and it met the stock modules (mlx4_core is 4.0-0 on both sides)
	grep -q "Forcing version override of $name" "$dlog" ||
		die "dkms did not apply the package's version override: $dlog"
	echo "$key" > "$out/.stamp"
fi
mkdir -p "$destdir/lib/modules/$kver/updates"
rm -rf "$destdir/lib/modules/$kver/updates/dkms"
cp -a "$out/lib/modules/$kver/updates/dkms" "$destdir/lib/modules/$kver/updates/"
depmod -b "$destdir" "$kver"
echo "    $(find "$destdir/lib/modules/$kver/updates/dkms" -name '*.ko*' | wc -l) modules in updates/dkms; log: $dlog"
