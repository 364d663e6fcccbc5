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

#endif /* _BACKPORT_LINUX_NETDEVICE_H */
