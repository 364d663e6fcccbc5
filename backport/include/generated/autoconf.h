/* SPDX-License-Identifier: GPL-2.0 */
/*
 * backport wrapper: <generated/autoconf.h>, the target kernel's CONFIG_*.
 *
 * The features the backport compiles out on a kernel that lacks what
 * they are built on: the target's configuration says y, the backport's
 * build says n. compat/config.h (the HAVE_*) was read before this file,
 * and Kbuild.subdir makes the same choice for the object lists.
 *
 * !HAVE_LINUX_HMM_DMA_H: ODP (on-demand paging) needs hmm_dma_map_*()
 *   (linux/hmm-dma.h). Nothing the backport builds implements ODP
 *   (mlx4 has none); ib_uverbs then reports no ODP capability.
 *
 * And the symbols of the tree's Kconfig that the target's configuration
 * predates, with the tree's default (Kbuild.subdir does the same):
 *
 * CONFIG_INFINIBAND_USER_ACCESS_CORE: y when INFINIBAND_USER_ACCESS
 *   is, and ib_core then builds ib_core_uverbs.o (the udata helpers
 *   ib_uverbs and mlx4_ib call).
 */
#include_next <generated/autoconf.h>

#if !defined(CONFIG_INFINIBAND_USER_ACCESS_CORE) && \
	(defined(CONFIG_INFINIBAND_USER_ACCESS) || defined(CONFIG_INFINIBAND_USER_ACCESS_MODULE))
#define CONFIG_INFINIBAND_USER_ACCESS_CORE 1
#endif

#ifndef HAVE_LINUX_HMM_DMA_H
#undef CONFIG_INFINIBAND_ON_DEMAND_PAGING
#endif
