/* SPDX-License-Identifier: GPL-2.0 */
/*
 * backport wrapper: <linux/hmm-dma.h> (probe HAVE_LINUX_HMM_DMA_H).
 *
 * Since 6.16 ODP (umem_odp.c) maps pages with hmm_dma_map_alloc() and
 * friends, which older kernels do not have (nor export). Without them
 * the backport compiles ODP out (generated/autoconf.h undefines
 * CONFIG_INFINIBAND_ON_DEMAND_PAGING, Kbuild.subdir drops umem_odp.o):
 * <rdma/ib_umem_odp.h> then declares only stubs, but its struct
 * ib_umem_odp still embeds a struct hmm_dma_map, defined here with the
 * 6.16 fields. No function is declared: nothing may call one.
 */
#ifndef _BACKPORT_LINUX_HMM_DMA_H
#define _BACKPORT_LINUX_HMM_DMA_H

#ifdef HAVE_LINUX_HMM_DMA_H
#include_next <linux/hmm-dma.h>
#else
#include <linux/dma-mapping.h>

struct hmm_dma_map {
	struct dma_iova_state state;
	unsigned long *pfn_list;
	dma_addr_t *dma_list;
	size_t dma_entry_size;
};
#endif

#endif /* _BACKPORT_LINUX_HMM_DMA_H */
