# The one front door. `make help` lists the targets.
#
# Everything large (the kernel tree, build directories) lives in CACHE,
# outside this checkout, so a warm machine rebuilds incrementally.

CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/xrc-rcv

# The base the series applies to: Linux 7.3.4, as Debian's source package
# of it in trixie-backports, pinned by version and sha256 and fetched with
# an apt configuration of its own (scripts/fetch-deb.sh). The base commit
# is made reproducibly from its tarball (scripts/tree.sh); the cover
# letter's base-commit: line names it.
BASE_PKG     := linux-source-7.3
BASE_VERSION := 7.3.4-1~bpo13+1
BASE_SUITE   := trixie-backports
BASE_SHA256  := 703e369ddd4cce971452f5a593ee55df3a5c10c83caf0fa0df039633ed181ee3
BASE_COMMIT  := df9ca4d4be400ecd8de119cbffb8b898503961fe

# The version of the series in patches/, for its subjects: [PATCH v4 n/m]
SERIES_VERSION := 4

# KERNEL_SRC=/path/to/your/linux applies the series onto that checkout's
# HEAD instead, in a worktree of it in $(CACHE)/tree-<its name>.
KERNEL_SRC ?=
TREE ?= $(if $(KERNEL_SRC),$(CACHE)/tree-$(notdir $(abspath $(KERNEL_SRC))),$(CACHE)/tree)

# One kernel build serves KUnit and the guests: patches/ and patches/rxe/
# (scripts/guest-tree.sh).
KBUILD := $(CACHE)/build/kernel
KUNIT_SUITES := *xrc*
KUNITCONFIGS := kunit/.kunitconfig kunit/debug.config kunit/boot.config \
	$(wildcard userspace-test/guest/kernel.config rxe/guest/kernel.config)

export CACHE BASE_PKG BASE_VERSION BASE_SUITE BASE_SHA256 BASE_COMMIT SERIES_VERSION KERNEL_SRC TREE KBUILD

# Kernel builds compile through ccache (scripts/lib.sh: make CC="$KCC");
# its objects live in the cache too, for every script that uses it
export CCACHE_DIR := $(CACHE)/ccache
# ccache in depend mode: less CPU on a miss (scripts/lib.sh says how much)
export CCACHE_DEPEND := 1
export KUNITCONFIGS KUNIT_SUITES EXTRA_DEPS BENCH_ARGS BENCH_TIMEOUT BENCH_LSM

# make test runs these stages, each whatever became of the ones before,
# and ends with a table of them (scripts/test.sh, summary.sh). A stage is
# a name scripts/test.sh knows or any target of this Makefile. "/" ends a
# phase; "+" starts a second lane beside the first, because one core is
# idle while a guest runs and the two cores would not fit the stages one
# after another into the budget. The debug kernel's lane goes first: the
# other stages need nothing from it but rxe-guest, which boots that kernel
# last (scripts/kernel.sh builds it once for both lanes, under a lock) and
# builds rdma-core with the rxe provider's series on top of the
# workbench rdma-core-test made; coccinelle and roundtrip, which need
# nothing, end the first lane so that the two lanes take about as long
# (Documentation/time.md).
# TEST_STAGES="a b" runs a and b one
# after the other. The backport's own test (make backport-test: the
# stack built for two more kernels, a DKMS package, the stock 6.12 and
# 6.1 kernels booted) is not in the plan: its CPU time would take a cold run past
# the time budget on two cores (Documentation/time.md). CI runs it after
# make test (.ci/run); TEST_PLAN="... backport" puts it back in.
ifneq ($(origin TEST_STAGES),undefined)
TEST_PLAN := $(TEST_STAGES)
endif
TEST_PLAN ?= tree abi / kunit e2e bench-tiny rdma-core-guest coccinelle roundtrip \
	+ rdma-core-test check rxe-guest
TEST_STAGES ?= $(filter-out / +,$(TEST_PLAN))

.PHONY: help deps tree export abi roundtrip check coccinelle kunit kcsan e2e stress demo vm-run bench bench-tiny bench-profile handle-sizes test summary docs docs-check clean-cache

help:
	@echo 'make deps       install what is needed (Debian packages; idempotent)'
	@echo 'make tree       base tree + git am of patches/ into $$CACHE/tree'
	@echo '                (KERNEL_SRC=/path: onto your own kernel checkout)'
	@echo 'make export     format-patch the workbench back into patches/ (and its'
	@echo '                first three patches, the mainline fixes, into patches/fixes/)'
	@echo 'make abi        Documentation/abi.md is the reference copy of the contract,'
	@echo '                byte for byte (../shared/abi.md; skipped when absent)'
	@echo 'make roundtrip  fail unless exporting the workbench gives patches/'
	@echo 'make check      per-patch build (W=1, sparse), checkpatch, kernel-doc,'
	@echo '                then make coccinelle'
	@echo 'make coccinelle Coccinelle on the files the series touches (head vs base)'
	@echo 'make kunit      the KUnit suites under QEMU (KASAN, lockdep, kmemleak)'
	@echo 'make e2e        C++ suites in a QEMU guest: patched kernel + simulated device'
	@echo '                (with a 90 s race fuzzer run and the fault sweep)'
	@echo 'make stress SECONDS=N  the race fuzzer alone in the guest for N s (600)'
	@echo 'make kcsan      KUnit suites and the race fuzzer on a KCSAN kernel'
	@echo '                (KCSAN_SECONDS=120); not in make test: a second kernel'
	@echo 'make demo       the life of a shared receive QP, step by step, in the guest,'
	@echo '                then an OFED 1.5-style program sharing one (libibverbs),'
	@echo '                then messages through one over soft-RoCE (make rxe-demo)'
	@echo 'make vm-run PROG=path [ARGS="..."]  your own static program in that guest'
	@echo 'make bench      REG/UNREG against the mainline commands in the guest:'
	@echo '                ratios, JSON, the goal table and growth.svg; then'
	@echo '                REG+UNREG through libibverbs against the OFED emulation'
	@echo '                (BENCH_ARGS="--trials 51" to tune, BENCH_MEM=4G guest;'
	@echo '                BENCH_LSM=selinux: the same with SELinux labelling every handle)'
	@echo '                then make rxe-bench: XRC against RC on soft-RoCE, the MPI shape'"'"'s memory'
	@echo 'make bench-tiny tiny sizes on the debug kernel: every bench path runs'
	@echo 'make bench-profile  perf in the bench guest: where REG, UNREG, OPEN_QP'
	@echo '                and DESTROY_QP spend their time (PROFILE_ARGS: xrc_bench'"'"'s)'
	@echo 'make handle-sizes  the structures behind an OPEN_QP handle and a registration'
	@echo '                (pahole), and a slim OPEN_QP handle in the uobject model'
	@echo 'make test       every stage below, then a table (result, counts, time)'
	@echo '                and "N passed, M failed"; fails if any stage failed:'
	@echo '                $(TEST_PLAN)'
	@echo '                ("/" ends a phase; "+" runs a second lane beside the first)'
	@echo '                (tree = make tree, with make deps; check = make check'
	@echo '                without Coccinelle)'
	@echo '                Not in it, to fit a cold run in its budget: make backport-test,'
	@echo '                which CI runs after it (TEST_PLAN="... backport" adds it)'
	@echo 'make summary    that table again, for the last make test'
	@echo 'make rdma-core-test  the rdma-core series: round trip, build, checks;'
	@echo '                the OFED 1.5 compatibility library'"'"'s tests (host only)'
	@echo 'make rdma-core-guest libibverbs in the guest: the verbs, an OFED-style'
	@echo '                program, the end-to-end suites over libibverbs'
	@echo 'make rxe-test   XRC in rdma_rxe: its kernel series (patches/rxe/) and the rxe'
	@echo '                provider'"'"'s (patches/rdma-core-rxe/): round trips, per-patch checks'
	@echo 'make rxe-guest  XRC messages over rxe in the guest: the registration verbs with'
	@echo '                data, perftest -c XRC, ibv_xsrq_pingpong (rxe/README.md)'
	@echo 'make backport-test  the stack out of tree for older kernels, its DKMS'
	@echo '                package, a boot of a stock kernel with it (backport/README.md)'
	@echo 'make docs RUN=dir  commit a run (dir: $$CACHE/build/bench, bench-tiny or'
	@echo '                summary; RUN_KERNEL=release if not found) under'
	@echo '                Documentation/runs/ and regenerate the figures'
	@echo '                of Documentation/performance.md and testing.md from the runs'
	@echo 'make docs-check fail if those pages differ from the committed runs'
	@echo '                (and run scripts/docs.py'"'"'s unit tests)'
	@echo
	@echo "CACHE=$(CACHE)"

deps:
	@scripts/deps.sh

tree: deps
	@scripts/tree.sh

export:
	@scripts/export.py $(TREE) xrc-rcv/base xrc-rcv/series $(BASE_COMMIT)
	@scripts/export-fixes.sh $(TREE)

roundtrip: tree
	@scripts/roundtrip.sh

abi:
	@scripts/abi-check.sh

check: tree
	@scripts/check-series.sh
	@scripts/coccicheck.sh

coccinelle: tree
	@scripts/coccicheck.sh

kunit: tree
	@scripts/kunit.sh

e2e: tree
	@scripts/e2e.sh

kcsan: tree
	@scripts/kcsan.sh

# The race fuzzer for SECONDS (bash's own $$SECONDS counts time: renamed)
stress: tree
	@STRESS_SECONDS="$(SECONDS)" scripts/stress.sh

demo: tree
	@scripts/demo.sh
	@$(MAKE) --no-print-directory rdma-core-demo
	@$(MAKE) --no-print-directory rxe-demo

vm-run: tree
	@scripts/vm-run.sh "$(PROG)" $(ARGS)

# The full bench also times the new verbs through libibverbs (rdma-core),
# and XRC against RC on soft-RoCE with the MPI shape's memory (rxe-bench)
bench: tree ofa-compat-test xrc-sim-provider
	@scripts/bench.sh
	@$(MAKE) --no-print-directory rxe-bench

bench-tiny: tree
	@scripts/bench.sh tiny

bench-profile: tree
	@PROFILE_ARGS="$(PROFILE_ARGS)" scripts/bench-profile.sh

handle-sizes: tree
	@scripts/handle-sizes.sh

test:
	@MAKE="$(MAKE)" scripts/test.sh $(TEST_PLAN)

summary:
	@scripts/summary.sh $(filter-out / +,$(TEST_STAGES))

# The figures of Documentation/ come from committed runs (scripts/docs.py).
# RUN=dir adds one first: $(CACHE)/build/bench or bench-tiny (results.json),
# or $(CACHE)/build/summary (make test's stage files). The kernel release
# is the bench's, else the debug build's; RUN_KERNEL=release overrides.
# RUN_LABEL=word tells apart two runs of one kernel release and day.
docs:
	@scripts/docs.py $(if $(RUN),add "$(RUN)" --plan "$(TEST_STAGES)" \
		--kernel-release-file "$(KBUILD)/include/config/kernel.release" \
		$(if $(RUN_KERNEL),--kernel "$(RUN_KERNEL)") $(if $(RUN_LABEL),--label "$(RUN_LABEL)"),generate)

docs-check:
	@scripts/docs.py check
	@python3 -m unittest discover -s scripts -p 'test_docs.py'

-include backport/backport.mk
-include rdma-core/rdma-core.mk
-include rxe/rxe.mk

clean-cache:
	rm -rf $(CACHE)
