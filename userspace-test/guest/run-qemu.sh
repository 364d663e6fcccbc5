#!/bin/bash
# Boots the e2e guest under QEMU (TCG: no KVM) and tees its serial log.
#
#   run-qemu.sh -i INITRAMFS [-k BZIMAGE] [-l LOG] [-t SECONDS]
#               [-r 'CMD; CMD'] [-a 'EXTRA KERNEL ARGS'] [-m MEMORY]
#
#   -i  initramfs from mkinitramfs.sh
#   -k  kernel (default: $KERNEL, else the base build's bzImage)
#   -l  serial log (default: $XRC_BUILD/guest/guest.log)
#   -t  timeout in seconds for the whole boot (default: 900)
#   -r  command list for /init to run instead of its default (xrc_run=)
#   -a  more kernel command line
#   -m  guest memory, as QEMU's -m takes it (default: 2G)
#
# XRC_GUEST_SILENCE (default 900; 0 turns it off): stop a guest that
# printed nothing for that many seconds, as a timeout.
#
# Exits 0 when the guest powered off by itself, 124 on timeout, else
# QEMU's status.  Judge the log with check-log.sh.
set -uo pipefail

xrc_build=${XRC_BUILD:-${XDG_CACHE_HOME:-$HOME/.cache}/xrc-rcv/build}
kernel=${KERNEL:-$xrc_build/kernel/arch/x86/boot/bzImage}
log=$xrc_build/guest/guest.log
initrd=
timeout=900
run=
extra=
mem=2G
silence=${XRC_GUEST_SILENCE:-900}
case $silence in ''|*[!0-9]*) echo "run-qemu: XRC_GUEST_SILENCE must be a number of seconds (0: no watchdog)" >&2; exit 2 ;; esac

usage() {
	sed -n '2,17s/^# \{0,1\}//p' "$0" >&2
	exit 2
}

while getopts i:k:l:t:r:a:m:h opt; do
	case $opt in
	i) initrd=$OPTARG ;;
	k) kernel=$OPTARG ;;
	l) log=$OPTARG ;;
	t) timeout=$OPTARG ;;
	r) run=$OPTARG ;;
	a) extra=$OPTARG ;;
	m) mem=$OPTARG ;;
	*) usage ;;
	esac
done
[ -n "$initrd" ] || usage
for f in "$kernel" "$initrd"; do
	[ -f "$f" ] || { echo "run-qemu: no such file: $f" >&2; exit 2; }
done
case $run in *\"*) echo "run-qemu: -r cannot contain '\"'" >&2; exit 2 ;; esac

append="console=ttyS0 kunit.enable=0 panic=-1 $extra"
[ -z "$run" ] || append="$append xrc_run=\"$run\""

if ! command -v qemu-system-x86_64 >/dev/null ||
   [ ! -f /usr/share/qemu/qboot.rom ]; then
	echo "run-qemu: installing qemu-system-x86" >&2
	{ apt-get install -y -q qemu-system-x86 ||
		{ apt-get update -q && apt-get install -y -q qemu-system-x86; }; } >&2 ||
		{ echo "run-qemu: cannot install QEMU" >&2; exit 2; }
fi

mkdir -p "$(dirname "$log")"
: > "$log"
start=$(date +%s.%N)
# QEMU under timeout(1), in the background so that a watchdog can stop a
# guest that has printed nothing for $silence seconds (a hung guest would
# otherwise hold the run until the whole timeout). tr is line-buffered,
# so the log always ends where the guest stopped.
state=$(mktemp -d) || exit 125
# QEMU runs in its own process group (timeout's): stop it with us
trap 'kill "$(cat "$state/pid" 2>/dev/null)" 2>/dev/null; rm -rf "$state"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP
{
	timeout -k 10 "$timeout" qemu-system-x86_64 \
		-bios qboot.rom -nodefaults -nographic -serial stdio -no-reboot \
		-m "$mem" -smp 2 \
		-kernel "$kernel" -initrd "$initrd" -append "$append" \
		</dev/null 2>&1 &
	echo $! > "$state/pid"
	wait $!
	echo $? > "$state/rc"
} | stdbuf -oL tr -d '\r' | tee -a "$log" &
pipeline=$!
while [ ! -s "$state/pid" ] && kill -0 "$pipeline" 2>/dev/null; do sleep 0.1; done
last_size=-1 last_change=$SECONDS
while kill -0 "$pipeline" 2>/dev/null; do
	size=$(stat -c %s "$log" 2>/dev/null || echo 0)
	if [ "$size" != "$last_size" ]; then
		last_size=$size last_change=$SECONDS
	elif [ "$silence" -gt 0 ] && [ $((SECONDS - last_change)) -ge "$silence" ]; then
		echo "run-qemu: no guest output for $silence s: stopping QEMU" | tee -a "$log" >&2
		kill "$(cat "$state/pid")" 2>/dev/null && touch "$state/silent"
		break
	fi
	sleep 1
done
wait "$pipeline"
rc=$(cat "$state/rc" 2>/dev/null || echo 125)
[ ! -e "$state/silent" ] || rc=124
end=$(date +%s.%N)

awk -v rc="$rc" -v s="$start" -v e="$end" -v lf="$log" 'BEGIN {
	printf "run-qemu: QEMU exit %d after %.1f s; log: %s\n", rc, e - s, lf
}' >&2
exit "$rc"
