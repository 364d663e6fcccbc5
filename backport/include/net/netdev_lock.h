/* SPDX-License-Identifier: GPL-2.0 */
/*
 * backport wrapper: <net/netdev_lock.h> (probe HAVE_NETDEV_LOCK).
 *
 * 6.14 gave every net_device an instance lock (dev->lock: netdev_lock(),
 * netdev_unlock()), and 6.15 made it the "ops lock" of the devices that
 * ask for it (queue management ops, request_ops_lock): the core takes it
 * around their ndo calls, netdev_lock_ops() takes it only for those, and
 * netdev_lock_ops_to_full() makes sure it is held in either case.
 *
 * Older kernels have neither lock. What is exact there:
 *   - netdev_lock_ops()/netdev_unlock_ops(), netdev_ops_assert_locked():
 *     no device asks for an ops lock, so they do nothing (6.15 does
 *     nothing for such a device either);
 * What is not: netdev_lock(), netdev_unlock(), netdev_lock_ops_to_full(),
 *   netdev_unlock_full_to_ops() and netdev_assert_locked() need a lock
 *   the device does not have. They are left undefined here, so that a
 *   driver that uses them fails to build until its backport patch gives
 *   it a lock of its own (ib_ipoib's does: backport/README.md, IPoIB).
 */
#ifndef _BACKPORT_NET_NETDEV_LOCK_H
#define _BACKPORT_NET_NETDEV_LOCK_H

#ifdef HAVE_NETDEV_LOCK
#include_next <net/netdev_lock.h>
#else
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>

static inline void netdev_lock_ops(struct net_device *dev)
{
}

static inline void netdev_unlock_ops(struct net_device *dev)
{
}

static inline void netdev_ops_assert_locked(const struct net_device *dev)
{
	ASSERT_RTNL();
}
#endif

#endif /* _BACKPORT_NET_NETDEV_LOCK_H */
