#!/bin/bash
# Run a user's own static program in the end-to-end guest (the series'
# kernel, the simulated XRC device as /dev/infiniband/uverbs0) and exit
# with its status; 1 if it passed but the kernel reported anything.
#   vm-run.sh PROG [ARGS...]
source "$(dirname "$0")/lib.sh"

[ -n "${1:-}" ] || die "usage: make vm-run PROG=/path/to/static-program [ARGS='...']"
[ -x "$1" ] || die "$1 is not an executable file"
"$TOP/scripts/kernel.sh" >&2
ko=$("$TOP/scripts/simdev.sh")
KERNEL="$KBUILD/arch/x86/boot/bzImage" XRC_SIM_KO="$ko" XRC_BUILD="$BUILD" \
	exec "$TOP/userspace-test/guest/vm-run.sh" "$@"
