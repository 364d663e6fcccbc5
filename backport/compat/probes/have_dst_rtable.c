/*
 * HAVE_DST_RTABLE: dst_rtable(dst), the dst_entry -> rtable cast helper.
 * Used by: ib_core (addr.c). Wrapper: net/route.h.
 */
#include <linux/module.h>
#include <net/route.h>

static int __init probe_init(void)
{
	struct dst_entry *dst = NULL;

	return dst_rtable(dst) ? 0 : 0;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
