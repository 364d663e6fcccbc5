#!/bin/bash
# Build the benchmark's kernel: the shared kernel's tree (with the rxe
# series, scripts/guest-tree.sh) and fragments, but not kunit/debug.config,
# and userspace-test/bench/kernel.config keeps the debug options off, so
# that KASAN, lockdep and kmemleak do not distort the figures. Used by
# bench.sh, bench-profile.sh and rxe/bench.sh.
#   kernel-bench.sh     prints the build directory, $BUILD/kernel-bench
source "$(dirname "$0")/lib.sh"

# Progress on stderr; stdout carries only the result, for $(...)
exec 3>&1 1>&2

kdir="$BUILD/kernel-bench"
mkdir -p "$kdir"
"$TOP/scripts/guest-tree.sh"
step "bench: building $kdir/arch/x86/boot/bzImage (no KASAN/lockdep/kmemleak; cold: about 10 minutes)"
(cd "$KTREE" && with_progress "$kdir/kernel-build.log" "$kdir" \
	nice python3 tools/testing/kunit/kunit.py build --arch=x86_64 \
	--build_dir="$kdir" --jobs="$(nproc)" \
	--kunitconfig="$TOP/kunit/.kunitconfig" \
	--kunitconfig="$TOP/kunit/boot.config" \
	--kunitconfig="$TOP/userspace-test/guest/kernel.config" \
	--kunitconfig="$TOP/rxe/guest/kernel.config" \
	--kunitconfig="$TOP/userspace-test/bench/kernel.config") ||
	{ tail -40 "$kdir/kernel-build.log"; die "bench kernel build failed"; }
for opt in KASAN PROVE_LOCKING DEBUG_KMEMLEAK; do
	! grep -q "^CONFIG_$opt=y" "$kdir/.config" ||
		die "$kdir has CONFIG_$opt: the figures would be distorted"
done
echo "$kdir" >&3
