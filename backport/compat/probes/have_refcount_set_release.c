/*
 * HAVE_REFCOUNT_SET_RELEASE: refcount_set_release(), a refcount_set()
 * with release ordering. Used by: mlx4_core (srq.c). Wrapper:
 * linux/refcount.h.
 */
#include <linux/module.h>
#include <linux/refcount.h>

static int __init probe_init(void)
{
	refcount_t r;

	refcount_set_release(&r, 1);
	return refcount_read(&r) - 1;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
