#!/bin/bash
# make kcsan: build the series' kernel with KCSAN instead of KASAN (in
# build/kernel-kcsan, beside the debug kernel), run the KUnit suites and
# the race fuzzer (KCSAN_SECONDS, default 120) on it, and fail on any data
# race report in code the series adds or touches, on any other kernel
# report (lockdep, WARN...), and on any failed case or fuzzer check.
# Reports elsewhere in the kernel are listed, not failed.
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
		nm --defined-only "$o" | awk '$2 ~ /^[tT]$/ { print $3 }'
	done | sort -u > "$out/series-functions.txt"
[ -s "$out/series-functions.txt" ] || die "no object of the series' files in $KBUILD"

step "kcsan: the KUnit suites on the KCSAN kernel"
(cd "$TREE" && python3 tools/testing/kunit/kunit.py exec --arch=x86_64 \
	--build_dir="$KBUILD" --timeout=2400 --qemu_args="-smp 2" \
	--raw_output=all "$KUNIT_SUITES" > "$out/kunit-raw.log" 2>&1) || true
python3 "$TREE/tools/testing/kunit/kunit.py" parse < "$out/kunit-raw.log" > "$out/kunit-results.log" 2>&1 || true
expected=$(awk '!/^#/ && NF == 2 { n += $2 } END { print n + 0 }' "$TOP/kunit/expected-cases")
kunit_ok=0
grep -qE "Testing complete\. Ran $expected tests: passed: $expected\$" "$out/kunit-results.log" && kunit_ok=1

step "kcsan: the race fuzzer for $seconds s on the KCSAN kernel"
fuzz_rc=0
E2E_NO_KERNEL_BUILD=1 XRC_LOG_IGNORE_KCSAN=1 STRESS_SECONDS=$seconds \
	"$TOP/scripts/stress.sh" || fuzz_rc=$?
guest_log=$(ls -td "$BUILD"/guest/vm-run.*/ | head -1)guest.log

step "kcsan: data race reports"
reports_rc=0
python3 "$TOP/scripts/kcsan-reports.py" "$out/series-functions.txt" \
	"$out/kunit-raw.log" "$guest_log" | tee "$out/reports.txt" || reports_rc=$?
XRC_LOG_IGNORE_KCSAN=1 "$TOP/userspace-test/guest/check-log.sh" -r "$out/kunit-raw.log" ||
	reports_rc=1

[ $kunit_ok = 1 ] || die "kcsan: the KUnit suites did not pass all $expected cases ($out/kunit-results.log)"
[ $fuzz_rc = 0 ] || die "kcsan: the race fuzzer failed (exit $fuzz_rc): $guest_log"
[ $reports_rc = 0 ] || die "kcsan: kernel reports (above, $out/reports.txt)"
step "kcsan: passed: $expected KUnit cases, the race fuzzer for $seconds s, no report in the series' code"
