/*
 * HAVE_ETHTOOL_GET_RX_RING_COUNT: ethtool_ops.get_rx_ring_count(),
 * which answers ETHTOOL_GRXRINGS instead of get_rxnfc(). Used by: mlx4_en
 * (en_ethtool.c). Patch mlx4_en: get_rxnfc() answers ETHTOOL_GRXRINGS
 * from the same function.
 */
#include <linux/module.h>
#include <linux/ethtool.h>

static int __init probe_init(void)
{
	struct ethtool_ops o = { .get_rx_ring_count = NULL };

	(void)o;
	return 0;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
