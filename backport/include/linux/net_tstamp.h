/* SPDX-License-Identifier: GPL-2.0 */
/*
 * backport wrapper: <linux/net_tstamp.h> (probe HAVE_KERNEL_HWTSTAMP_CONFIG).
 *
 * 6.4 added the kernel's own <linux/net_tstamp.h>, with struct
 * kernel_hwtstamp_config, the kernel's copy of the SIOC[GS]HWTSTAMP
 * struct hwtstamp_config, and the two conversions. Before, the name
 * reaches the uapi header only (the next one in the include path on
 * every kernel): the struct and the conversions below are 6.4's.
 */
#ifndef _BACKPORT_LINUX_NET_TSTAMP_H
#define _BACKPORT_LINUX_NET_TSTAMP_H

#include_next <linux/net_tstamp.h>

#ifndef HAVE_KERNEL_HWTSTAMP_CONFIG
#include <linux/types.h>

struct ifreq;

struct kernel_hwtstamp_config {
	int flags;
	int tx_type;
	int rx_filter;
	struct ifreq *ifr;
	bool copied_to_user;
};

static inline void hwtstamp_config_to_kernel(struct kernel_hwtstamp_config *kernel_cfg,
					     const struct hwtstamp_config *cfg)
{
	kernel_cfg->flags = cfg->flags;
	kernel_cfg->tx_type = cfg->tx_type;
	kernel_cfg->rx_filter = cfg->rx_filter;
}

static inline void hwtstamp_config_from_kernel(struct hwtstamp_config *cfg,
					       const struct kernel_hwtstamp_config *kernel_cfg)
{
	cfg->flags = kernel_cfg->flags;
	cfg->tx_type = kernel_cfg->tx_type;
	cfg->rx_filter = kernel_cfg->rx_filter;
}
#endif /* !HAVE_KERNEL_HWTSTAMP_CONFIG */

#endif /* _BACKPORT_LINUX_NET_TSTAMP_H */
