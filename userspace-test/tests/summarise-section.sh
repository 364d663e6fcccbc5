#!/bin/bash
# Counts the gtest results of one section of a guest log and judges them:
# no failed test, no skip the allow-list does not name, at least one test.
# rdma-core/guest.sh runs it on the e2e suites over libibverbs.
#
#   summarise-section.sh LOG SECTION ALLOW-LIST [EXPECTED]
#
# EXPECTED: how many tests the section must count (gtest_list_tests'),
# so that cases that silently went missing fail too.
# Prints "SECTION: passed=N failed=N skipped=N" (and every failed or
# unlisted skipped test before it); exits 1 when the section fails.
set -uo pipefail

[ $# -eq 3 ] || [ $# -eq 4 ] || { sed -n '2,12s/^# \{0,1\}//p' "$0" >&2; exit 2; }
log=$1 section=$2 allow=$3 expected=${4:-}
[ -f "$log" ] || { echo "summary: no such log: $log" >&2; exit 2; }

passed=0 failed=0 skipped=0 status=0
source "$(dirname "$0")/allow-list.sh"
allow_load "$allow" || status=1
while IFS=$'\t' read -r sect res name; do
	[ "$sect" = "$section" ] || continue
	case $res in
	OK) passed=$((passed + 1)) ;;
	FAILED)
		failed=$((failed + 1))
		echo "summary: FAIL: $section: $name failed"
		status=1 ;;
	*)
		skipped=$((skipped + 1))
		if ! allowed "$section" "$name"; then
			echo "summary: FAIL: $section: $name skipped, and it is not on $allow"
			status=1
		fi ;;
	esac
done < <(tr -d '\r' < "$log" | awk -f "$(dirname "$0")/gtest-results.awk")

if [ $((passed + failed + skipped)) -eq 0 ]; then
	echo "summary: FAIL: no $section test ran (see $log)"
	status=1
fi
if [ -n "$expected" ] && [ $((passed + failed + skipped)) -ne "$expected" ]; then
	echo "summary: FAIL: $section counted $((passed + failed + skipped)) tests, the binary lists $expected"
	status=1
fi
echo "$section: passed=$passed failed=$failed skipped=$skipped"
exit $status
