# Out-of-tree build of the patched RDMA stack against other kernels'
# headers (backport/README.md). Included by the top-level Makefile.
#
# Each kernel of backport/kernels names its input (column 4):
#   7.3  the tree of make tree, Linux 7.3.4 with patches/ (series v4):
#        6.12.118 and 6.1
#
#   make backport [KVER=...]  one kernel (default: the first of backport/kernels)
#   make backport-all         every kernel of backport/kernels
#   make backport-deps        apt-get install the pinned headers (idempotent)
#   make backport-boot [KVER=...] [ROUTE=install|deb]  boot that stock kernel under QEMU with the
#                             backported modules, xrc_sim and the tests (over
#                             ioctl and over the patched libibverbs)
#   make backport-test        backport-all, then boot every pinned kernel
#                             through the .deb (DKMS), and the last once more
#                             through make backport-install; fails on any error
#   make backport-install KVER=... [DESTDIR=...]  install the built stack
#                             into updates/ of KVER's module tree, depmod
#   make backport-uninstall KVER=... [DESTDIR=...]
#   make backport-deb [KVER=...]  the DKMS source package (.deb) of KVER's
#                             input, for the kernels of that input
#   make backport-clean       remove the backport build directories

BACKPORT_DIR   := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
BACKPORT_KVERS := $(shell sed -e 's/\#.*//' $(BACKPORT_DIR)/kernels | awk 'NF { print $$1 }')
KVER           ?= $(firstword $(BACKPORT_KVERS))

# The input is made (cheap when current): the 7.3 tree by make tree (TREE).
BACKPORT_TREE_DEP := tree
BACKPORT_ENV      := BP_TREE_73=$(TREE) BP_SERIES_73=$(SERIES_VERSION)

# The boot proof runs the suites over libibverbs too: the patched rdma-core
# and the xrc_sim provider (rdma-core/rdma-core.mk), unless BACKPORT_E2E=0
# or BACKPORT_VERBS=0 leave them out
BACKPORT_VERBS_DEP := $(if $(filter 0,$(BACKPORT_E2E) $(BACKPORT_VERBS)),,xrc-sim-provider)

.PHONY: backport backport-all backport-deps backport-boot backport-test backport-clean \
	backport-install backport-uninstall backport-deb

backport: backport-deps $(BACKPORT_TREE_DEP)
	@$(BACKPORT_ENV) $(BACKPORT_DIR)/scripts/build.sh $(KVER)

backport-all: backport-deps $(BACKPORT_TREE_DEP)
	@set -e; for k in $(BACKPORT_KVERS); do $(BACKPORT_ENV) $(BACKPORT_DIR)/scripts/build.sh $$k; done

backport-deps:
	@$(BACKPORT_DIR)/scripts/deps.sh

backport-boot: backport-deps $(BACKPORT_TREE_DEP) $(BACKPORT_VERBS_DEP)
	@$(BACKPORT_ENV) $(BACKPORT_DIR)/scripts/build.sh $(KVER)
	@$(BACKPORT_ENV) $(BACKPORT_DIR)/scripts/boot-test.sh $(KVER) $(or $(ROUTE),install)

backport-test: backport-all $(BACKPORT_VERBS_DEP)
	@$(BACKPORT_ENV) $(BACKPORT_DIR)/scripts/test.sh
	@echo 'make backport-test: all passed'

backport-install: backport
	@$(BACKPORT_ENV) $(BACKPORT_DIR)/scripts/install.sh $(KVER) $(DESTDIR)

backport-uninstall:
	@$(BACKPORT_ENV) $(BACKPORT_DIR)/scripts/install.sh -u $(KVER) $(DESTDIR)

backport-deb: $(BACKPORT_TREE_DEP)
	@$(BACKPORT_ENV) $(BACKPORT_DIR)/scripts/deb.sh $(KVER) >/dev/null

backport-clean:
	rm -rf $(addprefix $(CACHE)/build/backport-,$(BACKPORT_KVERS) guest deb dkms)
