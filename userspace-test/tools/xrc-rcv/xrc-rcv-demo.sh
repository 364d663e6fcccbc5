#!/bin/sh
# xrc-rcv-demo [exit|kill]: the life of one XRC receive QP across two
# processes, printed step by step (busybox sh is enough).
#
#   A creates the QP (REG with the sentinel) and publishes its number.
#   B opens the same XRCD file and registers the number.
#   A goes away: a normal exit, or kill -9 with "kill".  The QP lives on.
#   B queries and modifies it, then unregisters: the last reference is
#   gone, the QP is destroyed, and its number can no longer be registered.
#
# Environment: XRC_RCV (the binary, default xrc-rcv from PATH),
# XRC_RCV_DEVICE (default /dev/infiniband/uverbs0).
set -e
mode=${1:-exit}
case $mode in exit|kill) ;; *) echo "usage: $0 [exit|kill]" >&2; exit 2 ;; esac
XRC=${XRC_RCV:-xrc-rcv}
dir=$(mktemp -d /tmp/xrc-demo.XXXXXX)
export XRC_RCV_XRCD_FILE="$dir/xrcd"

# With xrc_sim, also raise an event and show that B (only B) receives it.
events=
[ -w "${XRC_SIM_DEBUGFS:-/sys/kernel/debug/xrc_sim}/inject_event" ] &&
	events="inject QP_FATAL; events --timeout 500;"

if [ "$mode" = exit ]; then
	a_tail="wait-file $dir/b-registered; echo A exits now; exit 0"
else
	a_tail="echo A holds its file open until killed; hold"
fi
"$XRC" --tag A run "counters; create; save $dir/qpn; info; $a_tail" &
a=$!

"$XRC" --tag B run "wait-file $dir/qpn; reg @$dir/qpn; touch $dir/b-registered;
	wait-file $dir/a-gone; echo A is gone; counters; query;
	$events
	modify --state init; modify --state rtr --dest-qpn 0x42 --rq-psn 7; query;
	unreg; counters; expect EINVAL reg @$dir/qpn" &
b=$!

fail() {
	echo "[demo] $*" >&2
	kill "$a" "$b" 2>/dev/null || true
	rm -rf "$dir"
	exit 1
}

if [ "$mode" = kill ]; then
	while [ ! -e "$dir/b-registered" ]; do
		kill -0 "$a" 2>/dev/null || fail "A died before B registered"
		sleep 0.1
	done
	echo "[demo] kill -9 A (pid $a)"
	kill -9 "$a"
	wait "$a" || true
else
	wait "$a" || fail "A failed"
fi
touch "$dir/a-gone"
rc=0
wait "$b" || rc=$?
rm -rf "$dir"
echo "[demo] done (B exited $rc)"
exit $rc
