/* SPDX-License-Identifier: GPL-2.0 */
/*
 * backport wrapper: <linux/ethtool.h>, for mlx4_en.
 *
 * HAVE_ETHTOOL_PUTS: ethtool_puts() as 6.12 defines it (net/ethtool/
 *   ioctl.c): copy one string into the next ETH_GSTRING_LEN slot.
 *
 * HAVE_ETHTOOL_RXFH_PARAM: 6.12's get_rxfh()/set_rxfh() take their
 *   arguments in a struct ethtool_rxfh_param. Older kernels declare no
 *   such struct (6.12's is copied here) and pass indir, key and hfunc one
 *   by one; the driver's ethtool_ops get adapters from a backport patch
 *   (0006-BACKPORT-mlx4_en.patch).
 *
 * HAVE_KERNEL_ETHTOOL_TS_INFO: 6.12's get_ts_info() and
 *   ethtool_op_get_ts_info() take a struct kernel_ethtool_ts_info, older
 *   ones the uapi struct ethtool_ts_info. Every field of the former
 *   (cmd, so_timestamping, phc_index, tx_types, rx_filters) is in the
 *   latter, with the same meaning, so the name maps one to one.
 */
#ifndef _BACKPORT_LINUX_ETHTOOL_H
#define _BACKPORT_LINUX_ETHTOOL_H

#include_next <linux/ethtool.h>

#ifndef HAVE_ETHTOOL_PUTS
static inline void ethtool_puts(u8 **data, const char *str)
{
	strscpy(*data, str, ETH_GSTRING_LEN);
	*data += ETH_GSTRING_LEN;
}
#endif

#ifndef HAVE_ETHTOOL_RXFH_PARAM
struct ethtool_rxfh_param {
	u8	hfunc;
	u32	indir_size;
	u32	*indir;
	u32	key_size;
	u8	*key;
	u32	rss_context;
	u8	rss_delete;
	u8	input_xfrm;
};
#endif

#ifndef HAVE_KERNEL_ETHTOOL_TS_INFO
#define kernel_ethtool_ts_info ethtool_ts_info
#endif

#endif /* _BACKPORT_LINUX_ETHTOOL_H */
