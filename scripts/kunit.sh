#!/bin/bash
# Build the kernel with the KUnit suites and the debugging options, run the
# suites with kunit.py, then boot once more to let kmemleak scan what the
# suites left behind. Any failed or crashed case, and any KASAN, lockdep,
# kmemleak or WARN report, fails.
source "$(dirname "$0")/lib.sh"

"$TOP/scripts/kernel.sh"

step "kunit: running the suites under QEMU"
(cd "$KTREE" && kunit_py exec --arch=x86_64 --build_dir="$KBUILD" \
	--timeout=1200 --qemu_args="-smp 2" --raw_output=all "$KUNIT_SUITES" > "$KBUILD/kunit-raw.log" 2>&1) || true
kunit_py parse < "$KBUILD/kunit-raw.log" | tee "$KBUILD/kunit-results.log" | grep -vE '^\[..:..:..\] \[PASSED\]' || true

step "kunit: booting again for a kmemleak scan after the suites"
"$TOP/scripts/kmemleak-boot.sh" "$KBUILD" > "$KBUILD/kunit-kmemleak.log" 2>&1 || true
kunit_py parse < "$KBUILD/kunit-kmemleak.log" > "$KBUILD/kunit-kmemleak-results.log" 2>&1 || true

for log in "$KBUILD/kunit-raw.log" "$KBUILD/kunit-kmemleak.log"; do
	"$TOP/userspace-test/guest/check-log.sh" -r "$log" || exit 1
done
grep -q 'kmemleak-scan-done' "$KBUILD/kunit-kmemleak.log" || die "the kmemleak boot did not finish"

# Every case of every suite ran and passed, in both boots: a suite that
# is not built, or a case that silently went missing, fails too.
expected=$(kunit_expected_cases)
for results in "$KBUILD/kunit-results.log" "$KBUILD/kunit-kmemleak-results.log"; do
	line=$(grep -oE 'Testing complete\. Ran [0-9]+ tests: passed: [0-9]+$' "$results" || true)
	[ -n "$line" ] || die "KUnit: failed or crashed cases in $results (see above)"
	ran=$(sed -E 's/.*Ran ([0-9]+) tests.*/\1/' <<< "$line")
	[ "$ran" -eq "$expected" ] ||
		die "KUnit: $results ran $ran cases, kunit/expected-cases says $expected"
done
summary_set boots=2 expected="$expected"
step "kunit: $expected cases passed in both boots (suites, then kmemleak), no kernel reports"
