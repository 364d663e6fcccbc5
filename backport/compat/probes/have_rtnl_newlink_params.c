/*
 * HAVE_RTNL_NEWLINK_PARAMS: rtnl_link_ops.newlink(dev, params, extack)
 * with struct rtnl_newlink_params (6.14). Used by: ib_ipoib
 * (ipoib_netlink.c). Wrapper net/rtnetlink.h: the struct and
 * rtnl_newlink_link_net(); patch ib_ipoib: an adapter from the older
 * newlink(src_net, dev, tb, data, extack).
 */
#include <linux/module.h>
#include <net/rtnetlink.h>

static int __init probe_init(void)
{
	struct rtnl_newlink_params p = { 0 };

	(void)rtnl_newlink_link_net(&p);
	return 0;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
