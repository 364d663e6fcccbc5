/*
 * HAVE_ETHTOOL_PUTS: ethtool_puts() (6.8), ethtool_sprintf(data, "%s", s)
 * without the format. Used by: mlx4_en (en_ethtool.c's strings).
 * Wrapper: linux/ethtool.h.
 */
#include <linux/module.h>
#include <linux/ethtool.h>

static int __init probe_init(void)
{
	u8 buf[ETH_GSTRING_LEN], *p = buf;

	ethtool_puts(&p, "probe");
	return 0;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
