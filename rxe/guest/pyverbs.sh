#!/bin/sh
# make rxe-pyverbs (rxe/guest.sh pyverbs): rdma-core's whole Python test
# suite (tests/run_tests.py, pyverbs) on rxe0 with the rxe provider
# series, not only the XRC tests that run.sh runs: the provider's changes
# touch paths that RC, UC and UD share. Tests for other providers'
# hardware skip themselves. Prints unittest's verdict; fails on any
# failure or error.
export LD_LIBRARY_PATH=/usr/local/lib
export PATH=/usr/local/bin:$PATH
. /usr/local/lib/rxe-guest/setup.sh
# rdma_cm's tests synchronise their processes through POSIX shared memory
mkdir -p /dev/shm
mount -t tmpfs tmpfs /dev/shm
# unittest's lines as they come: the guest's watchdog stops a silent guest
{
	if PYTHONPATH=/usr/local/lib/rdma-core/python python3 \
		/usr/local/lib/rdma-core/tests/run_tests.py --dev rxe0 --gid "$g0" -v; then
		echo 0 > /tmp/pyverbs.rc
	else
		echo 1 > /tmp/pyverbs.rc
	fi
} 2>&1 | tee /tmp/pyverbs.log
rc=$(cat /tmp/pyverbs.rc)
echo "== nothing left behind"
rdma resource show | grep 'rxe[0-9]:' > /tmp/res.after
cat /tmp/res.after
cmp -s /tmp/res.before /tmp/res.after || { echo "RXE-FAIL: resources left"; rc=1; }
ip netns exec peer rdma link delete rxe2
rdma link delete rxe1
rdma link delete rxe0
exit $rc
