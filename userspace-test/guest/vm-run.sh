#!/bin/bash
# Runs one static program in the e2e guest, against xrc_sim's
# /dev/infiniband/uverbs0, and exits with its status.
#
#   vm-run.sh PROG [ARGS...]
#
# The program runs as root in /tmp of the guest, with /tests on PATH.
# Environment: KERNEL (bzImage), XRC_SIM_KO (module built for it),
# XRC_BUILD (scratch root, default ~/.cache/xrc-rcv/build), TIMEOUT (s).
#
# Exit status: the program's; 1 if it passed but the kernel reported
# anything (KASAN, lockdep, kmemleak, WARNING...: see check-log.sh);
# 125 if the guest never reported a status (crash, hang, timeout).
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
xrc_build=${XRC_BUILD:-${XDG_CACHE_HOME:-$HOME/.cache}/xrc-rcv/build}
ko=${XRC_SIM_KO:-$here/../simdev/xrc_sim.ko}

[ $# -ge 1 ] || { sed -n '2,14s/^# \{0,1\}//p' "$0" >&2; exit 2; }
prog=$1
shift

mkdir -p "$xrc_build/guest"
work=$(mktemp -d "$xrc_build/guest/vm-run.XXXXXX")

# Quote each argument for sh: 'it'\''s'.
{
	echo '#!/bin/sh'
	printf '%s' "/tests/$(basename "$prog")"
	for arg in "$@"; do
		printf " '%s'" "$(printf '%s' "$arg" | sed "s/'/'\\\\''/g")"
	done
	echo
} > "$work/run.sh"

"$here/mkinitramfs.sh" -o "$work/initramfs.cpio.gz" -k "$ko" \
	-s "$work/run.sh" "$prog" || exit 125
"$here/run-qemu.sh" -i "$work/initramfs.cpio.gz" -l "$work/guest.log" \
	-t "${TIMEOUT:-900}"

marker=$(grep -aoE 'XRC-GUEST-EXIT=[0-9]+' "$work/guest.log" | tail -n 1)
"$here/check-log.sh" -s "$work/guest.log"
clean=$?
if [ -z "$marker" ]; then
	echo "vm-run: $prog: no exit status from the guest" >&2
	exit 125
fi
status=${marker#*=}
echo "vm-run: $prog exited $status; log: $work/guest.log" >&2
if [ "$status" = 0 ] && [ $clean != 0 ]; then
	exit 1
fi
exit "$status"
