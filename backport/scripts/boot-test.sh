#!/bin/bash
# boot-test.sh KVER [install|deb]: the boot proof. Boots Debian's stock
# linux-image-KVER (downloaded and unpacked into the cache, never
# installed) under QEMU (TCG, no KVM) with its whole stock module tree,
# installs the backport into that tree the way a user would, and loads it
# with modprobe:
#
#   install  make backport-install (install.sh): updates/xrc-rcv-backport/
#   deb      the .deb of make backport-deb, built and installed by Debian's
#            dkms (dkms-install.sh): updates/dkms/
#
# then depmod. In the guest (guest/preload), kmod's modprobe loads each
# module of backport/modules; each must resolve to updates/, and its
# srcversion must be the installed file's. A stock module that is not
# rebuilt (rdma_rxe) must meet its dummy, and the stock file itself must
# fail to load. Then the guest harness of userspace-test/guest/ loads
# xrc_sim and runs the tests:
#
#   xrc_e2e_tests        the C++ end-to-end suites (static GoogleTest),
#                        over the ioctl methods (section e2e)
#   ibv_devinfo, xrc_e2e_tests --gtest_filter='*/verbs'
#                        the same suites' cases over the patched libibverbs
#                        and the xrc_sim provider, as make rdma-core-guest
#                        runs them (verbs.sh; section e2e-verbs)
#   xrc-smoke            userspace-test/guest/smoke (static C), always
#   xrc_e2e_rmmod_tests  device removal, last (it rmmods xrc_sim; section
#                        rmmod)
#
# The suites are the checkout's (series v4), the static ones built by
# scripts/userspace.sh as make e2e builds them. Each section is counted
# by userspace-test/tests/summarise-section.sh, as make e2e and make
# rdma-core-guest count theirs: it fails on a failed test, on a skip that
# userspace-test/tests/e2e-skip-allow.txt does not list for that section,
# and on a count other than the binary's own --gtest_list_tests.
#
# BACKPORT_E2E=0 runs the smoke test only; BACKPORT_VERBS=0 leaves out
# libibverbs. Fails unless all of that held, QEMU powered off by itself
# and the serial log has no WARNING/BUG/Oops/...
# (userspace-test/guest/check-log.sh). The stock kernels have no KASAN,
# lockdep or kmemleak: those checks are the series' own debug kernel's.
#
# The initramfs: the stock tree (an uncompressed cpio, cached per kernel),
# the harness' archive (mkinitramfs.sh: busybox, /init, xrc_sim, tests),
# ours: updates/, depmod's indexes, /backport/ (preload, kmod and its
# libraries), and the libibverbs payload (/usr/local). rdinit=
# /backport/preload runs first and execs /init.
source "$(dirname "$0")/lib.sh"

kver=${1:?usage: boot-test.sh KVER [install|deb]}
route=${2:-install}
use_input "$kver"
image=$(kernel_field "$kver" 3)
[ "$image" != - ] || die "no boot-proof image pinned for $kver in $BP/kernels"
B=$(builddir_of "$kver")
G=$BPBUILD/backport-guest
GH=$TOP/userspace-test/guest
E2E=${BACKPORT_E2E:-1}
VERBS=${BACKPORT_VERBS:-1}
mkdir -p "$G/debs"
start=$(date +%s)

# 1. The stock kernel, pinned: vmlinuz and its /lib/modules tree.
img=$G/image-$kver
deb=$G/debs/${image%%=*}_${image#*=}_amd64.deb
deb=${deb//:/%3a}
if [ "$(cat "$img/.done" 2>/dev/null)" != "$image" ]; then
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
	echo "$image" > "$img/.done"	# the pin it was unpacked from
fi
vmlinuz=$img/boot/vmlinuz-$kver
stockmods=$img/lib/modules/$kver
[ -f "$vmlinuz" ] && [ -f "$stockmods/modules.dep" ] || die "no kernel or modules.dep in $img"

# Every stock module that links against one the backport replaces must
# be rebuilt or have a dummy (backport/unsupported).
[ -f "$B/modules" ] || die "nothing built for $kver: make backport KVER=$kver"
ours=$(awk '{ printf "%s ", $1 }' "$B/modules")	# those of this input
unsupported=$(listed "$BP/unsupported" | awk '{ printf "%s ", $1 }')
missing=$(awk -F: -v ours=" $ours " -v unsup=" $unsupported " '
	function name(p) { sub(/.*\//, "", p); sub(/\.ko.*/, "", p); return p }
	{ n = name($1); k = split($2, d, " ")
	  for (i = 1; i <= k; i++) if (index(ours, " " name(d[i]) " ") && !index(ours, " " n " ") && !index(unsup, " " n " ")) { print n; break } }' \
	"$stockmods/modules.dep")
[ -z "$missing" ] || die "stock modules of $kver that use the backport's but are neither rebuilt nor in backport/unsupported: $missing"

sim=$B/ext/xrc_sim/xrc_sim.ko
[ -f "$sim" ] || die "no $sim: make backport KVER=$kver"

# 2. The stock tree as a cpio, once per kernel (without depmod's indexes).
stockcpio=$img.modules.cpio
if [ ! -f "$stockcpio" ] || [ "$stockcpio" -ot "$img/.done" ]; then
	step "boot $kver: packing the stock module tree ($(du -sh "$stockmods" | cut -f1))"
	# the kernel's unpacker creates no parent directories: list them first
	(cd "$img" && { printf 'lib\0lib/modules\0'
		find lib/modules/"$kver" \( -name 'modules.*' -prune \) -o -print0 | LC_ALL=C sort -z; } |
		cpio --null -o -H newc -R 0:0 --quiet) > "$stockcpio.new"
	mv "$stockcpio.new" "$stockcpio"
fi

# 3. Install the backport into a copy of the tree (hard links: nothing
#    in kernel/ is written), the way the user would.
W=$G/run-$kver-$route
rm -rf "$W"
mkdir -p "$W/root/lib/modules/$kver"
cp -al "$stockmods/kernel" "$W/root/lib/modules/$kver/"
cp "$stockmods"/modules.{order,builtin,builtin.modinfo} "$W/root/lib/modules/$kver/"
case $route in
install)
	# signed, as for Secure Boot, with a throwaway key: the stock kernel
	# does not trust it (nor enforce signatures), so this proves only
	# that signing leaves modules that load, with the signer in modinfo
	key=$G/signing/key.priv cert=$G/signing/cert.der
	if [ ! -f "$cert" ]; then
		mkdir -p "$G/signing"
		openssl req -new -x509 -newkey rsa:2048 -nodes -days 36500 -outform DER \
			-subj "/CN=xrc-rcv backport test key/" -keyout "$key" -out "$cert" 2>/dev/null ||
			die "openssl cannot make a signing key"
	fi
	SIGN_KEY=$key SIGN_CERT=$cert "$BP/scripts/install.sh" "$kver" "$W/root"
	upd=updates/$BP_NAME
	signer=$(modinfo -F signer "$W/root/lib/modules/$kver/$upd/ib_core.ko")
	[ "$signer" = "xrc-rcv backport test key" ] || die "the installed ib_core is not signed (signer '$signer')" ;;
deb)
	pkg=$("$BP/scripts/deb.sh" "$kver")
	STOCK_MODULES_DEP=$stockmods/modules.dep "$BP/scripts/dkms-install.sh" "$kver" "$pkg" "$W/root"
	upd=updates/dkms ;;
*) die "route $route: install or deb" ;;
esac
declare -A srcv
for m in $ours; do
	ko=$(find "$W/root/lib/modules/$kver/$upd" -name "$m.ko*" | head -n 1)
	[ -n "$ko" ] || die "$m is not installed in $upd"
	srcv[$m]=$(modinfo -F srcversion "$ko")
done
step "boot $kver ($route): stock tree + $upd ($(find "$W/root/lib/modules/$kver/$upd" -name '*.ko*' | wc -l) modules)"

# The negative check: rdma_rxe, and the stock modules it needs first.
neg=rdma_rxe
negline=$(grep -E "(^|/)$neg\.ko(\.[a-z]+)?:" "$stockmods/modules.dep") || die "no stock $neg in $kver"
negdeps=""
for d in ${negline#*:}; do
	d=$(basename "$d"); d=${d%%.ko*}
	case " $ours " in *" $d "*) ;; *) negdeps="$d $negdeps" ;; esac
done

# 4. The test programs.
progs=()
make -s -C "$GH/smoke" O="$G/bin" >/dev/null || die "cannot build xrc-smoke"
progs+=("$G/bin/xrc-smoke")
run_e2e=0 run_verbs=0
declare -A expected=()
if [ "$E2E" != 0 ]; then
	# The static build make e2e makes: the checkout's suites
	U=$("$TOP/scripts/userspace.sh" | tail -n 1) || die "the checkout's C++ suites do not build (scripts/userspace.sh)"
	progs+=("$U/tests/xrc_e2e_tests" "$U/tests/xrc_e2e_rmmod_tests")
	run_e2e=1
	# how many cases each binary has: the guest must count them all
	expected[e2e]=$("$U/tests/xrc_e2e_tests" --gtest_list_tests | grep -c '^  ') ||
		die "cannot list the cases of $U/tests/xrc_e2e_tests"
	expected[rmmod]=$("$U/tests/xrc_e2e_rmmod_tests" --gtest_list_tests | grep -c '^  ') ||
		die "cannot list the cases of $U/tests/xrc_e2e_rmmod_tests"
	if [ "$VERBS" != 0 ]; then
		# The patched libibverbs, the provider, the suites built against
		# them (dynamic: libibverbs dlopen()s its provider)
		"$BP/scripts/verbs.sh" "$G/verbs" || die "no libibverbs payload (backport/scripts/verbs.sh)"
		expected[e2e-verbs]=$(cat "$G/verbs/expected")
		run_verbs=1
	fi
fi

# 5. The initramfs: stock tree, harness, ours.
mkdir -p "$W/overlay/backport/bin" "$W/overlay/lib/modules/$kver"
(cd "$W/root/lib/modules/$kver" && cp -a updates modules.* "$W/overlay/lib/modules/$kver/")
install -m 0755 "$BP/guest/preload" "$W/overlay/backport/preload"
printf '%s\n' $ours > "$W/overlay/backport/modprobe.list"
printf '%s\n' $ours > "$W/overlay/backport/ours.list"
echo "$neg ${negline%%:*} $negdeps" > "$W/overlay/backport/negative.list"
# kmod, dynamically linked: with its libraries and loader
cp -L /usr/bin/kmod "$W/overlay/backport/bin/kmod"
for t in modprobe modinfo insmod depmod lsmod; do ln -s kmod "$W/overlay/backport/bin/$t"; done
for lib in $(ldd /usr/bin/kmod | grep -oE '/[^ ]+'); do
	mkdir -p "$W/overlay$(dirname "$lib")"
	cp -L "$lib" "$W/overlay$lib"
done
{
	echo '#!/bin/sh'
	echo '# /etc/xrc-guest.sh of the backport boot proof (boot-test.sh)'
	echo 'set +e'
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
	# XRC-SUITE= lines: the sections summarise-section.sh counts
	[ $run_e2e = 0 ] || echo 'echo XRC-SUITE=e2e; t xrc_e2e_tests; echo XRC-SUITE=end'
	if [ $run_verbs = 1 ]; then
		echo 'export LD_LIBRARY_PATH=/usr/local/lib'
		echo 'echo "backport-guest: running ibv_devinfo"'
		echo 'if sim && /usr/local/bin/ibv_devinfo > /tmp/devinfo 2>&1 && grep -q "hca_id:[[:space:]]*xrc_sim0" /tmp/devinfo && grep -q PORT_ACTIVE /tmp/devinfo; then'
		echo '	echo "backport-guest: ibv_devinfo shows xrc_sim0 through the patched libibverbs"'
		echo 'else'
		echo '	cat /tmp/devinfo; echo "backport-guest: FAILED ibv_devinfo"; rc=1'
		echo 'fi'
		echo "echo XRC-SUITE=e2e-verbs; t /usr/local/bin/xrc_e2e_tests --gtest_filter='*/verbs'; echo XRC-SUITE=end"
		echo 'unset LD_LIBRARY_PATH'
	fi
	echo 't xrc-smoke'
	[ $run_e2e = 0 ] || echo 'export XRC_E2E_RMMOD=1; echo XRC-SUITE=rmmod; t xrc_e2e_rmmod_tests; echo XRC-SUITE=end'
	echo 'echo "backport-guest: tests rc=$rc"'
	echo 'exit $rc'
} > "$W/tests.sh"
"$GH/mkinitramfs.sh" -o "$W/harness.cpio.gz" -k "$sim" -s "$W/tests.sh" "${progs[@]}"
(cd "$W/overlay" && find . -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc -R 0:0 --quiet) | gzip -1 > "$W/backport.cpio.gz"
parts=("$stockcpio" "$W/harness.cpio.gz" "$W/backport.cpio.gz")
if [ $run_verbs = 1 ]; then
	(cd "$G/verbs/root" && find . -print0 | LC_ALL=C sort -z |
		cpio --null -o -H newc -R 0:0 --quiet) | gzip -1 > "$W/verbs.cpio.gz"
	parts+=("$W/verbs.cpio.gz")
fi
cat "${parts[@]}" > "$W/initramfs.cpio"

# 6. Boot, then judge the log.
step "boot $kver: QEMU (TCG) with $(basename "$vmlinuz"), $(du -h "$W/initramfs.cpio" | cut -f1) initramfs"
log=$W/guest.log
"$GH/run-qemu.sh" -k "$vmlinuz" -i "$W/initramfs.cpio" -l "$log" -m 3G \
	-t "${TIMEOUT:-900}" -a "rdinit=/backport/preload" > "$W/qemu.out" 2>&1
qrc=$?
tail -n 1 "$W/qemu.out"
fail=0
bad() { echo "boot-test: FAIL: $*"; fail=1; }
"$GH/check-log.sh" "$log" || fail=1
loaded=0
for m in $ours; do
	grep -aq "^backport-modprobe: $m ok" "$log" || bad "modprobe $m failed"
	line=$(grep -a "^backport-module: $m " "$log" || true)
	case $line in
	*" path=/lib/modules/$kver/$upd/"*) ;;
	*) bad "$m does not resolve to $upd: ${line:-no report}" ;;
	esac
	[[ $line == *" srcversion=${srcv[$m]} "* ]] ||
		bad "$m: srcversion is not the installed module's (${srcv[$m]}): $line"
	[[ $line =~ taint=[A-Z]*O ]] || bad "$m is not the out-of-tree build (no taint O): $line"
	grep -aq "^backport-modprobe: $m ok" "$log" && [[ $line == *" path=/lib/modules/$kver/$upd/"* ]] &&
		loaded=$((loaded + 1))
done
grep -aqE "^backport-negative: $neg modprobe rc=[1-9][0-9]* path=/lib/modules/${kver//+/\\+}/$upd/" "$log" ||
	bad "modprobe $neg did not meet its dummy: $(grep -a "^backport-negative: $neg modprobe" "$log")"
grep -aq "^backport-negative: $neg dummy message seen" "$log" || bad "the dummy of $neg did not say why"
grep -aqE "^backport-negative: $neg stock insmod rc=[1-9]" "$log" || bad "the stock $neg loaded against the backport"
grep -aq "^backport-negative: stock says: $neg: disagrees about version of symbol" "$log" ||
	bad "the stock $neg did not fail for its symbol versions (CRCs)"
grep -aq "^backport-kmod: kmod version" "$log" || bad "modprobe in the guest is not kmod's: $(grep -a '^backport-kmod' "$log")"
! grep -aq "^backport-negative: $neg dependency .* FAILED" "$log" || bad "a stock dependency of $neg did not load"
grep -a '^backport-negative: stock says' "$log" | sed 's/^/    /' || true
grep -aq 'backport-guest: tests rc=0' "$log" || bad "tests did not pass"
# Each section counted as make e2e and make rdma-core-guest count theirs
: > "$W/counts.txt"
for s in e2e e2e-verbs rmmod; do
	[ -n "${expected[$s]:-}" ] || continue
	if ! "$TOP/userspace-test/tests/summarise-section.sh" "$log" "$s" \
		"$TOP/userspace-test/tests/e2e-skip-allow.txt" "${expected[$s]}" > "$W/count-$s.txt"; then
		bad "section $s: $(grep -v '^[a-z-]*: passed=' "$W/count-$s.txt" | tr '\n' ' ')"
	fi
	case $s in e2e-verbs) via=libibverbs ;; *) via=ioctl ;; esac
	echo "$via $(tail -n 1 "$W/count-$s.txt")" >> "$W/counts.txt"
done
[ $qrc = 0 ] || bad "QEMU exited $qrc (124: timeout)"
# Per-test outcomes, for comparing kernels (scripts/test.sh).
{
	grep -aoE '^\[ +(OK|FAILED) +\] [A-Za-z0-9_./]+ \(' "$log" |
		sed -E 's/^\[ +(OK|FAILED) +\] ([^ ]+) \(/\2 \1/' || true
	grep -aE '^(not )?ok [0-9]+ - ' "$log" |
		sed -E 's/^ok ([0-9]+) - .*/xrc-smoke.\1 OK/; s/^not ok ([0-9]+) - .*/xrc-smoke.\1 FAILED/' || true
} | LC_ALL=C sort > "$W/results.txt"
summary=$(grep -aE '^\[  PASSED  \] [0-9]+ tests?\.|^\[  FAILED  \] [0-9]+ tests?, listed|^ *[0-9]+ FAILED TESTS?$|^[0-9]+ passed, [0-9]+ failed|backport-guest: (running|FAILED|ibv_devinfo shows|tests rc)' "$log" |
	sed 's/^/    /' || true)
echo "$summary"
smoke=$(grep -aE '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1 || true)
echo "smoke xrc-smoke: ${smoke:-no result}" >> "$W/counts.txt"
sed 's/^/    counted: /' "$W/counts.txt"
if [ $fail = 0 ]; then
	step "boot $kver: PASS in $(( $(date +%s) - start )) s (input $BP_INPUT, $route: $loaded modules by modprobe from $upd; $( [ $run_e2e = 1 ] && echo "xrc-smoke + C++ e2e over ioctl$( [ $run_verbs = 1 ] && echo ' and libibverbs')" || echo 'xrc-smoke only')); log: $log"
	echo "$kver $route $loaded" >> "$G/loaded.txt"
else
	step "boot $kver: FAIL; log: $log"
	exit 1
fi
