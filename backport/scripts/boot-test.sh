#!/bin/bash
# boot-test.sh KVER: the boot proof. Boots Debian's stock linux-image-KVER
# (downloaded and unpacked into the cache, never installed) under QEMU
# (TCG, no KVM) with the guest harness of userspace-test/guest/, loads the
# backported stack built by build.sh KVER plus xrc_sim, and runs the tests:
#
#   xrc-smoke            userspace-test/guest/smoke (static C), always
#   xrc_e2e_tests        the C++ end-to-end suites (static GoogleTest), and
#   xrc_e2e_rmmod_tests  device removal, last (it rmmods xrc_sim)
#
# The C++ suites are the static build of scripts/userspace.sh, the one
# make e2e uses. BACKPORT_E2E=0 runs the smoke test only.
#
# Fails unless every module loaded, each backported one is the
# out-of-tree build (taint O), the tests passed and the serial log has no
# WARNING/BUG/Oops/... (userspace-test/guest/check-log.sh). The stock 6.1
# kernel has no KASAN, lockdep or kmemleak: those checks need the
# series' own debug kernel (make kunit / the e2e guest).
#
# How it fits the harness without changing it: mkinitramfs.sh packs
# busybox, its /init, xrc_sim.ko and the tests; a second cpio appended to
# the same initramfs adds /backport/ (the modules and guest/preload), and
# rdinit=/backport/preload (run-qemu.sh -a) loads them before exec /init.
source "$(dirname "$0")/lib.sh"

kver=${1:?usage: boot-test.sh KVER}
image=$(kernel_field "$kver" 3)
[ "$image" != - ] || die "no boot-proof image pinned for $kver in $BP/kernels"
B=$(builddir_of "$kver")
G=$BPBUILD/backport-guest
GH=$TOP/userspace-test/guest
E2E=${BACKPORT_E2E:-1}
mkdir -p "$G/debs"
start=$(date +%s)

# 1. The stock kernel, pinned: vmlinuz and its /lib/modules tree.
img=$G/image-$kver
deb=$G/debs/${image%%=*}_${image#*=}_amd64.deb
deb=${deb//:/%3a}
if [ ! -f "$img/.done" ]; then
	if [ ! -f "$deb" ]; then
		step "boot $kver: apt-get download $image"
		(cd "$G/debs" && apt-get download -q "$image" 2>&1 | grep -v '^W: Download is performed unsandboxed') ||
			die "cannot download $image"
	fi
	[ "$(dpkg-deb -f "$deb" Version)" = "${image#*=}" ] || die "$deb is not version ${image#*=}"
	step "boot $kver: unpacking $(basename "$deb")"
	rm -rf "$img"
	dpkg-deb -x "$deb" "$img"
	# the package leaves modules.dep to depmod at install time
	depmod -b "$img" -F "$img/boot/System.map-$kver" "$kver"
	touch "$img/.done"
fi
vmlinuz=$img/boot/vmlinuz-$kver
stockmods=$img/lib/modules/$kver
[ -f "$vmlinuz" ] && [ -f "$stockmods/modules.dep" ] || die "no kernel or modules.dep in $img"

# 2. What to load, in order: the stock modules the backport depends on
#    (modinfo depends, closed over the image's modules.dep), then ours.
ours=$(sed -e 's/#.*//' "$BP/modules" | awk 'NF { printf "%s ", $1 }')
declare -A kopath
for m in $ours; do
	kopath[$m]=$(find "$B/drivers" -name "$m.ko")
	[ -n "${kopath[$m]}" ] || die "no $m.ko in $B: make backport KVER=$kver"
done
sim=$B/ext/xrc_sim/xrc_sim.ko
[ -f "$sim" ] || die "no $sim: make backport KVER=$kver"
stock=()
add_stock() {	# $1: module name; appends it after its own dependencies
	local name=$1 line path deps d
	for d in "${stock[@]}"; do [ "$d" = "$name" ] && return 0; done
	line=$(grep -E "(^|/)${name//_/[_-]}\.ko(\.[a-z]+)?:" "$stockmods/modules.dep") ||
		die "stock module $name is not in $stockmods/modules.dep"
	path=${line%%:*}
	deps=${line#*:}
	# modules.dep lists the whole closure, the first-loaded last
	for d in $(echo $deps | tr ' ' '\n' | tac); do
		d=$(basename "$d"); add_stock "${d%%.ko*}"
	done
	for d in "${stock[@]}"; do [ "$d" = "$name" ] && return 0; done
	stock+=("$name")
	kopath[$name]=$stockmods/$path
}
for m in $ours xrc_sim; do
	ko=${kopath[$m]:-$sim}
	for d in $(modinfo -F depends "$ko" | tr ',' ' '); do
		case " $ours " in *" $d "*) ;; *) add_stock "$d" ;; esac
	done
done
step "boot $kver: stock modules needed: ${stock[*]:-none}; backported: $(echo $ours)"

# 3. The test programs.
progs=()
make -s -C "$GH/smoke" O="$G/bin" >/dev/null || die "cannot build xrc-smoke"
progs+=("$G/bin/xrc-smoke")
run_e2e=0
if [ "$E2E" != 0 ]; then
	# The same static build make e2e uses (scripts/userspace.sh)
	U=$("$TOP/scripts/userspace.sh") || die "the C++ suites do not build"
	progs+=("$U/tests/xrc_e2e_tests" "$U/tests/xrc_e2e_rmmod_tests")
	run_e2e=1
fi

# 4. The initramfs: the harness' archive + ours appended.
W=$G/run-$kver
rm -rf "$W"; mkdir -p "$W/overlay/backport/modules"
{
	echo '#!/bin/sh'
	echo '# /etc/xrc-guest.sh of the backport boot proof (boot-test.sh)'
	echo 'set +e'
	echo 'for m in' $ours xrc_sim '; do'
	echo '	echo "backport-guest: $m taint=$(cat /sys/module/$m/taint 2>/dev/null)"'
	echo 'done'
	# xrc-smoke and the rmmod suite each end by unloading xrc_sim: load
	# it again before the next program (which also exercises a reload).
	echo 'sim() {'
	echo '	grep -q "^xrc_sim " /proc/modules && return 0'
	echo '	echo "backport-guest: insmod xrc_sim again"; insmod /lib/modules/xrc_sim.ko || return 1'
	echo '	i=0; while [ ! -c /dev/infiniband/uverbs0 ] && [ $i -lt 50 ]; do i=$((i + 1)); sleep 0.1; done'
	echo '	[ -c /dev/infiniband/uverbs0 ]'
	echo '}'
	echo 'rc=0'
	echo 't() { echo "backport-guest: running $*"; sim && "$@" || { echo "backport-guest: FAILED $1"; rc=1; }; }'
	[ $run_e2e = 0 ] || echo 't xrc_e2e_tests'
	echo 't xrc-smoke'
	[ $run_e2e = 0 ] || echo 'export XRC_E2E_RMMOD=1; t xrc_e2e_rmmod_tests'
	echo 'echo "backport-guest: tests rc=$rc"'
	echo 'exit $rc'
} > "$W/tests.sh"
"$GH/mkinitramfs.sh" -o "$W/harness.cpio.gz" -k "$sim" -s "$W/tests.sh" "${progs[@]}"
order=()
for m in "${stock[@]}" $ours; do
	cp "${kopath[$m]}" "$W/overlay/backport/modules/"
	case ${kopath[$m]} in *.ko.xz) xz -d "$W/overlay/backport/modules/$m.ko.xz" ;; *.ko.zst) zstd -qd --rm "$W/overlay/backport/modules/$m.ko.zst" ;; esac
	order+=("$m")
done
printf '%s\n' "${order[@]}" > "$W/overlay/backport/load.order"
install -m 0755 "$BP/guest/preload" "$W/overlay/backport/preload"
(cd "$W/overlay" && find . -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc -R 0:0 --quiet) | gzip -1 > "$W/backport.cpio.gz"
cat "$W/harness.cpio.gz" "$W/backport.cpio.gz" > "$W/initramfs.cpio.gz"

# 5. Boot, then judge the log.
step "boot $kver: QEMU (TCG) with $(basename "$vmlinuz"), loading ${order[*]} xrc_sim"
log=$W/guest.log
"$GH/run-qemu.sh" -k "$vmlinuz" -i "$W/initramfs.cpio.gz" -l "$log" \
	-t "${TIMEOUT:-900}" -a "rdinit=/backport/preload" > "$W/qemu.out" 2>&1
qrc=$?
tail -n 1 "$W/qemu.out"
fail=0
"$GH/check-log.sh" "$log" || fail=1
for m in "${order[@]}"; do
	grep -aq "backport-preload: loaded $m\$" "$log" || { echo "boot-test: FAIL: $m did not load"; fail=1; }
done
for m in $ours; do
	grep -aqE "backport-guest: $m taint=[A-Z]*O" "$log" ||
		{ echo "boot-test: FAIL: $m is not the out-of-tree build (no taint O)"; fail=1; }
done
grep -aq 'backport-guest: tests rc=0' "$log" || { echo "boot-test: FAIL: tests did not pass"; fail=1; }
[ $qrc = 0 ] || { echo "boot-test: FAIL: QEMU exited $qrc (124: timeout)"; fail=1; }
# Per-test outcomes, for comparing kernels (scripts/test.sh).
{
	grep -aoE '^\[ +(OK|FAILED) +\] [A-Za-z0-9_./]+ \(' "$log" |
		sed -E 's/^\[ +(OK|FAILED) +\] ([^ ]+) \(/\2 \1/' || true
	grep -aE '^(not )?ok [0-9]+ - ' "$log" |
		sed -E 's/^ok ([0-9]+) - .*/xrc-smoke.\1 OK/; s/^not ok ([0-9]+) - .*/xrc-smoke.\1 FAILED/' || true
} | LC_ALL=C sort > "$W/results.txt"
summary=$(grep -aE '^\[  PASSED  \] [0-9]+ tests?\.|^\[  FAILED  \] [0-9]+ tests?, listed|^ *[0-9]+ FAILED TESTS?$|^[0-9]+ passed, [0-9]+ failed|backport-guest: (running|FAILED|tests rc)' "$log" |
	sed 's/^/    /' || true)
echo "$summary"
if [ $fail = 0 ]; then
	step "boot $kver: PASS in $(( $(date +%s) - start )) s ($( [ $run_e2e = 1 ] && echo 'xrc-smoke + C++ e2e' || echo 'xrc-smoke only')); log: $log"
else
	step "boot $kver: FAIL; log: $log"
	exit 1
fi
