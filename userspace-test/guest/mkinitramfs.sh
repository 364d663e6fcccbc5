#!/bin/bash
# Packs the end-to-end guest's initramfs: static busybox, ./init, xrc_sim.ko
# and the static test programs (or #!/bin/sh scripts) given as arguments,
# as /tests/<name>.
#
#   mkinitramfs.sh -o OUT.cpio.gz [-k xrc_sim.ko] [-s SCRIPT] [PROG...]
#
#   -o  the gzip'd newc cpio archive to write
#   -k  the module to load (default: ../simdev/xrc_sim.ko)
#   -s  a sh script baked in as /etc/xrc-guest.sh, which /init runs
#       instead of every program in /tests
#
# Installs Debian's busybox-static if no static busybox is found.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=
ko=$here/../simdev/xrc_sim.ko
script=

usage() {
	sed -n '2,13s/^# \{0,1\}//p' "$0" >&2
	exit 2
}

die() {
	echo "mkinitramfs: $*" >&2
	exit 1
}

is_static() {
	readelf -l "$1" 2>/dev/null | grep -q 'Elf file type is EXEC\|Elf file type is DYN' &&
		! readelf -l "$1" | grep -q 'Requesting program interpreter'
}

while getopts o:k:s:h opt; do
	case $opt in
	o) out=$OPTARG ;;
	k) ko=$OPTARG ;;
	s) script=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ -n "$out" ] || usage
[ -f "$ko" ] || die "no module at $ko (build it: make -C $here/../simdev)"
[ -z "$script" ] || [ -f "$script" ] || die "no script at $script"

busybox=/bin/busybox
if ! is_static "$busybox"; then
	echo "mkinitramfs: installing busybox-static" >&2
	{ apt-get install -y -q busybox-static ||
		{ apt-get update -q && apt-get install -y -q busybox-static; }; } >&2 ||
		die "cannot install busybox-static"
	is_static "$busybox" || die "$busybox is not statically linked"
fi

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT

mkdir -p "$root"/{bin,dev,etc,proc,sys,tmp,tests,lib/modules}
cp "$busybox" "$root/bin/busybox"
for applet in $("$busybox" --list); do
	[ "$applet" = busybox ] || ln -s busybox "$root/bin/$applet"
done
install -m 0755 "$here/init" "$root/init"
install -m 0644 "$ko" "$root/lib/modules/xrc_sim.ko"
[ -z "$script" ] || install -m 0755 "$script" "$root/etc/xrc-guest.sh"

for prog in "$@"; do
	[ -f "$prog" ] || die "no program at $prog"
	# The guest has busybox and nothing else: static programs, sh scripts
	is_static "$prog" || head -c 9 "$prog" | grep -q '^#!/bin/sh' ||
		die "$prog is neither a statically linked executable nor a #!/bin/sh script"
	install -m 0755 "$prog" "$root/tests/$(basename "$prog")"
done

mkdir -p "$(dirname "$out")"
(cd "$root" && find . -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc -R 0:0 --quiet) | gzip -1 > "$out"
echo "mkinitramfs: $out ($(du -h "$out" | cut -f1))" >&2
