/*
 * HAVE_DMA_IOVA_STATE: the DMA IOVA API (6.17: struct dma_iova_state,
 * dma_iova_try_alloc(), dma_iova_link()...). Used by: ib_core (rw.c, the
 * bvec path of rdma_rw; <rdma/rw.h>). Wrapper linux/dma-mapping.h: the
 * state struct, and dma_iova_try_alloc() that always fails, so rw.c
 * takes its scatterlist path, as it does on a device without an IOMMU.
 */
#include <linux/module.h>
#include <linux/dma-mapping.h>

static int __init probe_init(void)
{
	struct dma_iova_state s = { 0 };

	(void)dma_iova_try_alloc(NULL, &s, 0, 0);
	return 0;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
