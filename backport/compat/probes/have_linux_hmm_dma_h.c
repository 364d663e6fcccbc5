/*
 * HAVE_LINUX_HMM_DMA_H: <linux/hmm-dma.h> (6.16), struct hmm_dma_map and
 * hmm_dma_map_alloc(), on which ODP (umem_odp.c) is built in the 7.3 tree.
 * Used by: ib_core (<rdma/ib_umem_odp.h>, umem_odp.c). Without it ODP is
 * compiled out (backport-include/generated/autoconf.h, Kbuild.subdir) and
 * the wrapper linux/hmm-dma.h defines the struct the header embeds.
 */
#include <linux/module.h>
#include <linux/hmm-dma.h>

static int __init probe_init(void)
{
	hmm_dma_map_free(NULL, NULL);
	return 0;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
