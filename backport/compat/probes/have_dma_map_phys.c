/*
 * HAVE_DMA_MAP_PHYS: dma_map_phys()/dma_unmap_phys(). Used by:
 * <rdma/ib_verbs.h> (ib_dma_map_bvec()). Wrapper linux/dma-mapping.h:
 * dma_map_page_attrs() of the page and offset (exact for RAM).
 */
#include <linux/module.h>
#include <linux/dma-mapping.h>

static int __init probe_init(void)
{
	(void)dma_map_phys(NULL, 0, 0, DMA_TO_DEVICE, 0);
	return 0;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
