/*
 * HAVE_SYSTEM_DFL_WQ: system_dfl_wq, the unbound system workqueue under
 * its new name (6.17; Debian's 6.12.118 has it from the stable tree).
 * Used by: rdma_ucm (ucma.c). Wrapper: linux/workqueue.h.
 */
#include <linux/module.h>
#include <linux/workqueue.h>

static int __init probe_init(void)
{
	return system_dfl_wq == NULL;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
