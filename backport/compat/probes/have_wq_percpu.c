/*
 * HAVE_WQ_PERCPU: the workqueue flag WQ_PERCPU (6.17; Debian's 6.12.118
 * has it from the stable tree), an enum constant: a per-CPU workqueue
 * asked for explicitly, as the default moves to unbound. Used by:
 * ib_core (device.c), ib_cm (cm.c), mlx4_ib (cm.c). Wrapper:
 * linux/workqueue.h.
 */
#include <linux/module.h>
#include <linux/workqueue.h>

static int __init probe_init(void)
{
	return WQ_PERCPU == 0;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
