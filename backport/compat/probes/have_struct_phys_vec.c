/*
 * HAVE_STRUCT_PHYS_VEC: struct phys_vec in <linux/types.h>. Used
 * by: ib_uverbs (uverbs.h embeds one). Wrapper: linux/types.h.
 */
#include <linux/module.h>
#include <linux/types.h>

static int __init probe_init(void)
{
	struct phys_vec v = { 0 };

	(void)v;
	return 0;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
