#!/bin/sh
# make rxe-churn (rxe/guest.sh churn): the race fuzzer with traffic alone,
# for longer than run.sh runs it: looped back on rxe0, then across the
# veth pair. Fails if either run has a failed check; rxe/guest.sh then
# reads the kernel log for reports. Deleting the devices at the end
# makes rxe check that none of its pools (XRC domains among them) still
# holds an object.
export LD_LIBRARY_PATH=/usr/local/lib
export PATH=/usr/local/bin:$PATH
. /usr/local/lib/rxe-guest/setup.sh
epochs=$(cat /usr/local/lib/rxe-guest/churn-epochs)
rc=0
xrc_churn -e "$epochs" rxe0 || rc=1
xrc_churn -e "$epochs" rxe1 rxe2 || rc=1
ip netns exec peer rdma link delete rxe2
rdma link delete rxe1
rdma link delete rxe0
exit $rc
