/*
 * HAVE_NAPI_ENABLE_LOCKED: napi_enable_locked()/napi_disable_locked()
 * (6.15), for callers holding the instance lock. Used by: ib_ipoib
 * (ipoib_ib.c). Wrapper linux/netdevice.h: napi_enable()/napi_disable(),
 * which take no lock on kernels without one.
 */
#include <linux/module.h>
#include <linux/netdevice.h>

static int __init probe_init(void)
{
	napi_enable_locked(NULL);
	return 0;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
