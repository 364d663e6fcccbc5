/* SPDX-License-Identifier: GPL-2.0 */
/*
 * backport wrapper: <net/rps.h> (probe HAVE_NET_RPS_H).
 *
 * 6.10 moved the RPS/RFS declarations (struct rps_*, rps_needed,
 * rps_may_expire_flow()...) out of <linux/netdevice.h> and <net/sock.h>
 * into <net/rps.h>; older kernels declare them in those two.
 */
#ifndef _BACKPORT_NET_RPS_H
#define _BACKPORT_NET_RPS_H

#ifdef HAVE_NET_RPS_H
#include_next <net/rps.h>
#else
#include <linux/netdevice.h>
#include <net/sock.h>
#endif

#endif /* _BACKPORT_NET_RPS_H */
