#!/bin/bash
# XRC messages through soft-RoCE in the guest (make rxe-guest): the kernel
# that KUnit and the end-to-end guest boot (patches/ and patches/rxe/,
# scripts/guest-tree.sh) and rdma-core with both its series (patches/rdma-core/
# and patches/rdma-core-rxe/), with rxe on a dummy netdev (loopback on one
# port, and a veth pair across two network namespaces: rxe/guest/setup.sh).
#
#   guest.sh        rxe/guest/run.sh: every check. Fails on any failed
#                   check, on a kernel report (KASAN, lockdep, kmemleak,
#                   WARN) and on anything left in `rdma resource` at the end
#   guest.sh demo   rxe/guest/demo.sh: make demo's messages through one
#                   shared receive QP, printed as they go
#   guest.sh churn  rxe/guest/churn.sh: the race fuzzer with traffic alone,
#                   longer than in run.sh (make rxe-churn)
#   guest.sh pyverbs rxe/guest/pyverbs.sh: rdma-core's whole Python test
#                   suite on rxe0 (make rxe-pyverbs)
#   guest.sh bench  rxe/guest/bench.sh on the kernel without KASAN, lockdep
#                   and kmemleak (scripts/kernel-bench.sh): XRC against RC,
#                   and the MPI shape's memory; rxe/bench-report.py gives
#                   the ratios, in $CACHE/build/rxe-bench/results.{md,json}
source "$(dirname "$0")/../rdma-core/lib.sh"
export PATH=/usr/bin:/bin:/usr/sbin:/sbin:$PATH

mode=${1:-test}
case $mode in
test) script=run.sh ;;
demo) script=demo.sh ;;
churn) script=churn.sh ;;
pyverbs) script=pyverbs.sh ;;
bench) script=bench.sh ;;
*) die "usage: guest.sh [demo|churn|pyverbs|bench]" ;;
esac

BUILD="$CACHE/build"
out="$BUILD/rxe-${mode/test/guest}"
rc_tree="$CACHE/rdma-core-tree-guest"
rc_build="$BUILD/rdma-core-guest"
# perftest as Debian ships it, unmodified, and the one library it needs
# that the host may lack (their .debs, unpacked in the cache)
DEBS="perftest=4.5+0.17-1 libpci3=1:3.9.0-4"
mkdir -p "$out"

if [ "$mode" = bench ]; then
	kdir=$("$TOP/scripts/kernel-bench.sh")
else
	"$TOP/scripts/kernel.sh" >&2
	kdir=$KBUILD
fi
kernel="$kdir/arch/x86/boot/bzImage"
ko=$("$TOP/scripts/simdev.sh" "$kdir")
# rxe's KUnit suite: the one test module of rxe's directory
kunit_ko=$(find "$kdir/drivers/infiniband/sw/rxe" -name '*test*.ko')
[ "$(wc -w <<< "$kunit_ko")" = 1 ] ||
	die "not one rxe KUnit module under $kdir/drivers/infiniband/sw/rxe: ${kunit_ko:-none}"

# rdma-core: the workbench's series, then the rxe provider's on top
rc_head=$(git -C "$RC_TREE" rev-parse HEAD)
want="$rc_head $(cat $(RC_PATCHES="$TOP/patches/rdma-core-rxe" rc_patches) | sha256sum)"
if [ "$(cat "$rc_tree.applied" 2>/dev/null)" != "$want" ]; then
	step "rxe guest: patches/rdma-core-rxe/ on top of $RC_TREE"
	[ -d "$rc_tree" ] || git -C "$RC_TREE" worktree add -q -f --detach "$rc_tree" "$rc_head"
	git -C "$rc_tree" am --abort >/dev/null 2>&1 || true
	git -C "$rc_tree" checkout -q -f --detach "$rc_head"
	git -C "$rc_tree" am -q --committer-date-is-author-date \
		$(RC_PATCHES="$TOP/patches/rdma-core-rxe" rc_patches) ||
		die "patches/rdma-core-rxe/ does not apply on top of patches/rdma-core/"
	echo "$want" > "$rc_tree.applied"
fi
forget_foreign_cmake_build "$rc_build" "$rc_tree"
if [ ! -f "$rc_build/build.ninja" ]; then
	(cd "$rc_build" && nicely cmake -GNinja "$rc_tree" -DENABLE_WERROR=1 \
		-DNO_PYVERBS=1 -DNO_MAN_PAGES=1 -DENABLE_STATIC=0) > "$rc_build/cmake.log" 2>&1 ||
		{ tail -30 "$rc_build/cmake.log"; die "cmake failed: $rc_build/cmake.log"; }
fi
# What the guest runs, about a third of the whole build
step "rxe guest: building rdma-core with both series in $rc_build"
(cd "$rc_build" && nicely ninja -j"$JOBS" libibverbs/all libibverbs/examples/all \
	providers/rxe/all librdmacm/all libibumad/all) \
	> "$rc_build/ninja.log" 2>&1 ||
	{ grep -A15 FAILED "$rc_build/ninja.log" | head -60; die "rdma-core build failed: $rc_build/ninja.log"; }

deb_dir="$CACHE/debs"
mkdir -p "$deb_dir"
rm -rf "$out/debs"
for pkg in $DEBS; do
	dir="$deb_dir/${pkg//[=:]/_}"	# one directory per package and version
	if ! ls "$dir"/*.deb > /dev/null 2>&1; then
		mkdir -p "$dir"
		(cd "$dir" && apt-get download -q "$pkg") >&2 || die "cannot download $pkg"
	fi
	dpkg-deb -x "$dir"/*.deb "$out/debs"
done

step "rxe guest: programs"
for prog in xrc_rxe_test xrc_rcv_data xrc_churn xrc_mpi_shape; do
	cc -O2 -Wall -Wextra -Werror -I"$rc_build/include" -o "$out/$prog" \
		"$TOP/rxe/guest/$prog.c" -L"$rc_build/lib" -libverbs
done

root="$out/root"
rm -rf "$root"
mkdir -p "$root/usr/local/bin" "$root/usr/local/lib/libibverbs" \
	"$root/usr/local/etc/libibverbs.d" "$root/lib/modules"
ofa="$CACHE/build/ofa-compat"
[ -x "$ofa/ofed_xrc_share" ] || die "no $ofa/ofed_xrc_share: run make ofa-compat-test"
install -m 0755 "$out/xrc_rxe_test" "$out/xrc_rcv_data" "$out/xrc_churn" \
	"$out/xrc_mpi_shape" \
	"$ofa/ofed_xrc_share" \
	"$rc_build/bin/ibv_devinfo" "$rc_build/bin/ibv_xsrq_pingpong" \
	/usr/sbin/ip /usr/bin/rdma "$root/usr/local/bin/"
for t in ib_send_bw ib_write_bw ib_read_bw ib_atomic_bw ib_send_lat; do
	install -m 0755 "$out/debs/usr/bin/$t" "$root/usr/local/bin/"
done
install -m 0755 "$rc_build"/lib/librxe-rdmav*.so "$root/usr/local/lib/libibverbs/"
# The build's own driver file names the provider by its path in the build
echo 'driver rxe' > "$root/usr/local/etc/libibverbs.d/rxe.driver"
install -m 0644 "$kunit_ko" "$root/lib/modules/rxe_kunit.ko"
install -D -m 0644 "$TOP/rxe/guest/setup.sh" "$root/usr/local/lib/rxe-guest/setup.sh"
# how long churn.sh fuzzes: epochs of xrc_churn (make rxe-churn)
echo "${RXE_CHURN_EPOCHS:-12}" > "$root/usr/local/lib/rxe-guest/churn-epochs"
# rdma-core's own Python tests: Debian's python3 with its standard library
# under /usr/local (where the interpreter, put there, looks for it), and
# pyverbs as the series' build made it (rdma-core-test: libibverbs is the
# same in both builds; the rxe series changes the provider alone)
py=$(readlink -f /usr/bin/python3)
pyver=$(basename "$py")
[ -d "$RC_BUILD/python/pyverbs" ] || die "no pyverbs in $RC_BUILD: run make rdma-core-test"
install -m 0755 "$py" "$root/usr/local/bin/python3"
rsync -a --exclude=__pycache__ --exclude=test --exclude=idlelib --exclude=tkinter \
	--exclude=ensurepip --exclude=lib2to3 --exclude=turtledemo --exclude=config-\* \
	"/usr/lib/$pyver/" "$root/usr/local/lib/$pyver/"
mkdir -p "$root/usr/local/lib/rdma-core"
cp -rL "$RC_BUILD/python" "$RC_TREE/tests" "$root/usr/local/lib/rdma-core/"
# perftest also links the mlx5 and efa providers' libraries, which this
# partial build skips: the series' build (rdma-core-test) has them
pack_libs "$root" "$rc_build/lib:$RC_BUILD/lib:$ofa:$out/debs/usr/lib/x86_64-linux-gnu"

step "rxe guest: initramfs"
"$TOP/userspace-test/guest/mkinitramfs.sh" -o "$out/base.cpio.gz" -k "$ko" \
	-s "$TOP/rxe/guest/$script"
(cd "$root" && find . -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc -R 0:0 --quiet) | gzip -1 > "$out/stack.cpio.gz"
cat "$out/base.cpio.gz" "$out/stack.cpio.gz" > "$out/initramfs.cpio.gz"

# KUnit on (run-qemu.sh turns it off), for the rxe suite's module alone.
# A guest silent for 300 s is stopped: no step of run.sh is that quiet.
boot() {
	XRC_GUEST_SILENCE=300 "$TOP/userspace-test/guest/run-qemu.sh" \
		-i "$out/initramfs.cpio.gz" -k "$kernel" \
		-a 'kunit.enable=1 kunit.filter_glob=*rxe*' \
		-m "${RXE_GUEST_MEM:-$([ "$mode" = bench ] && echo 4G || echo 2G)}" \
		-l "$out/guest.log" -t "${RXE_GUEST_TIMEOUT:-$(case $mode in bench|pyverbs) echo 5400 ;; *) echo 1500 ;; esac)}" |
		if [ "$mode" = demo ] || [ "$mode" = churn ]; then
			grep -aE '^(RXE-DEMO:|xrc_rcv_data:|xrc_churn:|ok - |not ok - |# )' || true
		else
			cat > /dev/null
		fi
}
step "rxe guest: booting $kernel"
early_hangs=
if ! boot; then
	# Under TCG on a loaded host a guest has hung once in its early boot,
	# before its /init ran (right after it brought up its second CPU).
	# Such a guest, and only such a one, is booted once more.
	grep -aq '^xrc-guest: ' "$out/guest.log" &&
		die "the guest did not power off by itself ($out/guest.log)"
	mv "$out/guest.log" "$out/guest-early-hang.log"
	early_hangs=1
	step "rxe guest: it hung before its /init ran ($out/guest-early-hang.log); booting once more"
	boot || die "the guest did not power off by itself ($out/guest.log)"
fi
if [ "$mode" = bench ]; then
	grep -q '^XRC-GUEST-EXIT=0' "$out/guest.log" || die "the rxe bench failed ($out/guest.log)"
	grep -a '^RXE-BENCH ' "$out/guest.log" > "$out/raw.txt"
	python3 "$TOP/rxe/bench-report.py" "$out/raw.txt" "$out"
	step "rxe bench: $out/results.md"
	exit 0
fi
if [ "$mode" = pyverbs ]; then
	grep -aE '^(Ran [0-9]+ tests?|OK|FAILED)' "$out/guest.log" || true
	grep -aE '^(FAIL|ERROR): ' "$out/guest.log" || true
fi
if [ "$mode" != test ]; then
	grep -q '^XRC-GUEST-EXIT=0' "$out/guest.log" || die "the rxe $mode failed ($out/guest.log)"
	"$TOP/userspace-test/guest/check-log.sh" "$out/guest.log" > /dev/null ||
		die "the guest's kernel log has findings ($out/guest.log)"
	step "rxe $mode: done, no kernel reports"
	exit 0
fi
grep -aE '^(ok|not ok) - |^RXE-|^xrc_rcv_data: |^ *# .*pass:' "$out/guest.log" || true
grep -q '^XRC-GUEST-EXIT=0' "$out/guest.log" ||
	die "the rxe guest's checks failed ($out/guest.log)"
"$TOP/userspace-test/guest/check-log.sh" "$out/guest.log" ||
	die "the guest's kernel log has findings ($out/guest.log)"

checks=$(grep -ac '^ok - ' "$out/guest.log" || true)
tools=$(grep -ac '^RXE-PASS: perftest ' "$out/guest.log" || true)
# unittest's verdict: "Ran N tests", then "OK" or "OK (skipped=M)"
py_ran=$(grep -aoE '^Ran [0-9]+ tests?' "$out/guest.log" | grep -oE '[0-9]+' || echo 0)
py_skipped=$(grep -aoE '^OK \(skipped=[0-9]+\)' "$out/guest.log" | grep -oE '[0-9]+' || echo 0)
grep -aE "\.\.\. skipped " "$out/guest.log" | sed 's/^/  /' || true
step "rxe guest: $checks checks passed, $tools perftest tools over XRC," \
	"$((py_ran - py_skipped)) of $py_ran rdma-core tests -k xrc passed ($py_skipped skipped), no kernel reports"
[ -z "${SUMMARY:-}" ] || printf 'checks=%s\nperftest=%s\npyverbs_passed=%s\npyverbs_skipped=%s\n%s' \
	"$checks" "$tools" "$((py_ran - py_skipped))" "$py_skipped" \
	"${early_hangs:+early_boot_hangs=$early_hangs$'\n'}" >> "$SUMMARY"
