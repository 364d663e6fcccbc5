#!/bin/bash
# Build the one kernel that KUnit and the guests share: the series and
# the rxe series (scripts/guest-tree.sh) with their KUnit suites, KASAN,
# lockdep and kmemleak, and what the guests need ($KUNITCONFIGS), with
# kunit.py's x86_64 QEMU configuration.
source "$(dirname "$0")/lib.sh"

# make test's two lanes may both need it: one build at a time, and the
# second finds it built
exec 9> "$CACHE/kernel.lock"
flock 9

"$TOP/scripts/guest-tree.sh"

configs=()
for c in $KUNITCONFIGS; do configs+=(--kunitconfig="$TOP/$c"); done
mkdir -p "$KBUILD"

# What the build depends on: the tree (its commit, uncommitted changes,
# files git does not track: Debian's .gitignore hides every new file),
# the config fragments, the toolchain and this script; and the .config
# the last build left, so a hand edit there is built too.
# kunit.py build with nothing changed still costs a minute (olddefconfig,
# then make walking the tree), once per stage that boots the kernel.
build_key() {
	set -o pipefail
	{
		echo "$KTREE"
		git -C "$KTREE" rev-parse HEAD
		git -C "$KTREE" diff --no-ext-diff --binary HEAD
		git -C "$KTREE" ls-files -o -z | (cd "$KTREE" && xargs -0r sha256sum)
		for c in $KUNITCONFIGS; do cat "$TOP/$c"; done
		gcc --version; ld --version | sed -n 1p; as --version | sed -n 1p
		echo "$KCC"
		cat "$0"
	} | sha256sum | cut -d' ' -f1
}
config_sum() { sha256sum < "$KBUILD/.config" 2>/dev/null | cut -d' ' -f1; }
key=$(build_key) || die "cannot read the state of $KTREE"
stamp="$KBUILD/.xrc-rcv-built"
if [ -f "$KBUILD/arch/x86/boot/bzImage" ] &&
	[ "$(cat "$stamp" 2>/dev/null)" = "$key $(config_sum)" ]; then
	step "kernel: $KBUILD is built from this tree and configuration"
	exit 0
fi
rm -f "$stamp"
step "kernel: building $KBUILD/arch/x86/boot/bzImage (cold: about 15 minutes)"
cd "$KTREE"
with_progress "$KBUILD/kernel-build.log" "$KBUILD" \
	python3 tools/testing/kunit/kunit.py build --arch=x86_64 \
	--build_dir="$KBUILD" --jobs="$(nproc)" --make_options="CC=$KCC" \
	"${configs[@]}" ||
	{ tail -40 "$KBUILD/kernel-build.log"; die "kernel build failed"; }
step "kernel: $(cd "$KBUILD" && make -s kernelrelease 2>/dev/null || echo built)"
# A tree edited while it built is built again next time
[ "$(build_key)" = "$key" ] && echo "$key $(config_sum)" > "$stamp"
true
