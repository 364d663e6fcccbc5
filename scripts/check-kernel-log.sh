#!/bin/bash
# Fail on any report the debugging options make in a kernel log: KASAN,
# lockdep, kmemleak, WARN, BUG, Oops. Prints each report's first lines.
#   check-kernel-log.sh LOG...
reports='BUG: KASAN|BUG: |WARNING: |------------\[ cut here \]|Oops|possible circular locking|inconsistent lock state|possible recursive locking|unreferenced object|Kernel panic|UBSAN:'
status=0
for log in "$@"; do
	if grep -nE "$reports" "$log" > /dev/null; then
		echo "kernel reports in $log:"
		grep -nE -A12 "$reports" "$log" | head -60
		status=1
	fi
done
[ $status -eq 0 ] && echo "no KASAN, lockdep, kmemleak, WARN or BUG report in: $*"
exit $status
