#!/bin/bash
# make kcsan: build the series' kernel with KCSAN instead of KASAN (in
# build/kernel-kcsan, beside the debug kernel), run the KUnit suites and
# the race fuzzer (KCSAN_SECONDS, default 120) on it, and fail on any data
# race report in code the series adds or touches, on any other kernel
# report (lockdep, WARN...), and on any failed case or fuzzer check.
# Reports elsewhere in the kernel are listed, not failed. A positive
# control runs first: KCSAN's own KUnit test must see its planted race.
# Cold, the KCSAN kernel takes as long as the debug kernel to build;
# it is not part of make test (README, "Time").
source "$(dirname "$0")/lib.sh"

export KBUILD="$BUILD/kernel-kcsan"
export KUNITCONFIGS="kunit/.kunitconfig kunit/kcsan.config kunit/boot.config userspace-test/guest/kernel.config"
seconds=${KCSAN_SECONDS:-120}
out="$BUILD/kcsan"
mkdir -p "$out"

"$TOP/scripts/kernel.sh"
grep -q '^CONFIG_KCSAN=y' "$KBUILD/.config" || die "$KBUILD/.config has no KCSAN"

# The functions of the series: those defined in the objects built from the
# C files it changes. A report is the series' when either racing access
# has one of them on its stack.
git -C "$TREE" diff --name-only --diff-filter=AM "$BASE_REF" "$SERIES_REF" -- '*.c' |
	while read -r f; do
		o="$KBUILD/${f%.c}.o"
		[ -f "$o" ] || continue
		# foo.constprop.0, foo.isra.0, foo.cold: frames name them foo
		nm --defined-only "$o" | awk '$2 ~ /^[tT]$/ { sub(/\..*/, "", $3); print $3 }'
	done | sort -u > "$out/series-functions.txt"
[ -s "$out/series-functions.txt" ] || die "no object of the series' files in $KBUILD"

kunit() { # LOG QEMU-ARGS KERNEL-ARGS GLOB
	(cd "$TREE" && kunit_py exec --arch=x86_64 \
		--build_dir="$KBUILD" --timeout=2400 --qemu_args="$2" \
		--kernel_args="$3" --raw_output=all "$4" > "$1" 2>&1) || true
	kunit_py parse < "$1" > "${1%.log}-results.log" 2>&1 || true
}
passed_all() { # RESULTS N
	grep -qE "Testing complete\. Ran $2 tests: passed: $2\$" "$1"
}

# First, that KCSAN reports here at all, and that kcsan-reports.py reads
# its reports: KCSAN's test_basic plants a race and passes only if it is
# reported. It needs more CPUs than its threads, and preemption.
step "kcsan: the positive control (KCSAN's own test_basic)"
kunit "$out/control.log" "-smp 4" "preempt=full" "kcsan.test_basic"
control=$(python3 "$TOP/scripts/kcsan-reports.py" /dev/null "$out/control.log" | tail -1)
echo "$control"
grep -qE 'passed: [1-9]' "$out/control-results.log" &&
	! grep -qE 'failed: [1-9]|crashed: [1-9]' "$out/control-results.log" ||
	die "kcsan: KCSAN's test_basic did not pass: KCSAN does not report here ($out/control-results.log)"
grep -qE ', [1-9][0-9]* elsewhere$' <<< "$control" ||
	die "kcsan: kcsan-reports.py found no report in test_basic's log ($out/control.log)"
# and check-log.sh, told to leave KCSAN's reports out, finds the log clean
XRC_LOG_IGNORE_KCSAN=1 "$TOP/userspace-test/guest/check-log.sh" -r "$out/control.log" ||
	die "kcsan: check-log.sh does not leave KCSAN's reports out of $out/control.log"

# The suites several times over: KCSAN samples accesses, and a race case
# runs for a fraction of a second.
rounds=${KCSAN_KUNIT_ROUNDS:-5}
expected=$(kunit_expected_cases)
kunit_ok=1
kunit_logs=()
for r in $(seq "$rounds"); do
	step "kcsan: the KUnit suites on the KCSAN kernel, round $r of $rounds"
	kunit "$out/kunit-$r.log" "-smp 2" "" "$KUNIT_SUITES"
	kunit_logs+=("$out/kunit-$r.log")
	passed_all "$out/kunit-$r-results.log" "$expected" || kunit_ok=0
done

step "kcsan: the race fuzzer for $seconds s on the KCSAN kernel"
fuzz_rc=0
E2E_NO_KERNEL_BUILD=1 XRC_LOG_IGNORE_KCSAN=1 STRESS_SECONDS=$seconds \
	"$TOP/scripts/stress.sh" || fuzz_rc=$?
guest_log=$(ls -td "$BUILD"/guest/vm-run.*/ | head -1)guest.log

step "kcsan: data race reports"
reports_rc=0
python3 "$TOP/scripts/kcsan-reports.py" "$out/series-functions.txt" \
	"${kunit_logs[@]}" "$guest_log" | tee "$out/reports.txt" || reports_rc=$?
for log in "${kunit_logs[@]}"; do
	XRC_LOG_IGNORE_KCSAN=1 "$TOP/userspace-test/guest/check-log.sh" -r "$log" || reports_rc=1
done

[ $kunit_ok = 1 ] || die "kcsan: a round of the KUnit suites did not pass all $expected cases ($out/kunit-*-results.log)"
[ $fuzz_rc = 0 ] || die "kcsan: the race fuzzer failed (exit $fuzz_rc): $guest_log"
[ $reports_rc = 0 ] || die "kcsan: kernel reports (above, $out/reports.txt)"
summary_set rounds="$rounds" expected="$expected" "$(sed -n 's/^kcsan: \([0-9]*\) report.*, \([0-9]*\) elsewhere$/series_reports=\1 other_reports=\2/p' "$out/reports.txt")"
step "kcsan: passed: the control, $rounds rounds of $expected KUnit cases, the race fuzzer for $seconds s; no report in the series' code"
