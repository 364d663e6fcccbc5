/*
 * HAVE_NETIF_NAPI_ADD_CONFIG: netif_napi_add_config() (6.13), NAPI with a
 * persistent per-index config (IRQ affinity, GRO flush timeout kept
 * across resets). Used by: mlx4_en (en_cq.c). Wrapper linux/netdevice.h:
 * netif_napi_add(), without the persistence older kernels lack.
 */
#include <linux/module.h>
#include <linux/netdevice.h>

static int __init probe_init(void)
{
	netif_napi_add_config(NULL, NULL, NULL, 0);
	return 0;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
