#!/bin/sh
# The rxe benchmark in the guest (rxe/guest.sh bench, on the kernel
# without KASAN, lockdep or kmemleak). Prints RXE-BENCH lines; the host
# computes the ratios (rxe/bench-report.py).
#
#   XRC against RC: ib_send_bw (perftest, unmodified) across the veth pair
#   between the two namespaces, 64 B and 2 KiB messages, TRIALS trials,
#   RC and XRC alternating and their order swapped every other trial so
#   that neither always runs first. RC receives through an SRQ too
#   (--use-srq), as perftest's XRC does, so that the two differ by the
#   transport alone. One QP each way: this is the per-message cost of
#   the XRC path, not a many-QP figure.
#   The MPI shape: xrc_mpi_shape at P = 8 and 16 processes and N peers,
#   every kind REPS times, the kinds' order rotated each time, empty slabs
#   given back between runs.
export LD_LIBRARY_PATH=/usr/local/lib
export PATH=/usr/local/bin:$PATH
. /usr/local/lib/rxe-guest/setup.sh

TRIALS=${RXE_BENCH_TRIALS:-7}
ITERS=${RXE_BENCH_ITERS:-20000}

REPS=${RXE_BENCH_REPS:-3}

# One ib_send_bw run; its result line: "#bytes #iterations peak avg rate"
send_bw() { # KIND SIZE TRIAL
	srq=
	[ "$1" = RC ] && srq=--use-srq
	ib_send_bw -d rxe1 -x "$g1" -c "$1" $srq -s "$2" -n "$ITERS" -F > /tmp/server.log 2>&1 &
	server=$!
	sleep 3
	if ! $in_peer ib_send_bw -d rxe2 -x "$g2" -c "$1" $srq -s "$2" -n "$ITERS" -F \
		10.0.1.1 > /tmp/client.log 2>&1; then
		kill $server 2> /dev/null || true
		cat /tmp/client.log /tmp/server.log
		echo "RXE-FAIL: ib_send_bw -c $1 -s $2"
		return 1
	fi
	wait $server || { cat /tmp/server.log; echo "RXE-FAIL: its server"; return 1; }
	set -- "$1" "$2" "$3" $(grep -E "^ *$2 +$ITERS " /tmp/client.log)
	[ -n "${8:-}" ] || { cat /tmp/client.log; echo "RXE-FAIL: no result line"; return 1; }
	echo "RXE-BENCH bw kind=$1 size=$2 trial=$3 MBps=$7 Mpps=$8"
}

# Give empty slabs back, so that one kind's leftovers do not serve the next
shrink() {
	echo 3 > /proc/sys/vm/drop_caches
	for f in /sys/kernel/slab/*/shrink; do echo 1 > "$f"; done 2> /dev/null || true
}

echo "RXE-BENCH start trials=$TRIALS iters=$ITERS"
t=1
while [ $t -le "$TRIALS" ]; do
	for size in 64 2048; do
		if [ $((t % 2)) = 1 ]; then order="RC XRC"; else order="XRC RC"; fi
		for kind in $order; do
			send_bw "$kind" "$size" "$t"
		done
	done
	t=$((t + 1))
done

kinds="none rc rc-srq xrc xrc-send"
for p in 8 16; do
	for n in ${RXE_BENCH_PEERS:-64 256}; do
		r=1
		while [ $r -le "$REPS" ]; do
			for kind in $kinds; do
				shrink
				xrc_mpi_shape rxe0 "$kind" "$p" "$n"
			done
			kinds="${kinds#* } ${kinds%% *}"	# rotate
			r=$((r + 1))
		done
	done
done
echo "RXE-BENCH done"
