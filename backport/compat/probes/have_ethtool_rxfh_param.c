/*
 * HAVE_ETHTOOL_RXFH_PARAM: ethtool_ops' get_rxfh()/set_rxfh() take a
 * struct ethtool_rxfh_param (6.8; set_rxfh() also an extack). Older ones
 * take (indir, key, hfunc) one by one. Used by: mlx4_en (en_ethtool.c).
 * Wrapper: linux/ethtool.h (the struct); patch: 0006-BACKPORT-mlx4_en.patch.
 */
#include <linux/module.h>
#include <linux/ethtool.h>

static int probe_get(struct net_device *dev, struct ethtool_rxfh_param *p)
{
	return p->hfunc;
}

static int probe_set(struct net_device *dev, struct ethtool_rxfh_param *p,
		     struct netlink_ext_ack *extack)
{
	return p->hfunc;
}

static const struct ethtool_ops probe_ops = {
	.get_rxfh = probe_get,
	.set_rxfh = probe_set,
};

static int __init probe_init(void)
{
	return probe_ops.get_rxfh ? 0 : 1;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
