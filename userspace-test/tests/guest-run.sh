# Guest script for guest/mkinitramfs.sh -s: runs the userspace suites in
# order, device removal and the device without XRC last.  /init runs it
# with `sh -e`, from /tmp, with /tests on PATH.  Pack with (BUILD
# configured with -DXRCRCV_STATIC=ON):
#   guest/mkinitramfs.sh -o OUT.cpio.gz -k xrc_sim.ko -s tests/guest-run.sh \
#       BUILD/xrc-rcv BUILD/tests/xrc_unit_tests BUILD/tests/xrc_e2e_tests \
#       BUILD/tests/xrc_e2e_rmmod_tests
# Knobs (export them here or in the environment): XRC_E2E_FUZZ_ITERATIONS,
# XRC_E2E_STRESS_PROCS, XRC_E2E_STRESS_SECONDS, XRC_E2E_SEED, and the race
# fuzzer's XRC_RACE_SECONDS (default 90 here), XRC_RACE_SEED (default: a
# fresh one, printed), XRC_RACE_PROCS, XRC_RACE_THREADS.
#
# Each suite starts with an "XRC-SUITE=<name>" line; scripts/e2e.sh
# counts the gtest result lines under it (so no --gtest_brief here) and
# checks its skips against tests/e2e-skip-allow.txt.

echo "XRC-SUITE=unit"
xrc_unit_tests
echo "XRC-SUITE=e2e"
xrc_e2e_tests

# The CLI walk of tools/xrc-rcv/xrc-rcv-demo.sh (the initramfs takes only
# static programs, so its core is repeated here): A creates and is killed,
# B registers, outlives A, modifies, unregisters; the number is then dead.
echo "XRC-SUITE=demo"
d=/tmp/xrc-demo
mkdir -p $d
export XRC_RCV_XRCD_FILE=$d/xrcd
xrc-rcv --tag A run "create; save $d/qpn; hold" &
a=$!
xrc-rcv --tag B run "wait-file $d/qpn; reg @$d/qpn; touch $d/b-registered;
	wait-file $d/a-gone; counters; query; inject QP_FATAL; events --timeout 500;
	modify --state init;
	modify --state rtr --dest-qpn 0x42; query; unreg; counters;
	expect EINVAL reg @$d/qpn" &
b=$!
while [ ! -e $d/b-registered ]; do sleep 0.1; done
echo "[demo] kill -9 A"
kill -9 $a
wait $a || true
touch $d/a-gone
wait $b

# Resource tracking, as `rdma resource show qp` asks nldev for it: a QP
# that REG created is listed while it lives, as a kernel QP of ib_uverbs
# like a CREATE_QP(XRC_TGT) QP, and is gone from the list with its last
# reference.
echo "XRC-SUITE=restrack"
r=/tmp/xrc-restrack
mkdir -p $r
XRC_RCV_XRCD_FILE=$r/xrcd xrc-rcv --tag R run "create; save $r/qpn; touch $r/made;
	wait-file $r/listed; unreg" &
p=$!
while [ ! -e $r/made ]; do sleep 0.1; done
qpn=$(($(cat $r/qpn)))
rdma-res-qp > $r/live
touch $r/listed
wait $p
rdma-res-qp > $r/after
echo "[restrack] QP $qpn: $(grep " lqpn=$qpn " $r/live)"
grep -q " lqpn=$qpn .*kern=ib_uverbs" $r/live ||
	{ echo "[restrack] FAILED: QP $qpn is not listed as ib_uverbs'"; cat $r/live; exit 1; }
! grep -q " lqpn=$qpn " $r/after ||
	{ echo "[restrack] FAILED: QP $qpn still listed after its last UNREG"; exit 1; }
echo "[restrack] passed"

# The rdma cgroup counts what a file holds: its context (hca_handle) and
# its objects (hca_object). Each QP a file registers counts as one object,
# like the OPEN_QP handle it stands for; more references on that QP are
# not more objects; another file that registers the QP counts one of its
# own. At the cgroup's limit a REG that would add an object (a new QP, or
# another file's QP) fails with EAGAIN, and one on a QP the file holds
# still succeeds; a REG of a number that is no receive QP of the XRCD
# fails with EINVAL even there (lookup before charge: 0xfffffe names no
# QP of xrc_sim's, 0xffffffff is no QP number at all); UNREG of the last
# reference, and close(), give the objects back.
echo "XRC-SUITE=cgroup"
g=/sys/fs/cgroup
grep -q " $g cgroup2 " /proc/mounts || mount -t cgroup2 none $g
echo +rdma > $g/cgroup.subtree_control ||
	{ echo "[cgroup] FAILED: no rdma controller"; exit 1; }
mkdir -p $g/xrc
cg_count() { # hca_handle|hca_object
	sed -n "s/^xrc_sim[0-9]* .*$1=\([0-9]*\).*/\1/p" $g/xrc/rdma.current
}
cg_expect() { # WHEN HANDLES OBJECTS
	i=0
	while [ "$(cg_count hca_handle) $(cg_count hca_object)" != "$2 $3" ]; do
		i=$((i + 1))
		[ $i -le 50 ] || { echo "[cgroup] FAILED: $1: $(cat $g/xrc/rdma.current), expected hca_handle=$2 hca_object=$3"; exit 1; }
		sleep 0.1
	done
	echo "[cgroup] $1: hca_handle=$2 hca_object=$3"
}
# Wait for FILE, or fail if an xrc-rcv in the cgroup stopped first (it
# then touched $c/failed) or 30 s went by.
cg_wait() { # FILE
	i=0
	while [ ! -e "$1" ]; do
		[ ! -e $c/failed ] || { echo "[cgroup] FAILED: $t: xrc-rcv stopped before $(basename "$1")"; exit 1; }
		i=$((i + 1))
		[ $i -le 300 ] || { echo "[cgroup] FAILED: $t: no $(basename "$1") after 30 s"; exit 1; }
		sleep 0.1
	done
}
# xrc-rcv, run in the cgroup, over transport $t (ioctl: the only one
# since series v4), on the XRCD file $c/xrcd
in_cgroup() { # ARGS...
	XRC_RCV_XRCD_FILE=$c/xrcd sh -c 'echo $$ > '$g'/xrc/cgroup.procs; exec "$@"' - \
		xrc-rcv --transport $t "$@"
}
for t in ioctl; do
	c=/tmp/xrc-cgroup-$t
	mkdir -p $c
	dev=$(sed -n 's/^\(xrc_sim[0-9]*\) .*/\1/p' $g/xrc/rdma.current)
	cg_expect "$t: nothing open" 0 0
	# A creates two QPs and registers the first again
	(in_cgroup --tag A run "info; touch $c/open; wait-file $c/go;
		create; save $c/q1; create; reg @$c/q1; touch $c/two; wait-file $c/limit;
		reg @$c/q1; expect EAGAIN create; expect EINVAL reg 0xfffffe;
		expect EINVAL reg 0xffffffff; touch $c/refused; wait-file $c/nolimit;
		unreg @$c/q1; unreg @$c/q1; touch $c/held; wait-file $c/last;
		unreg @$c/q1; touch $c/one; wait-file $c/end" || touch $c/failed) &
	p=$!
	cg_wait $c/open
	cg_expect "$t: A's context and XRCD" 1 1
	touch $c/go
	cg_wait $c/two
	cg_expect "$t: A: two QPs, three references" 1 3
	# At the limit, B (another file) cannot register A's QP: one more
	# object. The limit leaves room for B's own XRCD (an object too).
	echo "$dev hca_object=4" > $g/xrc/rdma.max
	in_cgroup --tag B run "expect EAGAIN reg @$c/q1; expect EINVAL reg 0xfffffe;
		expect EINVAL reg 0xffffffff"
	echo "$dev hca_object=3" > $g/xrc/rdma.max
	touch $c/limit
	cg_wait $c/refused
	cg_expect "$t: at the limit, A: a reference more, a QP refused, no number is EINVAL" 1 3
	echo "$dev hca_object=max" > $g/xrc/rdma.max
	# B registers A's QP: its own object
	(in_cgroup --tag B run "reg @$c/q1; touch $c/b; wait-file $c/b-end; unreg @$c/q1" ||
		touch $c/failed) &
	b=$!
	cg_wait $c/b
	cg_expect "$t: B holds A's first QP too" 2 5
	touch $c/b-end
	wait $b
	cg_expect "$t: B gone" 1 3
	touch $c/nolimit
	cg_wait $c/held
	cg_expect "$t: A: two of three references dropped" 1 3
	touch $c/last
	cg_wait $c/one
	cg_expect "$t: A: the last reference on the first QP dropped" 1 2
	touch $c/end
	wait $p
	[ ! -e $c/failed ] || { echo "[cgroup] FAILED: $t: an xrc-rcv failed"; exit 1; }
	cg_expect "$t: closed" 0 0
done
echo "[cgroup] passed"

# The race fuzzer (tests/race): processes and threads on shared XRCDs,
# kill -9, fork, close, events from xrc_sim's interrupt; a fresh seed
# each run, printed, unless XRC_RACE_SEED replays one.  Its last line,
# XRC-RACE result=... calls=..., is what the summary counts.
echo "XRC-SUITE=race"
xrc_race --seconds "${XRC_RACE_SECONDS:-90}"

# The fault sweep (tests/faults): the N-th allocation or user copy of each
# verb fails, for every N, over ioctl (XRC-FAULTS result=...).
echo "XRC-SUITE=faults"
xrc_faults

echo "XRC-SUITE=rmmod"
XRC_E2E_RMMOD=1 xrc_e2e_rmmod_tests

# A device without XRC: xrc_sim again, loaded with xrc=0, and only the
# NoXrc cases (everything else needs an XRCD).
echo "XRC-SUITE=e2e-noxrc"
if grep -q '^xrc_sim ' /proc/modules; then rmmod xrc_sim; fi
insmod /lib/modules/xrc_sim.ko xrc=0
i=0
while [ ! -c /dev/infiniband/uverbs0 ]; do
	i=$((i + 1))
	[ $i -le 50 ] || { echo "no /dev/infiniband/uverbs0 with xrc=0"; exit 1; }
	sleep 0.1
done
XRC_E2E_NO_XRC=1 xrc_e2e_tests --gtest_filter='NoXrc.*'
echo "XRC-SUITE=end"
