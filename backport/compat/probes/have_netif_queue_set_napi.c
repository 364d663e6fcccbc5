/*
 * HAVE_NETIF_QUEUE_SET_NAPI: netif_queue_set_napi() and enum
 * netdev_queue_type (6.8): record which NAPI instance serves an RX or TX
 * queue, for the netdev netlink family's queue-get. Older kernels report
 * no such thing. Used by: mlx4_en (en_cq.c). Wrapper: linux/netdevice.h.
 */
#include <linux/module.h>
#include <linux/netdevice.h>

static int __init probe_init(void)
{
	enum netdev_queue_type t = NETDEV_QUEUE_TYPE_TX;

	netif_queue_set_napi(NULL, 0, t, NULL);
	return 0;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
