#!/bin/bash
# build.sh KVER: the backported stack and xrc_sim for one target kernel.
#   prepare.sh (sources) -> compat/probe.sh (config.h) -> make modules
# Outputs: backport-<KVER>/**/*.ko, Module.symvers, ext/xrc_sim/xrc_sim.ko.
source "$(dirname "$0")/lib.sh"

kver=${1:?usage: build.sh KVER}
kdir=$(kdir_of "$kver")
B=$(builddir_of "$kver")
want=$(kernel_field "$kver" 2)
have=$(installed_version "$want")
[ "$have" = "${want#*=}" ] ||
	die "${want%%=*} ${have:-is not installed} (want ${want#*=}): make backport-deps"

start=$(date +%s)
step "backport $kver: sources from $TREE ($(git -C "$TREE" log -1 --format=%h 2>/dev/null || echo '?'))"
"$BP/scripts/prepare.sh" "$kver"
"$BP/compat/probe.sh" "$kver"

mods=$(sed -e 's/#.*//' "$BP/modules" | awk 'NF { printf "%s.o ", $1 }')
dirs=$(sed -e 's/#.*//' "$BP/modules" | awk 'NF && !seen[$2]++ { printf "%s/ ", $2 }')
step "backport $kver: make -C $kdir M=$B ($mods)"
nice make -C "$kdir" M="$B" -j"$JOBS" \
	BACKPORT_MODULES="$mods" BACKPORT_DIRS="$dirs" modules

step "backport $kver: xrc_sim against the backport"
nice make -C "$kdir" M="$B/ext" -j"$JOBS" \
	KBUILD_EXTRA_SYMBOLS="$B/Module.symvers" modules

for m in $mods; do
	ko=$(find "$B/drivers" -name "${m%.o}.ko")
	[ -n "$ko" ] || die "no ${m%.o}.ko"
done
step "backport $kver: done in $(( $(date +%s) - start )) s:"
(cd "$B" && find . -name '*.ko' | sort | sed 's/^/    /')
