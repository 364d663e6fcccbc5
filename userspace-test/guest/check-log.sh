#!/bin/bash
# Judges a guest serial log: fails on any kernel report (KASAN, lockdep,
# kmemleak, WARNING, BUG, Oops, panic...) and on a missing or non-zero
# exit marker, printing the offending excerpts.
#
#   check-log.sh [-s|-r] LOG
#
#   -s  skip the XRC-GUEST-EXIT status check (vm-run.sh reports it)
#   -r  kernel reports only, no markers: for logs of other boots (KUnit)
#
# Exits 0 if the log is clean, 1 otherwise.  XRC_LOG_IGNORE_KCSAN=1
# leaves KCSAN's data race reports out (scripts/kcsan.sh judges them).
set -uo pipefail

check_exit=1
check_markers=1
case "${1:-}" in
-s) check_exit=0; shift ;;
-r) check_markers=0; shift ;;
esac
[ $# -eq 1 ] || { sed -n '2,11s/^# \{0,1\}//p' "$0" >&2; exit 2; }
log=$1
name=$1
[ -f "$log" ] || { echo "check-log: no such log: $log" >&2; exit 2; }

# A KCSAN report runs from its "BUG: KCSAN:" line to the next ===== line;
# its lines become blank, so line numbers stay those of $name. (Fixed
# strings: mawk, Debian's awk, has no {n,} in its regular expressions.)
if [ "${XRC_LOG_IGNORE_KCSAN:-0}" = 1 ]; then
	stripped=$(mktemp)
	trap 'rm -f "$stripped"' EXIT
	awk 'index($0, "BUG: KCSAN:") { skip = 1 }
		skip { print ""; if (index($0, "====================")) skip = 0; next }
		{ print }' "$log" > "$stripped"
	log=$stripped
fi

# Kernel reports: each pattern begins (or marks) one.
reports=(
	'BUG: KASAN'
	'WARNING: possible'
	'inconsistent lock state'
	'circular locking'
	'unreferenced object'
	'kmemleak: .*new suspected memory leak'
	'WARNING:'
	'BUG:'
	'Oops'
	'Call Trace'
	'Kernel panic'
	'general protection fault'
	'UBSAN:'
	'refcount_t:'
	'INFO: task .* blocked for more than'
	'XRC-GUEST-RMMOD=[1-9]'
)
regex=$(IFS='|'; echo "${reports[*]}")
status=0

fail() {
	echo "check-log: FAIL: $*"
	status=1
}

# List the report lines, then print up to 4 excerpts, each from 2 lines
# before a hit to 60 after; hits inside an excerpt shown are skipped.
hits=$(grep -anE "$regex" "$log" | cut -d: -f1)
if [ -n "$hits" ]; then
	fail "$(echo "$hits" | wc -l) report line(s) in $name:"
	grep -anE "$regex" "$log" | head -n 20
	shown_to=0
	excerpts=0
	for n in $hits; do
		[ "$n" -gt "$shown_to" ] || continue
		[ $excerpts -lt 4 ] || { echo "check-log: (more in $name)"; break; }
		from=$((n > 2 ? n - 2 : 1))
		shown_to=$((n + 60))
		echo "----- $name:$n -----"
		sed -n "${from},${shown_to}p" "$log"
		excerpts=$((excerpts + 1))
	done
	echo "-----"
fi

# Kernel output can interleave with the marker's line: don't anchor it.
marker=$(grep -aoE 'XRC-GUEST-EXIT=[0-9]+' "$log" | tail -n 1)
if [ $check_markers = 0 ]; then
	:
elif [ -z "$marker" ]; then
	fail "no XRC-GUEST-EXIT marker: the guest crashed, hung or timed out"
	echo "----- last lines of $name -----"
	tail -n 30 "$log"
	echo "-----"
elif [ $check_exit = 1 ] && [ "${marker#*=}" != 0 ]; then
	fail "tests exited with status ${marker#*=}"
fi
if [ $check_markers = 1 ] && [ -n "$marker" ] && ! grep -aq 'XRC-GUEST-DONE' "$log"; then
	fail "no XRC-GUEST-DONE marker: the guest stopped after the tests"
fi

[ $status = 0 ] && echo "check-log: clean: $name"
exit $status
