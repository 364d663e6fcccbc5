# /etc/xrc-guest.sh of the benchmark guest: scripts/bench.sh packs it with
# mkinitramfs.sh -s after putting xrc_bench's arguments in place of @ARGS@,
# and the guest's /init runs it with sh -e.
#
# Printk stays off the console while xrc_bench runs (its messages would
# land inside the JSON); what the kernel said meanwhile is printed after
# it, where check-log.sh sees it.  The JSON goes between markers with its
# SHA-256, so the host can tell a clean copy from a mangled one.
args='@ARGS@'

# xrc_bench records the active LSMs from securityfs
mount -t securityfs securityfs /sys/kernel/security 2> /dev/null || true

dmesg -n 1
dmesg -c > /dev/null
rc=0
# shellcheck disable=SC2086 # the arguments are words
xrc_bench --json /tmp/bench.json $args || rc=$?
dmesg -n 7
echo "xrc-bench: kernel messages during the run follow"
dmesg
echo "xrc-bench: end of kernel messages"

if [ -s /tmp/bench.json ]; then
	echo "XRC-BENCH-JSON-BEGIN"
	cat /tmp/bench.json
	echo "XRC-BENCH-JSON-END"
	echo "XRC-BENCH-JSON-SHA256=$(sha256sum /tmp/bench.json | cut -d' ' -f1)"
fi
exit $rc
