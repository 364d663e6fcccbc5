// SPDX-License-Identifier: GPL-2.0
/*
 * xrc_sim: asynchronous events.
 *
 * Hardware reports an affiliated asynchronous event by calling the QP's
 * event handler from its event interrupt.  For an XRC target QP that
 * handler is the core's, which fans the event out to every handle opened
 * on the QP (each uverbs file's, each ib_open_qp() user's).  Injection
 * does exactly that, from process context, for the QP-affiliated event
 * types only.
 */

#include <rdma/ib_verbs.h>

#include "xrc_sim.h"

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

/*
 * Raises event @type on QP @qpn.  Returns -ENOENT if no such QP lives,
 * -EINVAL if @type is not a QP event.
 */
int xrc_sim_inject_qp_event(struct xrc_sim_dev *sdev, u32 qpn, u32 type)
{
	struct xrc_sim_qp *qp;
	struct ib_event event;

	if (!xrc_sim_event_is_qp_affiliated(type))
		return -EINVAL;

	qp = xrc_sim_qp_get(sdev, qpn);
	if (!qp)
		return -ENOENT;

	event.device = &sdev->ibdev;
	event.element.qp = &qp->ibqp;
	event.event = type;
	if (qp->ibqp.event_handler)
		qp->ibqp.event_handler(&event, qp->ibqp.qp_context);

	xrc_sim_qp_put(qp);
	return 0;
}
