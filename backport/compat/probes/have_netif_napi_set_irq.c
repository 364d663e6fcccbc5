/*
 * HAVE_NETIF_NAPI_SET_IRQ: netif_napi_set_irq() (6.8) stores the IRQ of a
 * NAPI instance (napi->irq), for the netdev netlink family's napi-get.
 * Older kernels have neither the field nor the report. Used by: mlx4_en
 * (en_cq.c). Wrapper: linux/netdevice.h.
 */
#include <linux/module.h>
#include <linux/netdevice.h>

static int __init probe_init(void)
{
	netif_napi_set_irq(NULL, 0);
	return 0;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
