/*
 * HAVE_NETIF_SET_MTU: netif_set_mtu() (6.15), dev_set_mtu() for callers
 * that hold the ops lock. Used by: ib_ipoib (ipoib_main.c). Wrapper
 * linux/netdevice.h: dev_set_mtu() (both need RTNL).
 */
#include <linux/module.h>
#include <linux/netdevice.h>

static int __init probe_init(void)
{
	(void)netif_set_mtu(NULL, 0);
	return 0;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
