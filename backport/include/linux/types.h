/* SPDX-License-Identifier: GPL-2.0 */
/*
 * backport wrapper: <linux/types.h> (probe HAVE_STRUCT_PHYS_VEC).
 *
 * struct phys_vec, a physical range, is embedded in ib_uverbs'
 * dma-buf export state (uverbs.h). Older kernels: the same struct, and
 * a declaration of struct p2pdma_provider (of the same series), which
 * <rdma/ib_verbs.h> names in a prototype. The dma-buf export object
 * itself is compiled out there (HAVE_DMA_BUF_PHYS_VEC_TO_SGT).
 */
#ifndef _BACKPORT_LINUX_TYPES_H
#define _BACKPORT_LINUX_TYPES_H

#include_next <linux/types.h>

#if !defined(HAVE_STRUCT_PHYS_VEC) && !defined(__ASSEMBLY__)
struct phys_vec {
	phys_addr_t	paddr;
	size_t		len;
};

struct p2pdma_provider;
#endif

#endif /* _BACKPORT_LINUX_TYPES_H */
