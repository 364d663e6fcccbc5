#!/bin/sh
# Run by the rxe guest's /init (sh -e; rxe/guest.sh packs it): rxe0 on
# dummy0 (loopback on one port), and rxe1 and rxe2 on the two ends of a
# veth pair, the second end in another network namespace (the UDP path
# between two netdevs); then every data-path check over them.
# Each step prints RXE-PASS or RXE-FAIL; the script fails if any failed.
export LD_LIBRARY_PATH=/usr/local/lib
export PATH=/usr/local/bin:$PATH
rc=0

# iproute2's ip, not busybox's applet (which busybox sh prefers)
ip() { /usr/local/bin/ip "$@"; }

run() { # NAME CMD...
	name=$1
	shift
	echo "== $name"
	if "$@"; then
		echo "RXE-PASS: $name"
	else
		echo "RXE-FAIL: $name"
		rc=1
	fi
}

# A server in the background, its client, then the server's own status
pair() { # NAME "SERVER CMD" "CLIENT CMD"
	echo "== $1"
	$2 > /tmp/server.log 2>&1 &
	server=$!
	sleep 2
	if $3 && wait $server; then
		echo "RXE-PASS: $1"
	else
		wait $server || true
		echo "--- its server said:"
		cat /tmp/server.log
		echo "RXE-FAIL: $1"
		rc=1
	fi
}

# The index of a device's RoCE v2 GID of an IPv4 address (as its last 8
# hex digits): GIDs appear shortly after the address does
gid_index() { # DEV HEX8
	for try in 1 2 3 4 5 6 7 8 9 10; do
		for i in 0 1 2 3 4 5 6 7; do
			case $(cat /sys/class/infiniband/$1/ports/1/gids/$i 2>/dev/null) in
			*ffff:$2) echo "$i"; return 0 ;;
			esac
		done
		sleep 1
	done
	echo "RXE-FAIL: no GID of $2 on $1" >&2
	return 1
}

echo "== the rxe KUnit suite (a module)"
insmod /lib/modules/rxe_kunit.ko
dmesg | grep -E '^\[[ 0-9.]+\] *(# |ok |not ok |KTAP)' | sed 's/^\[[ 0-9.]*\] *//' |
	tee /tmp/kunit.log
if grep -q '^# Totals: pass:[1-9][0-9]* fail:0 skip:0' /tmp/kunit.log ||
   grep -qE '^# [a-z_]+: pass:[1-9][0-9]* fail:0 skip:0' /tmp/kunit.log &&
   ! grep -q '^ *not ok' /tmp/kunit.log; then
	echo "RXE-PASS: kunit"
else
	echo "RXE-FAIL: kunit"
	rc=1
fi

echo "== rxe0 on dummy0"
ip link set lo up
ip link show dummy0 > /dev/null 2>&1 || ip link add dummy0 type dummy
ip addr add 10.0.0.1/24 dev dummy0
ip link set dummy0 up
rdma link add rxe0 type rxe netdev dummy0
g0=$(gid_index rxe0 0a00:0001)
ibv_devinfo -d rxe0 -v | grep -E 'hca_id|XRC|state'

echo "== rxe1 on veth0 (10.0.1.1), rxe2 on veth1 (10.0.1.2) in namespace peer"
mkdir -p /run/netns
ip netns add peer
ip link add veth0 type veth peer name veth1
ip link set veth1 netns peer
ip addr add 10.0.1.1/24 dev veth0
ip link set veth0 up
ip netns exec peer ip link set lo up
ip netns exec peer ip addr add 10.0.1.2/24 dev veth1
ip netns exec peer ip link set veth1 up
rdma link add rxe1 type rxe netdev veth0
ip netns exec peer rdma link add rxe2 type rxe netdev veth1
rdma link show
g1=$(gid_index rxe1 0a00:0101)
g2=$(gid_index rxe2 0a00:0102)
echo "RXE-GID-INDEX rxe0=$g0 rxe1=$g1 rxe2=$g2"
# What the devices hold before any test: the kernel's own (QP1, its PD, CQ)
rdma resource show | grep 'rxe[0-9]:' > /tmp/res.before
in_peer="ip netns exec peer"

run xrc_rxe_test xrc_rxe_test rxe0
run "xrc_rcv_data (libibverbs, loopback)" xrc_rcv_data rxe0
run "xrc_rcv_data (ioctl, loopback)" xrc_rcv_data --ioctl rxe0
run "xrc_rcv_data (libibverbs, veth)" xrc_rcv_data rxe1 rxe2
run "xrc_rcv_data (ioctl, veth)" xrc_rcv_data --ioctl rxe1 rxe2
pair "ibv_xsrq_pingpong (loopback)" "ibv_xsrq_pingpong -d rxe0 -g $g0 -n 50" \
	"ibv_xsrq_pingpong -d rxe0 -g $g0 -n 50 127.0.0.1"
pair "ibv_xsrq_pingpong (veth)" "ibv_xsrq_pingpong -d rxe1 -g $g1 -n 50" \
	"$in_peer ibv_xsrq_pingpong -d rxe2 -g $g2 -n 50 10.0.1.1"

# perftest's XRC tests, unmodified: small sizes and counts, because the
# guest is TCG-emulated with KASAN; what runs matters here, not the rate.
# The client in the other namespace, over the veth pair.
for t in "ib_send_bw -s 4096" "ib_write_bw -s 4096" "ib_read_bw -s 4096" \
	 "ib_atomic_bw" "ib_send_lat -s 64"; do
	pair "perftest $t" "$t -d rxe1 -x $g1 -c XRC -n 200 -F" \
		"$in_peer $t -d rxe2 -x $g2 -c XRC -n 200 -F 10.0.1.1"
done

# rdma-core's own tests (pyverbs) whose names contain xrc: its XRC traffic
# tests and the registration verbs' tests, on rxe0
echo "== rdma-core tests -k xrc"
if PYTHONPATH=/usr/local/lib/rdma-core/python python3 \
	/usr/local/lib/rdma-core/tests/run_tests.py --dev rxe0 --gid "$g0" -v -k xrc \
	> /tmp/pyverbs.log 2>&1; then
	cat /tmp/pyverbs.log
	echo "RXE-PASS: rdma-core tests -k xrc"
else
	cat /tmp/pyverbs.log
	echo "RXE-FAIL: rdma-core tests -k xrc"
	rc=1
fi

echo "== nothing left behind"
rdma resource show | grep 'rxe[0-9]:' > /tmp/res.after
cat /tmp/res.after
if cmp -s /tmp/res.before /tmp/res.after; then
	echo "RXE-PASS: the rxe devices hold what they held before the tests"
else
	echo "--- before the tests:"
	cat /tmp/res.before
	echo "RXE-FAIL: resources left on the rxe devices"
	rc=1
fi
$in_peer rdma link delete rxe2
rdma link delete rxe1
rdma link delete rxe0
echo "RXE-GUEST-EXIT=$rc"
exit $rc
