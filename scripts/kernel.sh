#!/bin/bash
# Build the one kernel that KUnit and the end-to-end guest share: the
# series with its KUnit suites, KASAN, lockdep and kmemleak, and what the
# guest needs ($KUNITCONFIGS), with kunit.py's x86_64 QEMU configuration.
source "$(dirname "$0")/lib.sh"

configs=()
for c in $KUNITCONFIGS; do configs+=(--kunitconfig="$TOP/$c"); done
mkdir -p "$KBUILD"
step "kernel: building $KBUILD/arch/x86/boot/bzImage (cold: about 15 minutes)"
cd "$TREE"
with_progress "$KBUILD/kernel-build.log" "$KBUILD" \
	python3 tools/testing/kunit/kunit.py build --arch=x86_64 \
	--build_dir="$KBUILD" --jobs="$(nproc)" --make_options="CC=$KCC" \
	"${configs[@]}" ||
	{ tail -40 "$KBUILD/kernel-build.log"; die "kernel build failed"; }
step "kernel: $(cd "$KBUILD" && make -s kernelrelease 2>/dev/null || echo built)"
