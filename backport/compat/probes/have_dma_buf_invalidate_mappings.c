/*
 * HAVE_DMA_BUF_INVALIDATE_MAPPINGS: dma_buf_move_notify() and the
 * importer's move_notify callback renamed dma_buf_invalidate_mappings()
 * and invalidate_mappings. Used by: ib_core (umem_dmabuf.c),
 * ib_uverbs (uverbs.h). Wrapper linux/dma-buf.h (the function); patch
 * 0001 (the callback, and 6.12's callback for pinned importers, which
 * older kernels require of every dynamic importer).
 */
#include <linux/module.h>
#include <linux/dma-buf.h>

static int __init probe_init(void)
{
	dma_buf_invalidate_mappings(NULL);
	return 0;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
