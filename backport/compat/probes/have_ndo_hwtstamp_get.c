/*
 * HAVE_NDO_HWTSTAMP_GET: ndo_hwtstamp_get()/ndo_hwtstamp_set() (6.6).
 * Before, SIOCGHWTSTAMP and SIOCSHWTSTAMP reach a driver through
 * ndo_eth_ioctl(). Used by: ib_ipoib (ipoib_main.c), mlx4_en
 * (en_netdev.c). Patches: 0005-BACKPORT-ib_ipoib.patch (compiled out:
 * IPoIB's ndo_eth_ioctl already forwards both), 0004-BACKPORT-mlx4_en.patch
 * (an ndo_eth_ioctl adapter).
 */
#include <linux/module.h>
#include <linux/netdevice.h>

static const struct net_device_ops probe_ops = {
	.ndo_hwtstamp_get = NULL,
	.ndo_hwtstamp_set = NULL,
};

static int __init probe_init(void)
{
	return probe_ops.ndo_hwtstamp_get != NULL;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
