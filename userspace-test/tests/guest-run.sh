# Guest script for guest/mkinitramfs.sh -s: runs the userspace suites in
# order, device removal last.  /init runs it with `sh -e`, from /tmp, with
# /tests on PATH.  Pack with:
#   guest/mkinitramfs.sh -o OUT.cpio.gz -s tests/guest-run.sh \
#       BUILD/xrc-rcv BUILD/tests/xrc_unit_tests BUILD/tests/xrc_e2e_tests \
#       BUILD/tests/xrc_e2e_rmmod_tests tools/xrc-rcv/xrc-rcv-demo.sh
# where BUILD was configured with -DXRCRCV_STATIC=ON.
# Knobs: XRC_E2E_FUZZ_ITERATIONS, XRC_E2E_STRESS_PROCS, XRC_E2E_STRESS_SECONDS,
# XRC_E2E_SEED (all may be set on the kernel command line by run-qemu.sh).
xrc_unit_tests --gtest_brief=1
xrc_e2e_tests --gtest_brief=1
# The CLI demo, when packed too (tools/xrc-rcv/xrc-rcv-demo.sh).
if [ -x /tests/xrc-rcv-demo.sh ]; then
	XRC_RCV=xrc-rcv sh /tests/xrc-rcv-demo.sh exit
	XRC_RCV=xrc-rcv sh /tests/xrc-rcv-demo.sh kill
fi
XRC_E2E_RMMOD=1 xrc_e2e_rmmod_tests
