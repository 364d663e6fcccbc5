/* SPDX-License-Identifier: GPL-2.0 */
/*
 * backport wrapper: <linux/netdevice.h>, for mlx4_en and ib_ipoib.
 *
 * HAVE_NAPI_SCHEDULE_BOOL: 6.12's napi_schedule() returns true when it
 *   scheduled the instance. Older kernels' is the same code returning
 *   void; the macro makes every later caller get 6.12's version.
 *
 * HAVE_NETIF_QUEUE_SET_NAPI, HAVE_NETIF_NAPI_SET_IRQ: 6.12 records which
 *   NAPI instance serves each RX/TX queue, and its IRQ, only to report
 *   them through the netdev netlink family (queue-get, napi-get). Older
 *   kernels have no such report (nor the fields): recording nothing is
 *   exact there. enum netdev_queue_type is 6.12's uapi <linux/netdev.h>
 *   one, which those kernels lack.
 *
 * HAVE_NAPI_ENABLE_LOCKED: 6.15's napi_enable_locked()/napi_disable_locked()
 *   are napi_enable()/napi_disable() for a caller that holds the
 *   device's instance lock (net/netdev_lock.h). Older kernels have no
 *   such lock, and their napi_enable()/napi_disable() take none.
 *
 * HAVE_NETIF_SET_MTU: 6.15's netif_set_mtu() is dev_set_mtu() for a
 *   caller that holds the ops lock; both need RTNL, which is all older
 *   kernels' dev_set_mtu() needs.
 *
 * HAVE_NETIF_NAPI_ADD_CONFIG: 6.13's netif_napi_add_config() adds a NAPI
 *   instance whose settings (IRQ affinity, GRO flush timeout, busy-poll
 *   defer) persist at an index across resets. Older kernels have no
 *   persistent settings: netif_napi_add(), which is what 6.12's driver
 *   called.
 */
#ifndef _BACKPORT_LINUX_NETDEVICE_H
#define _BACKPORT_LINUX_NETDEVICE_H

#include_next <linux/netdevice.h>

#ifndef HAVE_NAPI_SCHEDULE_BOOL
static inline bool backport_napi_schedule(struct napi_struct *n)
{
	if (napi_schedule_prep(n)) {
		__napi_schedule(n);
		return true;
	}

	return false;
}
#define napi_schedule(n) backport_napi_schedule(n)
#endif /* !HAVE_NAPI_SCHEDULE_BOOL */

#ifndef HAVE_NETIF_QUEUE_SET_NAPI
enum netdev_queue_type {
	NETDEV_QUEUE_TYPE_RX,
	NETDEV_QUEUE_TYPE_TX,
};

static inline void netif_queue_set_napi(struct net_device *dev,
					unsigned int queue_index,
					enum netdev_queue_type type,
					struct napi_struct *napi)
{
}
#endif /* !HAVE_NETIF_QUEUE_SET_NAPI */

#ifndef HAVE_NETIF_NAPI_SET_IRQ
static inline void netif_napi_set_irq(struct napi_struct *napi, int irq)
{
}
#endif

#ifndef HAVE_NAPI_ENABLE_LOCKED
#define napi_enable_locked(n) napi_enable(n)
#define napi_disable_locked(n) napi_disable(n)
#endif

#ifndef HAVE_NETIF_SET_MTU
#define netif_set_mtu(dev, mtu) dev_set_mtu(dev, mtu)
#endif

#ifndef HAVE_NETIF_NAPI_ADD_CONFIG
#define netif_napi_add_config(dev, napi, poll, index) \
	netif_napi_add(dev, napi, poll)
#endif

#endif /* _BACKPORT_LINUX_NETDEVICE_H */
