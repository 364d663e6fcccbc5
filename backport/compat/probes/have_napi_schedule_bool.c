/*
 * HAVE_NAPI_SCHEDULE_BOOL: napi_schedule() returns whether it scheduled
 * the NAPI instance (6.7); older ones return void, with the same body.
 * Used by: ib_ipoib (ipoib_ib.c). Wrapper: linux/netdevice.h.
 */
#include <linux/module.h>
#include <linux/netdevice.h>

static int __init probe_init(void)
{
	struct napi_struct *n = NULL;

	return napi_schedule(n) ? 0 : 0;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
