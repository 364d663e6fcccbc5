#!/bin/bash
# The rdma-core series' checks:
#  1. checkpatch on each patch, with the options rdma-core's CI uses
#     (buildlib/azp-checkpatch), from the kernel source in $CACHE/src/$BASE_PKG
#     or /usr/src;
#  2. the whole build (-Werror, IOCTL_MODE=both, static, pyverbs, man pages);
#  3. buildlib/check-build on it: library names against symbol versions,
#     the IBVERBS_PRIVATE version, published and installed headers
#     (C and C++), static libraries;
#  4. the series' own promises: the new symbols in IBVERBS_1.18, the man
#     pages built, pyverbs importing the new methods.
source "$(dirname "$0")/lib.sh"
export PATH=/usr/bin:/bin:/usr/sbin:/sbin:$PATH

status=0

# 1. checkpatch
ckp_src=
for d in "$CACHE/src/$BASE_PKG" /usr/src/linux-source-*; do
	[ -f "$d/scripts/checkpatch.pl" ] && { ckp_src=$d; break; }
done
if [ -n "$ckp_src" ]; then
	ckp=$(mktemp -d)
	trap 'rm -rf "$ckp"' EXIT
	cp "$ckp_src/scripts/checkpatch.pl" "$ckp_src/scripts/spelling.txt" "$ckp/"
	ln -s "$RC_TREE/buildlib/const_structs.checkpatch" "$ckp/"
	n=0
	# Findings are compared as the kernel series' are (scripts/findings.py),
	# with rdma-core/check-allow's accepted ones and their reasons.
	# checkpatch exits 1 on any finding, so a failure with no finding
	# means it did not run.
	for p in $(rc_patches); do
		n=$((n + 1))
		log="$ckp/$(basename "$p").log"
		rc=0
		(cd "$ckp" && perl ./checkpatch.pl --no-tree --show-types --ignore \
			PREFER_KERNEL_TYPES,FILE_PATH_CHANGES,EXECUTE_PERMISSIONS,USE_NEGATIVE_ERRNO,CONST_STRUCT \
			--emacs --mailback --quiet --no-summary "$p") > "$log" 2>&1 || rc=$?
		sed -nE 's/^([^:]*):[0-9]+: (WARNING|ERROR|CHECK):/\1\t\2\t/p' "$log" > "$log.found"
		if [ $rc -ne 0 ] && [ ! -s "$log.found" ]; then
			echo "checkpatch did not run cleanly on $p:"
			cat "$log"
			status=1
		elif ! python3 "$TOP/scripts/findings.py" new /dev/null "$log.found" \
			"$RC_DIR/check-allow"; then
			cat "$log"
			status=1
		fi
	done
	[ $status -eq 0 ] && step "rdma-core check: checkpatch clean on all $n patches (but what rdma-core/check-allow accepts)"
else
	step "rdma-core check: no kernel scripts/checkpatch.pl found: checkpatch skipped (run make tree first)"
fi

# 2. build
"$RC_DIR/build.sh"

# 3. check-build (its git lookup of the source does not follow worktrees)
step "rdma-core check: buildlib/check-build"
(cd "$RC_BUILD" && nicely python3 "$RC_TREE/buildlib/check-build" --src "$RC_TREE") \
	> "$RC_BUILD/check-build.log" 2>&1 ||
	{ tail -30 "$RC_BUILD/check-build.log"; die "check-build failed: $RC_BUILD/check-build.log"; }
step "rdma-core check: check-build passed"

# 4. what the registration series promises (not another series' check)
if [ "$RC_PATCHES" != "$TOP/patches/rdma-core" ]; then
	[ $status -eq 0 ] || die "checkpatch found problems (above)"
	step "rdma-core check: all passed ($(basename "$RC_PATCHES"))"
	exit 0
fi
lib=$(readlink -f "$RC_BUILD/lib/libibverbs.so.1")
[ "$(basename "$lib")" = "libibverbs.so.1.18.$RC_VERSION" ] ||
	die "libibverbs is $(basename "$lib"), not libibverbs.so.1.18.$RC_VERSION"
syms=$(readelf --wide --dyn-syms "$lib")
for sym in ibv_reg_xrc_rcv_qp ibv_unreg_xrc_rcv_qp ibv_modify_xrc_rcv_qp ibv_query_xrc_rcv_qp; do
	grep -q " $sym@@IBVERBS_1.18\$" <<< "$syms" ||
		die "$sym is not exported as $sym@@IBVERBS_1.18"
done
for page in ibv_reg_xrc_rcv_qp ibv_unreg_xrc_rcv_qp ibv_modify_xrc_rcv_qp ibv_query_xrc_rcv_qp; do
	[ -n "$(find "$RC_BUILD" -name "$page.3*")" ] || die "man page $page.3 was not built"
done
(cd "$RC_BUILD/python" && PYTHONPATH=. python3 -c '
import pyverbs.xrcd as x, pyverbs.libibverbs_enums as e
assert e._IBV_XRC_RCV_QPN_NEW == 0xffffffff and e._IBV_XRC_QP_EVENT_FLAG == 0x80000000
for m in ("reg_rcv_qp", "unreg_rcv_qp", "modify_rcv_qp", "query_rcv_qp"):
    assert hasattr(x.XRCD, m), m
') || die "pyverbs lacks the XRC receive QP bindings"
step "rdma-core check: IBVERBS_1.18 exports the 4 verbs; man pages and pyverbs bindings built"

[ $status -eq 0 ] || die "checkpatch found problems (above)"
step "rdma-core check: all passed"
