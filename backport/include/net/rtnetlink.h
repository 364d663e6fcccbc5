/* SPDX-License-Identifier: GPL-2.0 */
/*
 * backport wrapper: <net/rtnetlink.h> (probe HAVE_RTNL_NEWLINK_PARAMS).
 *
 * 6.14 passes rtnl_link_ops.newlink() its netlink arguments in a struct
 * rtnl_newlink_params; older kernels pass (src_net, dev, tb, data, extack)
 * and have no link netns of their own for the lookup of IFLA_LINK (they
 * look it up in src_net). The struct, with the fields a driver reads,
 * and rtnl_newlink_link_net(), which falls back to src_net as 6.14's
 * does; the driver's newlink needs an adapter (ib_ipoib's patch).
 */
#ifndef _BACKPORT_NET_RTNETLINK_H
#define _BACKPORT_NET_RTNETLINK_H

#include_next <net/rtnetlink.h>

#ifndef HAVE_RTNL_NEWLINK_PARAMS
struct rtnl_newlink_params {
	struct net *src_net;
	struct net *link_net;
	struct net *peer_net;
	struct nlattr **tb;
	struct nlattr **data;
};

static inline struct net *
rtnl_newlink_link_net(struct rtnl_newlink_params *p)
{
	return p->link_net ? : p->src_net;
}
#endif

#endif /* _BACKPORT_NET_RTNETLINK_H */
