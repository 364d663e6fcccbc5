# XRC in rdma_rxe (rxe/README.md): the kernel series in patches/rxe/ and
# the rxe provider's series in patches/rdma-core-rxe/, each with its own
# workbench, round trip and checks. Included by the top-level Makefile.
#
#   make rxe-tree       base + git am of patches/rxe/ into $(CACHE)/tree-rxe, and
#                       rdma-core master + patches/rdma-core-rxe/ into
#                       $(CACHE)/rdma-core-tree-rxe
#   make rxe-export     format-patch both workbenches back into patches/
#   make rxe-roundtrip  fail unless exporting gives both series again; the
#                       kernel series must also apply on top of patches/
#   make rxe-check      each kernel patch on its own: W=1, sparse, checkpatch
#                       --strict, kernel-doc; the provider series: checkpatch,
#                       the -Werror build, check-build
#   make rxe-test       all of the above
#   make rxe-guest      the guest kernel (patches/ and patches/rxe/) and rdma-core with
#                       both its series: rxe on a dummy netdev and on a veth pair across
#                       two namespaces, XRC messages through the registration verbs,
#                       perftest -c XRC, rdma-core's XRC tests (rxe/guest.sh)
#   make rxe-demo       make demo's last part: messages through one shared receive QP
#   make rxe-churn      the race fuzzer with traffic alone, longer than in rxe-guest
#                       (CHURN_EPOCHS, default 12)
#   make rxe-pyverbs    rdma-core's whole Python test suite on rxe0, not only -k xrc
#   make rxe-bench      on the bench kernel: XRC against RC (perftest ib_send_bw, 64 B
#                       and 2 KiB) and the MPI shape's memory (part of make bench)

RXE_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
RXE_KERNEL_ENV = TREE=$(CACHE)/tree-rxe SERIES_DIR=$(CURDIR)/patches/rxe \
	SERIES_REF=xrc-rxe/series EXPORT_PATCHES=$(CURDIR)/patches/rxe \
	EXPORT_PREFIX="PATCH for-next" SERIES_VERSION=
RXE_RC_ENV = RC_PATCHES=$(CURDIR)/patches/rdma-core-rxe RC_SERIES_REF=rdma-core/rxe \
	RC_TREE=$(CACHE)/rdma-core-tree-rxe RC_BUILD=$(CACHE)/build/rdma-core-rxe \
	RC_ROUNDTRIP=$(CACHE)/rdma-core-roundtrip-rxe

.PHONY: rxe-tree rxe-export rxe-roundtrip rxe-check rxe-test rxe-guest rxe-demo rxe-churn rxe-pyverbs rxe-bench

rxe-tree: deps rdma-core-deps
	@$(RXE_KERNEL_ENV) scripts/tree.sh
	@$(RXE_RC_ENV) rdma-core/tree.sh

rxe-export:
	@$(RXE_KERNEL_ENV) scripts/export.py $(CACHE)/tree-rxe xrc-rcv/base xrc-rxe/series $(BASE_COMMIT)
	@$(RXE_RC_ENV) rdma-core/export.sh

rxe-roundtrip: rxe-tree
	@$(RXE_KERNEL_ENV) ROUNDTRIP=$(CACHE)/roundtrip-rxe scripts/roundtrip.sh
	@$(RXE_RC_ENV) rdma-core/roundtrip.sh

rxe-check: rxe-tree
	@$(RXE_KERNEL_ENV) CHECK_TREE=$(CACHE)/check-rxe CHECK_OUT=$(CACHE)/build/check-rxe \
		CHECK_LOGS=$(CACHE)/build/check-rxe-logs CHECK_CONFIG=$(CURDIR)/$(RXE_DIR)/check.config \
		scripts/check-series.sh
	@$(RXE_RC_ENV) rdma-core/check.sh

rxe-test: rxe-roundtrip rxe-check
	@echo 'make rxe-test: all passed'

# The guest also packs the series' own rdma-core build (its pyverbs, and
# libraries perftest links that the guest's partial build skips) and the
# OFED 1.5 compatibility library's example
rxe-guest: tree rdma-core-build ofa-compat-test
	@$(RXE_DIR)/guest.sh

rxe-demo: tree rdma-core-build ofa-compat-test
	@$(RXE_DIR)/guest.sh demo

rxe-churn: tree rdma-core-build ofa-compat-test
	@RXE_CHURN_EPOCHS=$(or $(CHURN_EPOCHS),12) $(RXE_DIR)/guest.sh churn

rxe-pyverbs: tree rdma-core-build ofa-compat-test
	@$(RXE_DIR)/guest.sh pyverbs

rxe-bench: tree rdma-core-build ofa-compat-test
	@$(RXE_DIR)/guest.sh bench
