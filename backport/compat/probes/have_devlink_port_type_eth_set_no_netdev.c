/*
 * HAVE_DEVLINK_PORT_TYPE_ETH_SET_NO_NETDEV: devlink_port_type_eth_set()
 * takes only the port (the netdev is found through the netdev notifier).
 * 6.1's takes (port, netdev) and accepts a NULL netdev, with a dev_warn().
 * Used by: mlx4_core (main.c). Wrapper: net/devlink.h.
 */
#include <linux/module.h>
#include <net/devlink.h>

static int __init probe_init(void)
{
	devlink_port_type_eth_set(NULL);
	return 0;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
