#!/bin/sh
# Run by the rxe guest's /init (sh -e; rxe/guest.sh packs it): the rxe
# KUnit suite, the devices of setup.sh, then every data-path check over
# them.
# Each step prints RXE-PASS or RXE-FAIL; the script fails if any failed.
export LD_LIBRARY_PATH=/usr/local/lib
export PATH=/usr/local/bin:$PATH
rc=0

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

# A server in the background, its client, then the server's own status;
# a server whose client failed is killed rather than waited for
pair() { # NAME "SERVER CMD" "CLIENT CMD"
	echo "== $1"
	$2 > /tmp/server.log 2>&1 &
	server=$!
	sleep 3
	if $3 && wait $server; then
		echo "RXE-PASS: $1"
	else
		kill $server 2> /dev/null || true
		wait $server || true
		echo "--- its server said:"
		cat /tmp/server.log
		echo "RXE-FAIL: $1"
		rc=1
	fi
}

echo "== the rxe KUnit suite (a module)"
insmod /lib/modules/rxe_kunit.ko || echo "insmod failed"
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

. /usr/local/lib/rxe-guest/setup.sh

# Runts: 4-byte datagrams to rxe's port, shorter than a BTH, from the
# other namespace to rxe1, over IPv4 with a record-route option and over
# IPv6. rxe drops them. Before patches/rxe/'s first patch, rxe_rcv()
# read pkt->qp for the drop from what the IP layer had left in the
# skb's control block, and put that as a QP: Debian's stock 6.12 panics
# on either datagram. Here the guest must live on, and the tests after
# this one use rxe1.
runts() {
	$in_peer python3 -c '
import socket
v4 = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
# record route (7), length 7, pointer 4, one address; end of options
v4.setsockopt(socket.IPPROTO_IP, socket.IP_OPTIONS, bytes([7, 7, 4, 0, 0, 0, 0, 0]))
v4.sendto(b"runt", ("10.0.1.1", 4791))
socket.socket(socket.AF_INET6, socket.SOCK_DGRAM).sendto(b"runt", ("fd00:1::1", 4791))
' && sleep 2
}
run "runt datagrams to port 4791 (IPv4 with options, IPv6), dropped" runts

run xrc_rxe_test xrc_rxe_test rxe0
run "xrc_rcv_data (libibverbs, loopback)" xrc_rcv_data rxe0
run "xrc_rcv_data (ioctl, loopback)" xrc_rcv_data --ioctl rxe0
run "xrc_rcv_data (libibverbs, veth)" xrc_rcv_data rxe1 rxe2
run "xrc_rcv_data (ioctl, veth)" xrc_rcv_data --ioctl rxe1 rxe2
# The race fuzzer with traffic: registrations taken and dropped in every
# way (UNREG, exit, close, kill -9) while initiators send; each drop way
# ends the creator's and the last registration once on rxe0 (make
# rxe-churn runs it longer)
run "xrc_churn (loopback)" xrc_churn -e 4 -t 4000 rxe0
run "xrc_churn (veth)" xrc_churn -e 2 -t 4000 rxe1 rxe2
# An OFED 1.5-style program (ofa-compat): processes sharing one receive
# QP through the legacy verbs, an IBV_QPT_XRC send QP sending to each
# one's SRQ with xrc_remote_srq_num
run "ofed_xrc_share --send" ofed_xrc_share --send -d rxe0 4
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
exit $rc
