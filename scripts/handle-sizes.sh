#!/bin/bash
# Where an OPEN_QP handle's bytes go, against a registration's, and what
# a slim OPEN_QP handle in the uobject model would weigh.
#
# Compiles three objects of the series' tree with -g, in the bench
# kernel's configuration (no debug options), into $BUILD/handle-sizes,
# and reads the structures' sizes with pahole. The bench's JSON ("slab")
# gives the caches each allocation lands in, measured; this gives the
# structures behind them, and the bound.
#   handle-sizes.sh     prints a markdown table (make handle-sizes)
source "$(dirname "$0")/lib.sh"

command -v pahole > /dev/null || die "pahole (Debian package dwarves) is needed: make deps"
kdir=$("$TOP/scripts/kernel-bench.sh")
out="$BUILD/handle-sizes"
mkdir -p "$out"
cp "$kdir/.config" "$out/.config"
objs="drivers/infiniband/core/uverbs_std_types_qp.o drivers/infiniband/core/xrc_rcv.o"
step "handle-sizes: compiling $objs with -g in $out"
(cd "$TREE" && make -s O="$out" olddefconfig &&
	nice make -s O="$out" -j"$(nproc)" CC="$KCC" KCFLAGS=-g $objs) > "$out/build.log" 2>&1 ||
	{ tail -20 "$out/build.log"; die "handle-sizes: build failed"; }

# pahole -C of each structure, from whichever object has it (pahole
# prints nothing, and succeeds, for a structure an object lacks)
for s in ib_uobject ib_uevent_object ib_uqp_object ib_qp ib_qp_security ib_xrc_rcv_reg ib_xrc_rcv_qp; do
	for o in $objs; do
		text=$(pahole -C "$s" "$out/$o" 2> /dev/null)
		[ -z "$text" ] || { echo "$text"; break; }
	done
done > "$out/pahole.txt"
python3 "$TOP/scripts/handle-sizes.py" "$out/pahole.txt"
