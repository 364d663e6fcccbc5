/* SPDX-License-Identifier: GPL-2.0 */
/*
 * backport wrapper: <linux/dma-mapping.h>.
 *
 * HAVE_DMA_IOVA_STATE: 6.17's DMA IOVA API lets rdma_rw map a bvec
 *   array into one contiguous IOVA range when an IOMMU is in use
 *   (rw.c: rdma_rw_init_iova()); when dma_iova_try_alloc() fails it
 *   maps the pages one by one, its scatterlist path, as 6.12's rw.c
 *   always did. Older kernels: the state struct, and a
 *   dma_iova_try_alloc() that always fails, the answer 6.17 gives
 *   without an IOMMU. The other functions are reached only after it
 *   succeeded: they do nothing.
 *
 * HAVE_DMA_MAP_PHYS: dma_map_phys()/dma_unmap_phys() map by
 *   physical address. Older kernels map the page and offset of that
 *   address, which is the same for RAM (ib_dma_map_bvec(), the only
 *   user, maps bio pages; MMIO would need the 7.3 tree's DMA_ATTR_MMIO).
 *
 * DMA_ATTR_REQUIRE_COHERENT (a macro: tested as such) makes a
 *   mapping fail rather than bounce through SWIOTLB or need cache
 *   maintenance; ib_umem maps user memory with it. Older kernels: 0,
 *   the attributes 6.12's ib_umem mapped with.
 */
#ifndef _BACKPORT_LINUX_DMA_MAPPING_H
#define _BACKPORT_LINUX_DMA_MAPPING_H

#include_next <linux/dma-mapping.h>

#ifndef DMA_ATTR_REQUIRE_COHERENT
#define DMA_ATTR_REQUIRE_COHERENT 0
#endif

#ifndef HAVE_DMA_IOVA_STATE
#include <linux/string.h>

struct dma_iova_state {
	dma_addr_t addr;
	u64 __size;
};

static inline bool dma_use_iova(struct dma_iova_state *state)
{
	return false;
}

static inline bool dma_iova_try_alloc(struct device *dev,
				      struct dma_iova_state *state,
				      phys_addr_t phys, size_t size)
{
	memset(state, 0, sizeof(*state));
	return false;
}

static inline void dma_iova_free(struct device *dev,
				 struct dma_iova_state *state)
{
}

static inline void dma_iova_destroy(struct device *dev,
				    struct dma_iova_state *state,
				    size_t mapped_len,
				    enum dma_data_direction dir,
				    unsigned long attrs)
{
}

static inline int dma_iova_sync(struct device *dev,
				struct dma_iova_state *state,
				size_t offset, size_t size)
{
	return -EOPNOTSUPP;
}

static inline int dma_iova_link(struct device *dev,
				struct dma_iova_state *state,
				phys_addr_t phys, size_t offset, size_t size,
				enum dma_data_direction dir,
				unsigned long attrs)
{
	return -EOPNOTSUPP;
}

static inline void dma_iova_unlink(struct device *dev,
				   struct dma_iova_state *state,
				   size_t offset, size_t size,
				   enum dma_data_direction dir,
				   unsigned long attrs)
{
}
#endif /* !HAVE_DMA_IOVA_STATE */

#ifndef HAVE_DMA_MAP_PHYS
#include <linux/pfn.h>

static inline dma_addr_t dma_map_phys(struct device *dev, phys_addr_t phys,
				      size_t size,
				      enum dma_data_direction dir,
				      unsigned long attrs)
{
	return dma_map_page_attrs(dev, pfn_to_page(PHYS_PFN(phys)),
				  offset_in_page(phys), size, dir, attrs);
}

static inline void dma_unmap_phys(struct device *dev, dma_addr_t addr,
				  size_t size, enum dma_data_direction dir,
				  unsigned long attrs)
{
	dma_unmap_page_attrs(dev, addr, size, dir, attrs);
}
#endif /* !HAVE_DMA_MAP_PHYS */

#endif /* _BACKPORT_LINUX_DMA_MAPPING_H */
