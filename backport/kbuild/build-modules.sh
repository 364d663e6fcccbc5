#!/bin/bash
# build-modules.sh KDIR: build the backported stack in this source tree
# against the kernel headers in KDIR. The one build script: make backport
# runs it in $CACHE/build/backport-<kver>/, and DKMS runs it in its own
# copy of the package's source (dkms.conf: MAKE).
#
#   1. compat/probe.sh KDIR       -> compat/config.h (HAVE_*)
#   2. make -C KDIR M=$PWD        the modules listed in ./modules, and
#                                 a dummy of each in ./unsupported
#
# BACKPORT_WERROR=1 turns warnings into errors (make test sets it; a
# user's kernel may warn where ours did not, and should still build).
set -euo pipefail

kdir=${1:?usage: build-modules.sh KDIR}
cd "$(dirname "$0")"
./compat/probe.sh "$kdir"
# ./modules is backport/modules without its comments (prepare.sh)
mods=$(awk '{ printf "%s.o ", $1 }' modules)
dirs=$(awk '!seen[$2]++ { printf "%s/ ", $2 }' modules)
echo "  MAKE    $mods"
nice make -C "$kdir" M="$PWD" -j"${JOBS:-2}" \
	BACKPORT_MODULES="$mods" BACKPORT_DIRS="$dirs" \
	BACKPORT_WERROR="${BACKPORT_WERROR:-0}" modules
for m in $mods; do
	[ -n "$(find drivers -name "${m%.o}.ko")" ] || { echo "build-modules.sh: no ${m%.o}.ko" >&2; exit 1; }
done
while read -r n; do
	[ -f "dummy/$n.ko" ] || { echo "build-modules.sh: no dummy/$n.ko" >&2; exit 1; }
done < unsupported
