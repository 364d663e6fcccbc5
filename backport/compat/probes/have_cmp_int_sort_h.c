/*
 * HAVE_CMP_INT_SORT_H: cmp_int() in <linux/sort.h> (bcachefs and
 * a few drivers had private copies). Used by: ib_core (frmr_pools.c).
 * Wrapper: linux/sort.h.
 */
#include <linux/module.h>
#include <linux/sort.h>

static int __init probe_init(void)
{
	int r = cmp_int(1, 2);

	(void)r;
	return 0;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
