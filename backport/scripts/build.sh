#!/bin/bash
# build.sh KVER: the backported stack and xrc_sim for one target kernel,
# from that kernel's input (backport/kernels: 7.3; lib.sh use_input).
#   prepare.sh (the source tree) -> its build-modules.sh (probes, make)
#   -> xrc_sim against it
# Outputs: backport-<KVER>/**/*.ko, Module.symvers, ext/xrc_sim/xrc_sim.ko.
#
# This is the project's own build, so warnings fail it (BACKPORT_WERROR=0
# to not); the DKMS package builds the same source without -Werror.
source "$(dirname "$0")/lib.sh"

kver=${1:?usage: build.sh KVER}
use_input "$kver"
kdir=$(kdir_of "$kver")
B=$(builddir_of "$kver")
want=$(kernel_field "$kver" 2)
have=$(installed_version "$want")
[ "$have" = "${want#*=}" ] ||
	die "${want%%=*} ${have:-is not installed} (want ${want#*=}): make backport-deps"

start=$(date +%s)
step "backport $kver: sources of input $BP_INPUT from $TREE ($(git -C "$TREE" log -1 --format=%h 2>/dev/null || echo '?'))"
"$BP/scripts/prepare.sh" "$B"
step "backport $kver: $B/build-modules.sh $kdir"
BACKPORT_WERROR=${BACKPORT_WERROR:-1} "$B/build-modules.sh" "$kdir"

step "backport $kver: xrc_sim against the backport"
nice make -C "$kdir" M="$B/ext" -j"$JOBS" \
	KBUILD_EXTRA_SYMBOLS="$B/Module.symvers" modules

step "backport $kver: done in $(( $(date +%s) - start )) s:"
(cd "$B" && find . -name '*.ko' | sort | sed 's/^/    /')
