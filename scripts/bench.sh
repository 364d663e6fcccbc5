#!/bin/bash
# The benchmark: REG/UNREG against the mainline commands that do the same
# (OPEN_QP, CREATE_QP(XRC_TGT), DESTROY_QP), measured side by side in the
# QEMU guest with xrc_sim, printed as ratios and kept as JSON.
#
#   bench.sh         full sizes, on a kernel built WITHOUT KASAN, lockdep
#                    and kmemleak ($BUILD/kernel-bench): `make bench`
#   bench.sh tiny    tiny sizes, on the shared debug kernel ($KBUILD), so
#                    the bench cannot rot: what `make test` runs
#
# Environment: BENCH_ARGS  more xrc_bench options, after the mode's own
#                          (e.g. "--trials 31 --held 1,1000"; see
#                          userspace-test/bench/README.md)
#              BENCH_TIMEOUT  seconds for the whole guest run
#              BENCH_MEM      guest memory (full: 4G, for the MPI-shaped
#                             scenario's million registrations; tiny: 2G)
#              RC_BENCH_ARGS  xrc_rcv_bench's (full: "--pairs 2000 --trials 21")
#              BENCH_LSM      selinux: a full run with the guest booted with
#                             lsm=selinux (an LSM that labels every QP
#                             handle), into $BUILD/bench-selinux; the
#                             libibverbs part is left out
# Results: $BUILD/bench[-tiny|-selinux]/{results.json,results.md,growth.svg,guest.log},
#          and in a full run verbs-emul.txt (libibverbs against the emulation)
TOP="$(cd "$(dirname "$0")/.." && pwd)"
# Run by hand as well as from the Makefile: take the pins from it.
if [ -z "${CACHE:-}" ]; then
	export CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/xrc-rcv"
fi
for v in BASE_PKG BASE_VERSION BASE_COMMIT; do
	[ -n "${!v:-}" ] || export "$v=$(sed -n "s/^$v *:= *//p" "$TOP/Makefile")"
done
export KBUILD="${KBUILD:-$CACHE/build/kernel}"
export KUNITCONFIGS="${KUNITCONFIGS:-kunit/.kunitconfig kunit/debug.config kunit/boot.config userspace-test/guest/kernel.config}"
source "$TOP/scripts/lib.sh"

mode=${1:-full}
case $mode in
full | tiny) ;;
*) die "usage: bench.sh [tiny]" ;;
esac
lsm=${BENCH_LSM:-}
case $lsm in
'') ;;
selinux) [ "$mode" = full ] || die "BENCH_LSM needs the full bench's kernel" ;;
*) die "BENCH_LSM=$lsm: only selinux is built into the bench kernel" ;;
esac
guest="$TOP/userspace-test/guest"
bench="$TOP/userspace-test/bench"
started=$(date +%s)

if [ "$mode" = tiny ]; then
	out="$BUILD/bench-tiny"
	args="--tiny ${BENCH_ARGS:-}"
	timeout=${BENCH_TIMEOUT:-1800}
	mem=${BENCH_MEM:-2G}
	"$TOP/scripts/kernel.sh"
	kdir=$KBUILD
else
	out="$BUILD/bench${lsm:+-$lsm}"
	args="${BENCH_ARGS:-}"
	timeout=${BENCH_TIMEOUT:-3600}
	mem=${BENCH_MEM:-4G}
	kdir=$("$TOP/scripts/kernel-bench.sh")
fi
ko=$("$TOP/scripts/simdev.sh" "$kdir")
static=$("$TOP/scripts/userspace.sh")
[ -x "$static/bench/xrc_bench" ] || die "no $static/bench/xrc_bench (XRCRCV_BUILD_BENCH off?)"

mkdir -p "$out"
rm -f "$out/results.json" "$out/results.md" "$out/growth.svg"
sed "s|@ARGS@|$args|" "$bench/guest-bench.sh" > "$out/guest-bench.sh"
step "bench: packing the guest (xrc_sim, xrc_bench $args)"
"$guest/mkinitramfs.sh" -o "$out/initramfs.cpio.gz" -k "$ko" -s "$out/guest-bench.sh" \
	"$static/bench/xrc_bench"

step "bench: running in the guest ($mode sizes; kernel $(basename "$kdir"); log $out/guest.log)"
# a full run's largest rows may print nothing for a long time: no
# silence watchdog there, only the timeout
silent=900; [ "$mode" = tiny ] || silent=0
XRC_GUEST_SILENCE=${XRC_GUEST_SILENCE:-$silent} XRC_BUILD="$BUILD" "$guest/run-qemu.sh" -k "$kdir/arch/x86/boot/bzImage" \
	-i "$out/initramfs.cpio.gz" -l "$out/guest.log" -t "$timeout" -m "$mem" \
	${lsm:+-a "lsm=$lsm"} > /dev/null || true
grep -a '^xrc-bench: \[' "$out/guest.log" | tail -3 || true
"$guest/check-log.sh" "$out/guest.log" || die "the bench failed or the kernel complained: $out/guest.log"

# The JSON between the markers, checked against the guest's own SHA-256:
# a kernel message or a lost byte on the serial line fails here, loudly.
sed -n '/^XRC-BENCH-JSON-BEGIN$/,/^XRC-BENCH-JSON-END$/p' "$out/guest.log" |
	sed '1d;$d' > "$out/results.json"
want=$(grep -aoE 'XRC-BENCH-JSON-SHA256=[0-9a-f]{64}' "$out/guest.log" | tail -1 | cut -d= -f2 || true)
[ -s "$out/results.json" ] && [ -n "$want" ] || die "no results between the markers in $out/guest.log"
[ "$(sha256sum < "$out/results.json" | cut -d' ' -f1)" = "$want" ] ||
	die "$out/results.json differs from what the guest wrote (serial line mangled?)"
python3 "$bench/check-results.py" --require-all --markdown "$out/results.md" \
	--svg "$out/growth.svg" "$out/results.json" ||
	die "incomplete results: $out/results.json"
if [ -n "$lsm" ]; then
	python3 -c 'import json, sys; sys.exit(sys.argv[2] not in json.load(open(sys.argv[1]))["system"]["lsm"].split(","))' \
		"$out/results.json" "$lsm" || die "the guest ran without $lsm: see the LSMs in $out/results.json"
fi

# Through libibverbs: REG + UNREG with the new verbs against
# MLNX_OFED's emulation over ibv_open_qp(), in a guest of its own on the
# same kernel (rdma-core/guest.sh bench; the Makefile built rdma-core).
if [ "$mode" = full ] && [ -z "$lsm" ]; then
	step "bench: REG + UNREG through libibverbs against the emulation over ibv_open_qp()"
	KERNEL="$kdir/arch/x86/boot/bzImage" XRC_SIM_KO="$ko" RC_BENCH_OUT="$out/verbs-emul.txt" \
		RC_BENCH_ARGS="${RC_BENCH_ARGS:---pairs 2000 --trials 21}" \
		"$TOP/rdma-core/guest.sh" bench || die "the libibverbs bench failed"
	kv() { tr ' ' '\n' < "$out/verbs-emul.txt" | sed -n "s/^$1=//p"; }
	{
		echo
		echo "## Through libibverbs, against the emulation over ibv_open_qp()"
		echo
		echo "| REG+UNREG of an existing QP | us per pair |"
		echo "|---|--:|"
		echo "| ibv_reg_xrc_rcv_qp + ibv_unreg_xrc_rcv_qp | $(kv verbs_us) |"
		echo "| emulation: ibv_open_qp + ibv_destroy_qp, global tree | $(kv emul_us) |"
		echo "| ratio (median [q1, q3] of $(kv trials) trials of $(kv pairs) pairs) | $(kv ratio) [$(kv ratio_q1), $(kv ratio_q3)] |"
	} >> "$out/results.md"
fi
step "bench: $mode run passed in $(($(date +%s) - started)) s; $out/{results.json,results.md,growth.svg,verbs-emul.txt}"
