#!/bin/bash
# Build the C++ userspace driver once, out of the checkout, linked static:
# its unit tests run here with ctest, and its tools and tests run in the
# busybox guest (no shared libraries there). A static program runs on the
# host as well, so one build serves both (a second, dynamic one cost four
# CPU-minutes of a cold make test). Prints the build directory on its
# last line.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/cmake-dir.sh"

# Progress on stderr; stdout carries only the result, for $(...)
exec 3>&1 1>&2

# e2e and backport can run in two lanes of make test (TEST_PLAN), and
# both build here: one at a time (the second then finds everything built)
mkdir -p "$BUILD"
exec 9> "$BUILD/userspace.lock"
flock -n 9 || { step "userspace: waiting for the other lane's build"; flock 9; }

static="$BUILD/userspace-static"
jobs=$(nproc)

forget_foreign_cmake_build "$static" "$TOP/userspace-test"

# Compile through ccache, paths relative to the checkout, so that a fresh
# clone at the same path (CI's) rebuilds from the cache what the last one
# compiled (ccache's key holds the source's path relative to the build
# directory, which is outside the checkout: another path misses)
launcher=()
if command -v ccache > /dev/null; then
	export CCACHE_BASEDIR="$TOP"
	launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi

step "userspace: static build, unit tests here, tools and tests for the guest"
cmake -S "$TOP/userspace-test" -B "$static" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	-DXRCRCV_STATIC=ON "${launcher[@]}" > "$static.log" 2>&1 ||
	{ cat "$static.log"; die "userspace: cmake failed: $static.log"; }
nice cmake --build "$static" -j"$jobs" >> "$static.log" 2>&1 ||
	{ tail -40 "$static.log"; die "userspace: build failed: $static.log"; }
# Host test counts for the e2e summary (scripts/e2e.sh appends them)
(cd "$static" && ctest --output-on-failure) > "$static/ctest.log" 2>&1 || true
tail -4 "$static/ctest.log"
line=$(grep -E '^[0-9]+% tests passed' "$static/ctest.log" | tail -1)
[ -n "$line" ] || die "host ctest printed no result: $static/ctest.log"
failed=$(sed -E 's/.* ([0-9]+) tests failed.*/\1/' <<< "$line")
all=$(sed -E 's/.* out of ([0-9]+).*/\1/' <<< "$line")
# written whole (tmp + mv): e2e.sh reads it while the other lane may run here
printf 'host_ctest_passed=%s\nhost_ctest_failed=%s\n' "$((all - failed))" "$failed" \
	> "$static/ctest-summary.txt.tmp"
mv "$static/ctest-summary.txt.tmp" "$static/ctest-summary.txt"
[ "$failed" -eq 0 ] || die "host unit tests failed: $static/ctest.log"
echo "$static" >&3
