#!/bin/bash
# Where the benchmark's microseconds go: perf record of xrc_bench in the
# benchmark guest (the kernel of `make bench`, no KASAN, lockdep or
# kmemleak), reported by perf in the guest, against /proc/kallsyms.
#
#   make bench-profile [PROFILE_ARGS='XRC_BENCH ARGS']
#                               default: --phases profile --trials 40001
#
# xrc_bench's profile phase runs the goal pair alone: REG of existing QPs,
# their UNREG, OPEN_QP of the same QPs, DESTROY_QP. Prints, for the four
# command handlers, the share of all samples spent in each (children
# included) and the tree of callees under them. perf is the host's
# (Debian's linux-perf), packed with its shared libraries into a second
# cpio archive that the kernel unpacks over the usual initramfs. Sampling is cpu-clock (TCG has no
# PMU), at the tick (the kernel has no high-resolution timers), so a
# profile needs a long run: 40,001 trials, about a minute in the guest.
# A profile, not a benchmark: it says where the time of one run went.
# Run it through make (lib.sh takes its settings from the Makefile).
# Needs Debian's linux-perf, which make deps does not install.
# Output: $BUILD/bench-profile/{guest.log,report.txt,tree.txt}
TOP="$(cd "$(dirname "$0")/.." && pwd)"
source "$TOP/scripts/lib.sh"

out="$BUILD/bench-profile"
guest="$TOP/userspace-test/guest"
args=${PROFILE_ARGS:---phases profile --trials 40001}
# perf is optional for the project (make deps does not install it)
perf=$(command -v perf) || die "no perf: apt-get install linux-perf"
[ "$(head -c 4 "$perf")" = $'\x7fELF' ] || die "$perf is not an ELF binary (a distro wrapper?)"

kdir=$("$TOP/scripts/kernel-bench.sh")
ko=$("$TOP/scripts/simdev.sh" "$kdir")
static=$("$TOP/scripts/userspace.sh")
[ -x "$static/bench/xrc_bench" ] || die "no $static/bench/xrc_bench (XRCRCV_BUILD_BENCH off?)"
mkdir -p "$out"
script="$out/guest-profile.sh"
cat > "$script" <<EOF
echo -1 > /proc/sys/kernel/perf_event_paranoid
echo 0 > /proc/sys/kernel/kptr_restrict
# TCG makes every sample interrupt slow: do not let the kernel throttle them
echo 100000 > /proc/sys/kernel/perf_event_max_sample_rate
echo 0 > /proc/sys/kernel/perf_cpu_time_max_percent
# Kernel messages would land inside the folded stacks
dmesg -n 1
perf record -q -g -e cpu-clock -F 20000 -o /tmp/perf.data -- \\
	xrc_bench $args > /tmp/bench.txt
echo XRC-PROFILE-BEGIN
perf report -i /tmp/perf.data --stdio --header-only | grep -i 'sample' || true
echo XRC-PROFILE-STACKS
# Each sample's stack, root first, folded: "count frame;frame;...;leaf"
perf script -i /tmp/perf.data -F ip,sym 2> /dev/null | awk '
	/^\$/ { if (st != "") n[st]++; st = ""; next }
	{ st = (st == "") ? \$2 : \$2 ";" st }
	END { if (st != "") n[st]++; for (k in n) print n[k], k }'
echo XRC-PROFILE-END
dmesg -n 7
EOF

step "bench-profile: packing the guest (xrc_bench $args, under perf)"
"$guest/mkinitramfs.sh" -o "$out/base.cpio.gz" -k "$ko" -s "$script" \
	"$static/bench/xrc_bench"
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/bin"
cp "$perf" "$root/bin/perf"
for lib in $(ldd "$perf" | grep -o '/[^ ]*'); do
	mkdir -p "$root$(dirname "$lib")"
	cp -L "$lib" "$root$lib"
done
(cd "$root" && find . | cpio -o -H newc -R 0:0 --quiet) | gzip -1 > "$out/perf.cpio.gz"
cat "$out/base.cpio.gz" "$out/perf.cpio.gz" > "$out/initramfs.cpio.gz"

step "bench-profile: running in the guest (log $out/guest.log)"
XRC_BUILD="$BUILD" "$guest/run-qemu.sh" -k "$kdir/arch/x86/boot/bzImage" \
	-i "$out/initramfs.cpio.gz" -l "$out/guest.log" -t 3600 -m 2G > /dev/null || true
"$guest/check-log.sh" "$out/guest.log" || die "the profile run failed: $out/guest.log"
sed -n '/^XRC-PROFILE-BEGIN/,/^XRC-PROFILE-END/p' "$out/guest.log" | tr -d '\r' > "$out/report.txt"
[ -s "$out/report.txt" ] || die "no report in $out/guest.log"
grep -a '^xrc-bench: .*profile: medians' "$out/guest.log" || true
sed -n '/^XRC-PROFILE-BEGIN/,/^XRC-PROFILE-STACKS/p' "$out/report.txt" | sed '1d;$d'
# "profile: T trials of REG, UNREG, OPEN_QP, DESTROY_QP x B": T x B of each
[ "$args" = "${args#*--phases profile }" ] || commands=$(sed -nE 's/^xrc-bench: .*profile: ([0-9]+) trials of .* x ([0-9]+)\r?$/\1 * \2/p' \
	"$out/guest.log" | head -1)
python3 "$TOP/userspace-test/bench/profile-tree.py" ${commands:+--commands $((commands))} \
	"$out/report.txt" | tee "$out/tree.txt"
