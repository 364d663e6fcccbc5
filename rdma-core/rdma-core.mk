# The rdma-core half (rdma-core/README.md): the libibverbs series in
# patches/rdma-core/, the OFED 1.5 compatibility library in ofa-compat/,
# and the test-only xrc_sim provider in userspace-test/provider/.
# Included by the top-level Makefile.
#
#   make rdma-core-tree       rdma-core master 691953d8d + git am of patches/rdma-core/
#                             into $(CACHE)/rdma-core-tree
#                             (RDMA_CORE_SRC=/path: tarball or checkout of it)
#   make rdma-core-export     format-patch the workbench back into patches/rdma-core/
#   make rdma-core-roundtrip  fail unless exporting gives patches/rdma-core/ again
#   make rdma-core-check      checkpatch, cmake+ninja (-Werror) build, check-build
#   make ofa-compat-test      build the compatibility library and run its host tests
#   make xrc-sim-provider     build the xrc_sim provider against the patched build
#   make rdma-core-test       all of the above that checks something (host only)
#   make rdma-core-guest      the series' kernel + xrc_sim in QEMU: ibv_devinfo,
#                             the verbs through libibverbs, the OFED-style program,
#                             the C++ e2e suites over libibverbs (their /verbs cases)

RC_MK_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
RDMA_CORE_SRC ?=
export RDMA_CORE_SRC

.PHONY: rdma-core-deps rdma-core-tree rdma-core-export rdma-core-roundtrip \
	rdma-core-build rdma-core-check ofa-compat-test xrc-sim-provider rdma-core-test \
	rdma-core-guest rdma-core-demo

rdma-core-deps:
	@$(RC_MK_DIR)/deps.sh

rdma-core-tree: rdma-core-deps
	@$(RC_MK_DIR)/tree.sh

rdma-core-export:
	@$(RC_MK_DIR)/export.sh

rdma-core-roundtrip: rdma-core-tree
	@$(RC_MK_DIR)/roundtrip.sh

rdma-core-build: rdma-core-tree
	@$(RC_MK_DIR)/build.sh

rdma-core-check: rdma-core-tree
	@$(RC_MK_DIR)/check.sh

ofa-compat-test: rdma-core-build
	@$(RC_MK_DIR)/ofa-compat-test.sh

xrc-sim-provider: rdma-core-build
	@$(RC_MK_DIR)/provider.sh

rdma-core-test: rdma-core-roundtrip rdma-core-check ofa-compat-test xrc-sim-provider
	@echo 'make rdma-core-test: all passed'

# The guest needs the kernel workbench (tree) for the series' kernel and xrc_sim
rdma-core-guest: tree ofa-compat-test xrc-sim-provider
	@$(RC_MK_DIR)/guest.sh

# make demo's second half: an OFED 1.5-style program through libibverbs
rdma-core-demo: tree ofa-compat-test xrc-sim-provider
	@$(RC_MK_DIR)/guest.sh demo
