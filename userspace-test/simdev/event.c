// SPDX-License-Identifier: GPL-2.0
/*
 * xrc_sim: asynchronous events.
 *
 * Hardware reports an affiliated asynchronous event by calling the QP's
 * event handler from its event interrupt.  For an XRC target QP that
 * handler is the core's, which fans the event out to every handle opened
 * on the QP (each uverbs file's, each ib_open_qp() user's).  Injection
 * does exactly that, for the QP-affiliated event types only, and from
 * hard interrupt context: the handler runs in an irq_work callback (a
 * self-IPI on x86), so lockdep and the atomic-sleep checks see the path
 * a device interrupt takes.  The irq_work is an ordinary one, not a
 * HARD one: like a driver's interrupt handler it would be threaded on
 * PREEMPT_RT, so it may take spinlock_t locks, as the core's shared-QP
 * handler does (lockdep's raw lock nesting check holds it to that).  The
 * writer waits until the handler has returned, so an event is queued on
 * every file by the time the debugfs write completes.
 */

#include <linux/irq_work.h>
#include <linux/lockdep.h>
#include <rdma/ib_verbs.h>

#include "xrc_sim.h"

struct xrc_sim_irq_event {
	struct irq_work work;
	struct ib_event event;
	struct xrc_sim_qp *qp;
};

static bool xrc_sim_event_is_qp_affiliated(u32 type)
{
	switch (type) {
	case IB_EVENT_QP_FATAL:
	case IB_EVENT_QP_REQ_ERR:
	case IB_EVENT_QP_ACCESS_ERR:
	case IB_EVENT_COMM_EST:
	case IB_EVENT_SQ_DRAINED:
	case IB_EVENT_PATH_MIG:
	case IB_EVENT_PATH_MIG_ERR:
	case IB_EVENT_QP_LAST_WQE_REACHED:
		return true;
	default:
		return false;
	}
}

/* The device's event interrupt: hard irq context, interrupts off. */
static void xrc_sim_raise_in_irq(struct irq_work *work)
{
	struct xrc_sim_irq_event *ev =
		container_of(work, struct xrc_sim_irq_event, work);
	struct ib_qp *ibqp = &ev->qp->ibqp;

	lockdep_assert_in_irq();
	if (ibqp->event_handler)
		ibqp->event_handler(&ev->event, ibqp->qp_context);
}

/*
 * Raises event @type on QP @qpn.  Returns -ENOENT if no such QP lives,
 * -EINVAL if @type is not a QP event.  The QP's reference (users) is held
 * until the interrupt handler has run, so destroy_qp waits it out, as a
 * hardware driver synchronizes with its event interrupt.
 */
int xrc_sim_inject_qp_event(struct xrc_sim_dev *sdev, u32 qpn, u32 type)
{
	struct xrc_sim_irq_event ev = {
		.work = IRQ_WORK_INIT(xrc_sim_raise_in_irq),
	};

	if (!xrc_sim_event_is_qp_affiliated(type))
		return -EINVAL;

	ev.qp = xrc_sim_qp_get(sdev, qpn);
	if (!ev.qp)
		return -ENOENT;

	ev.event.device = &sdev->ibdev;
	ev.event.element.qp = &ev.qp->ibqp;
	ev.event.event = type;

	irq_work_queue(&ev.work);
	irq_work_sync(&ev.work);
	atomic_inc(&sdev->irq_events);

	xrc_sim_qp_put(ev.qp);
	return 0;
}
