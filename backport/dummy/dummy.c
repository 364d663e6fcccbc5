// SPDX-License-Identifier: GPL-2.0
/*
 * A dummy of a stock module that the xrc-rcv backport does not rebuild
 * (backport/unsupported). The stock module links against the stock
 * ib_core (or mlx4_core) by symbol CRC, so once the backport replaces
 * those it cannot load: the kernel would only log "disagrees about
 * version of symbol". This module takes its name in updates/, where
 * depmod prefers it, and fails to load with a message that says why.
 * prepare.sh copies this file once per name; KBUILD_MODNAME tells them
 * apart.
 */
#include <linux/module.h>
#include <linux/printk.h>

static int __init xrc_backport_dummy_init(void)
{
	pr_err("%s: not available with the %s RDMA stack (version %s), which replaces ib_core and mlx4 on this kernel; this module was not rebuilt against it. Remove the backport to use the stock one.\n",
	       KBUILD_MODNAME, XRC_BACKPORT_NAME, XRC_BACKPORT_VERSION);
	return -EOPNOTSUPP;
}
module_init(xrc_backport_dummy_init);

MODULE_DESCRIPTION("Placeholder: not available with the xrc-rcv RDMA backport");
MODULE_LICENSE("GPL");
MODULE_VERSION(XRC_BACKPORT_VERSION);
MODULE_INFO(xrc_rcv_backport, XRC_BACKPORT_VERSION);
