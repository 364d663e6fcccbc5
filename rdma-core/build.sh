#!/bin/bash
# Build the rdma-core workbench with cmake + ninja into $RC_BUILD, the
# configuration rdma-core's CI uses (IOCTL_MODE=both, -Werror, static
# libraries), with pyverbs and the man pages. Incremental when warm.
source "$(dirname "$0")/lib.sh"

# Debian's python3 and cython3: a python first in PATH (pyenv, a venv)
# may lack cython or pkg_resources.
export PATH=/usr/bin:/bin:/usr/sbin:/sbin:$PATH

for tool in cmake ninja pandoc rst2man cython3 pkg-config; do
	command -v "$tool" >/dev/null ||
		die "$tool missing: run 'make rdma-core-deps' (or see rdma-core/deps.sh)"
done

forget_foreign_cmake_build "$RC_BUILD" "$RC_TREE"
if [ ! -f "$RC_BUILD/build.ninja" ]; then
	step "rdma-core: cmake in $RC_BUILD"
	(cd "$RC_BUILD" && nicely cmake -GNinja "$RC_TREE" \
		-DIOCTL_MODE=both -DENABLE_WERROR=1 -DENABLE_STATIC="${RC_STATIC:-1}" \
		-DPYTHON_EXECUTABLE=/usr/bin/python3) > "$RC_BUILD/cmake.log" 2>&1 ||
		{ tail -30 "$RC_BUILD/cmake.log"; die "cmake failed: $RC_BUILD/cmake.log"; }
	grep -q "cython NOT found" "$RC_BUILD/cmake.log" && die "cmake did not find cython: pyverbs would not be built"
fi
step "rdma-core: ninja -j$JOBS in $RC_BUILD"
(cd "$RC_BUILD" && nicely ninja -j"$JOBS") > "$RC_BUILD/ninja.log" 2>&1 ||
	{ grep -A15 FAILED "$RC_BUILD/ninja.log" | head -60; die "rdma-core build failed: $RC_BUILD/ninja.log"; }
step "rdma-core: built ($(grep -c '^\[' "$RC_BUILD/ninja.log") steps, no warnings with -Werror)"
