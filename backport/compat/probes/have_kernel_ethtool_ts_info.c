/*
 * HAVE_KERNEL_ETHTOOL_TS_INFO: ethtool_ops' get_ts_info() and
 * ethtool_op_get_ts_info() take a struct kernel_ethtool_ts_info (6.11);
 * older ones the uapi struct ethtool_ts_info, which has the same fields
 * the drivers set. Used by: mlx4_en (en_ethtool.c). Wrapper:
 * linux/ethtool.h.
 */
#include <linux/module.h>
#include <linux/ethtool.h>

static int probe_get_ts_info(struct net_device *dev,
			     struct kernel_ethtool_ts_info *info)
{
	return ethtool_op_get_ts_info(dev, info);
}

static const struct ethtool_ops probe_ops = {
	.get_ts_info = probe_get_ts_info,
};

static int __init probe_init(void)
{
	return probe_ops.get_ts_info ? 0 : 1;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
