#!/bin/bash
# Build the OFED 1.5 compatibility library (ofa-compat/) against the
# patched rdma-core build and run its host tests (no device needed).
source "$(dirname "$0")/lib.sh"
export PATH=/usr/bin:/bin:/usr/sbin:/sbin:$PATH

step "ofa-compat: build and host tests"
log="$CACHE/build/ofa-compat.log"
mkdir -p "$(dirname "$log")"
nicely make -s -C "$TOP/ofa-compat" RC_BUILD="$RC_BUILD" O="$CACHE/build/ofa-compat" check \
	> "$log" 2>&1 || { cat "$log"; die "ofa-compat tests failed ($log)"; }
grep -v '^ok ' "$log" || true
step "ofa-compat: $(grep -c '^ok ' "$log") host tests passed"
