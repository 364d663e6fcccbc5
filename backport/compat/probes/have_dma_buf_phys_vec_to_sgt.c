/*
 * HAVE_DMA_BUF_PHYS_VEC_TO_SGT: <linux/dma-buf-mapping.h> and
 * dma_buf_phys_vec_to_sgt(), with which ib_uverbs exports a
 * device's MMIO as a dma-buf (UVERBS_OBJECT_DMABUF). Without it that
 * object is compiled out: Kbuild.subdir drops uverbs_std_types_dmabuf.o,
 * the ib_uverbs backport patch its UAPI_DEF_CHAIN.
 */
#include <linux/module.h>
#include <linux/dma-buf-mapping.h>

static int __init probe_init(void)
{
	dma_buf_phys_vec_to_sgt(NULL, NULL, NULL, 0, 0, DMA_BIDIRECTIONAL);
	return 0;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
