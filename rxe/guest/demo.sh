#!/bin/sh
# make demo's last part (rxe/guest.sh demo): messages through one shared
# receive QP, over soft-RoCE between two network namespaces. Processes
# C, R1 and R2 share the QP C created with REG; I, in the other
# namespace's device, sends to each one's SRQ; C exits; R1 and R2 go on
# receiving; their UNREGs destroy the QP (xrc_rcv_data says each step).
export LD_LIBRARY_PATH=/usr/local/lib
export PATH=/usr/local/bin:$PATH
. /usr/local/lib/rxe-guest/setup.sh
echo "RXE-DEMO: receivers on rxe1 (10.0.1.1), initiators on rxe2 (10.0.1.2, namespace peer)"
xrc_rcv_data rxe1 rxe2
