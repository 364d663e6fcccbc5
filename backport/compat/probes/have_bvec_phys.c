/*
 * HAVE_BVEC_PHYS: bvec_phys() (6.10), the physical address of a
 * bio_vec. Used by: ib_core (rw.c, the bvec path of rdma_rw).
 * Wrapper: linux/bvec.h.
 */
#include <linux/module.h>
#include <linux/bvec.h>

static int __init probe_init(void)
{
	return bvec_phys(NULL) != 0;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
