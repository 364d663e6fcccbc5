#!/bin/bash
# The table at the end of make test: one row per stage with its result,
# time, CPU time (user + system, all its processes) and counts, from $BUILD/summary/<stage>.txt (key=value lines, see
# scripts/test.sh), then "N passed, M failed" alone on a line.
#   summary.sh [STAGE...]    default: every stage with a file, by name
# A stage with no file, or no result in it, did not run: it counts as
# failed. Exit status: 0 when every stage passed.
source "$(dirname "$0")/lib.sh"

SUMDIR="$BUILD/summary"
[ $# -gt 0 ] || set -- $(cd "$SUMDIR" 2>/dev/null && ls *.txt 2>/dev/null | sed 's/\.txt$//')

value() { sed -n "s/^$2=//p" "$1" | tail -1; }
duration() { # SECONDS
	if [ "$1" -ge 60 ]; then printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); else printf '%ds' "$1"; fi
}

passed=0 failed=0 total_s=0 total_cpu=0
printf '%-15s %-8s %7s %7s  %s\n' stage result time cpu counts
for stage in "$@"; do
	f="$SUMDIR/$stage.txt"
	result="" seconds="" cpu_s="" counts=""
	if [ -f "$f" ]; then
		result=$(value "$f" result)
		seconds=$(value "$f" seconds)
		cpu_s=$(value "$f" cpu_seconds)
		counts=$(grep -E '^[A-Za-z0-9_.-]+=' "$f" | grep -vE '^(result|seconds|cpu_seconds)=' |
			awk -F= '!seen[$1]++' | paste -sd' ' || true)
	fi
	case $result in
	passed) passed=$((passed + 1)) ;;
	"") result="not run"; failed=$((failed + 1)) ;;
	*) failed=$((failed + 1)) ;;
	esac
	time=- cpu=-
	if [ -n "$seconds" ]; then
		time=$(duration "$seconds")
		total_s=$((total_s + seconds))
	fi
	if [ -n "$cpu_s" ]; then
		cpu=$(duration "$cpu_s")
		total_cpu=$((total_cpu + cpu_s))
	fi
	printf "%-15s %-8s %7s %7s  %s\n" "$stage" "$result" "$time" "$cpu" "$counts" | sed "s/ *$//"
done
# make test's own wall time: with lanes side by side, stages overlap
note=""
if [ -f "$SUMDIR/wall_seconds" ]; then
	[ "$(cat "$SUMDIR/wall_seconds")" -ge "$total_s" ] || note="  (wall time; the stages' add up to $(duration $total_s))"
	total_s=$(cat "$SUMDIR/wall_seconds")
fi
printf '%-15s %-8s %7s %7s%s\n' total "" "$(duration $total_s)" "$(duration $total_cpu)" "$note"
echo
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
