/* SPDX-License-Identifier: GPL-2.0 */
/*
 * backport wrapper: <net/route.h> (probe HAVE_DST_RTABLE).
 *
 * dst_rtable() is the container_of() from a route's dst_entry to its
 * struct rtable (whose first member the dst_entry is, on every kernel).
 */
#ifndef _BACKPORT_NET_ROUTE_H
#define _BACKPORT_NET_ROUTE_H

#include_next <net/route.h>

#ifndef HAVE_DST_RTABLE
#define dst_rtable(_dst) container_of(_dst, struct rtable, dst)
#endif

#endif /* _BACKPORT_NET_ROUTE_H */
