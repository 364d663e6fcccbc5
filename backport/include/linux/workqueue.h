/* SPDX-License-Identifier: GPL-2.0 */
/*
 * backport wrapper: <linux/workqueue.h> (probes HAVE_WQ_PERCPU,
 * HAVE_SYSTEM_DFL_WQ).
 *
 * WQ_PERCPU (6.17, an enum constant): asks for a per-CPU workqueue
 * explicitly, as the default moves to unbound. Older kernels'
 * workqueues are per-CPU unless WQ_UNBOUND, so 0 is exact there.
 *
 * system_dfl_wq (probe HAVE_SYSTEM_DFL_WQ, 6.17): the new name of
 * system_unbound_wq, the same workqueue.
 */
#ifndef _BACKPORT_LINUX_WORKQUEUE_H
#define _BACKPORT_LINUX_WORKQUEUE_H

#include_next <linux/workqueue.h>

#ifndef HAVE_WQ_PERCPU
#define WQ_PERCPU 0
#endif

#ifndef HAVE_SYSTEM_DFL_WQ
#define system_dfl_wq system_unbound_wq
#endif

#endif /* _BACKPORT_LINUX_WORKQUEUE_H */
