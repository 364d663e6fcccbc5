/*
 * HAVE_NETDEV_XDP_FEATURES: net_device's xdp_features and the
 * NETDEV_XDP_ACT_* flags (6.3): the XDP actions a driver advertises
 * (netdev netlink dev-get; 6.3+ checks them before redirecting to a
 * device). Older kernels neither advertise nor check. Used by: mlx4_en
 * (en_netdev.c). Patch: 0006-BACKPORT-mlx4_en.patch (compiled out).
 */
#include <linux/module.h>
#include <linux/netdevice.h>

static int __init probe_init(void)
{
	struct net_device *dev = NULL;

	dev->xdp_features = NETDEV_XDP_ACT_BASIC | NETDEV_XDP_ACT_REDIRECT;
	return 0;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
