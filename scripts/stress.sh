#!/bin/bash
# make stress SECONDS=N: the race fuzzer (userspace-test/tests/race) alone
# in the end-to-end guest for N seconds (default 600), on the debug kernel
# (KASAN, lockdep, kmemleak); fails on any broken check and on any kernel
# report.  It prints its seed; STRESS_SEED=0x... replays one, and
# STRESS_PROCS / STRESS_THREADS size it.
#
# Environment: STRESS_SECONDS (the Makefile passes SECONDS), STRESS_SEED,
# STRESS_PROCS, STRESS_THREADS, E2E_NO_KERNEL_BUILD=1 (boot the kernel
# already built), E2E_XRC_SIM_KO (a prebuilt xrc_sim.ko).
source "$(dirname "$0")/lib.sh"

seconds=${STRESS_SECONDS:-600}
case $seconds in '' | *[!0-9]*) die "SECONDS must be a whole number of seconds: $seconds" ;; esac
[ "${E2E_NO_KERNEL_BUILD:-0}" = 1 ] || "$TOP/scripts/kernel.sh" >&2
ko=${E2E_XRC_SIM_KO:-$("$TOP/scripts/simdev.sh")}
static=$("$TOP/scripts/userspace.sh")

args=(--seconds "$seconds")
[ -z "${STRESS_SEED:-}" ] || args+=(--seed "$STRESS_SEED")
[ -z "${STRESS_PROCS:-}" ] || args+=(--procs "$STRESS_PROCS")
[ -z "${STRESS_THREADS:-}" ] || args+=(--threads "$STRESS_THREADS")
step "stress: the race fuzzer for $seconds s in the guest (${args[*]})"
rc=0
mkdir -p "$BUILD/stress"
KERNEL="$KBUILD/arch/x86/boot/bzImage" XRC_SIM_KO="$ko" XRC_BUILD="$BUILD" \
	TIMEOUT=$((seconds + 900)) "$TOP/userspace-test/guest/vm-run.sh" \
	"$static/tests/xrc_race" "${args[@]}" > "$BUILD/stress/out.txt" 2>&1 || rc=$?
# What the fuzzer and the log check say, not the kernel's boot messages
grep -E '^\[race\]|^XRC-|^run-qemu|^check-log|^vm-run|BUG|WARNING' "$BUILD/stress/out.txt" || true
log=$(ls -td "$BUILD"/guest/vm-run.*/ | head -1)guest.log
line=$(tr -d '\r' < "$log" | grep '^XRC-RACE ' | tail -1 || true)
echo "${line:-no XRC-RACE line in $log}"
for k in calls procs threads kills forks events_injected seed; do
	summary_set "race_$k=$(tr ' ' '\n' <<< "$line" | sed -n "s/^$k=//p")"
done
[ "$rc" = 0 ] || die "stress: the race fuzzer failed or the kernel reported (exit $rc): $log"
step "stress: passed ($log)"
