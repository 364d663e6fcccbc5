/*
 * HAVE_NDO_SET_RX_MODE_ASYNC: ndo_set_rx_mode_async(), called in
 * process context with copies of the address lists. Used by: ib_ipoib.
 * Patch ib_ipoib: ndo_set_rx_mode calls the same function (IPoIB's only
 * queues a work item, which is fine in the atomic context of
 * ndo_set_rx_mode).
 */
#include <linux/module.h>
#include <linux/netdevice.h>

static int __init probe_init(void)
{
	struct net_device_ops o = { .ndo_set_rx_mode_async = NULL };

	(void)o;
	return 0;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
