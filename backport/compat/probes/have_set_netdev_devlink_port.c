/*
 * HAVE_SET_NETDEV_DEVLINK_PORT: SET_NETDEV_DEVLINK_PORT() (6.2) links a
 * netdev to its devlink port before register_netdev(); devlink's netdev
 * notifier then sets the port type to Ethernet on registration and
 * clears it on unregistration. Older kernels have neither: the driver
 * calls devlink_port_type_eth_set(port, netdev) after register_netdev()
 * and devlink_port_type_clear() before unregister_netdev(), as 6.1's own
 * mlx4_en does. Used by: mlx4_en (en_netdev.c). Patch:
 * 0006-BACKPORT-mlx4_en.patch.
 */
#include <linux/module.h>
#include <linux/netdevice.h>
#include <net/devlink.h>

static int __init probe_init(void)
{
	struct net_device *dev = NULL;

	SET_NETDEV_DEVLINK_PORT(dev, NULL);
	return 0;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
