// SPDX-License-Identifier: GPL-2.0
/*
 * xrc_sim: XRC target QPs.
 *
 * The device keeps what a hardware QP context would: a 24-bit number and
 * the attributes modify_qp set, which query_qp reads back unchanged.  The
 * state machine is the IBA one, as ib_modify_qp_is_ok() encodes it for
 * IB_QPT_XRC_TGT; an invalid transition or attribute mask fails with
 * -EINVAL and leaves the QP as it was.  Moving to RESET wipes the
 * context, as hardware does.  No other QP type can be created.
 */

#include <linux/string.h>
#include <rdma/ib_verbs.h>

#include "xrc_sim.h"

#define XRC_SIM_QP_ACCESS	(IB_ACCESS_LOCAL_WRITE | \
				 IB_ACCESS_REMOTE_WRITE | \
				 IB_ACCESS_REMOTE_READ | \
				 IB_ACCESS_REMOTE_ATOMIC)

static void xrc_sim_qp_reset(struct xrc_sim_qp *qp)
{
	memset(&qp->attr, 0, sizeof(qp->attr));
	qp->attr.qp_state = IB_QPS_RESET;
}

int xrc_sim_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
		      struct ib_udata *udata)
{
	struct xrc_sim_dev *sdev = to_sim_dev(ibqp->device);
	struct xrc_sim_qp *qp = to_sim_qp(ibqp);
	u32 qpn;
	int err;

	if (init->qp_type != IB_QPT_XRC_TGT)
		return -EOPNOTSUPP;
	/* The core creates XRC TGT QPs as kernel QPs, for every caller. */
	if (udata)
		return -EINVAL;
	if (init->create_flags)
		return -EOPNOTSUPP;

	mutex_init(&qp->lock);
	xrc_sim_qp_reset(qp);
	refcount_set(&qp->users, 1);
	init_completion(&qp->released);

	if (atomic_inc_return(&sdev->live_qps) > READ_ONCE(sdev->max_qps)) {
		err = -ENOMEM;
		goto err_count;
	}

	err = xa_alloc_cyclic(&sdev->qps, &qpn, qp,
			      XA_LIMIT(sdev->qpn_first, XRC_SIM_QPN_LAST),
			      &sdev->next_qpn, GFP_KERNEL);
	if (err < 0) {
		if (err == -EBUSY)
			err = -ENOMEM;
		goto err_count;
	}
	ibqp->qp_num = qpn;

	/* A receive QP has neither a send nor a receive queue. */
	memset(&init->cap, 0, sizeof(init->cap));
	return 0;

err_count:
	atomic_dec(&sdev->live_qps);
	mutex_destroy(&qp->lock);
	return err;
}

int xrc_sim_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct xrc_sim_dev *sdev = to_sim_dev(ibqp->device);
	struct xrc_sim_qp *qp = to_sim_qp(ibqp);

	xa_erase(&sdev->qps, ibqp->qp_num);
	xrc_sim_qp_put(qp);
	wait_for_completion(&qp->released);

	mutex_destroy(&qp->lock);
	atomic_dec(&sdev->live_qps);
	return 0;
}

/* Takes a reference on live QP @qpn, or returns NULL. */
struct xrc_sim_qp *xrc_sim_qp_get(struct xrc_sim_dev *sdev, u32 qpn)
{
	struct xrc_sim_qp *qp;

	xa_lock(&sdev->qps);
	qp = xa_load(&sdev->qps, qpn);
	if (qp && !refcount_inc_not_zero(&qp->users))
		qp = NULL;
	xa_unlock(&sdev->qps);
	return qp;
}

void xrc_sim_qp_put(struct xrc_sim_qp *qp)
{
	if (refcount_dec_and_test(&qp->users))
		complete(&qp->released);
}

/* Attribute values the port and device can take, beyond the mask check. */
static int xrc_sim_qp_check_attr(const struct ib_qp_attr *attr, int mask)
{
	if ((mask & IB_QP_PORT) && attr->port_num != XRC_SIM_PORT)
		return -EINVAL;
	if ((mask & IB_QP_PKEY_INDEX) && attr->pkey_index != 0)
		return -EINVAL;
	if ((mask & IB_QP_ACCESS_FLAGS) &&
	    (attr->qp_access_flags & ~XRC_SIM_QP_ACCESS))
		return -EINVAL;
	if ((mask & IB_QP_PATH_MTU) &&
	    (attr->path_mtu < IB_MTU_256 || attr->path_mtu > IB_MTU_4096))
		return -EINVAL;
	if ((mask & IB_QP_DEST_QPN) && attr->dest_qp_num > XRC_SIM_QPN_LAST)
		return -EINVAL;
	if ((mask & IB_QP_MAX_DEST_RD_ATOMIC) &&
	    attr->max_dest_rd_atomic > XRC_SIM_MAX_RD_ATOM)
		return -EINVAL;
	if ((mask & IB_QP_MIN_RNR_TIMER) && attr->min_rnr_timer > 31)
		return -EINVAL;
	if ((mask & IB_QP_AV) &&
	    rdma_ah_get_port_num(&attr->ah_attr) != XRC_SIM_PORT)
		return -EINVAL;
	if ((mask & IB_QP_ALT_PATH) &&
	    (attr->alt_port_num != XRC_SIM_PORT || attr->alt_pkey_index != 0 ||
	     rdma_ah_get_port_num(&attr->alt_ah_attr) != XRC_SIM_PORT))
		return -EINVAL;
	return 0;
}

/* Copies the attributes selected by @mask into the QP context. */
static void xrc_sim_qp_store(struct ib_qp_attr *ctx,
			     const struct ib_qp_attr *attr, int mask)
{
	if (mask & IB_QP_EN_SQD_ASYNC_NOTIFY)
		ctx->en_sqd_async_notify = attr->en_sqd_async_notify;
	if (mask & IB_QP_ACCESS_FLAGS)
		ctx->qp_access_flags = attr->qp_access_flags;
	if (mask & IB_QP_PKEY_INDEX)
		ctx->pkey_index = attr->pkey_index;
	if (mask & IB_QP_PORT)
		ctx->port_num = attr->port_num;
	if (mask & IB_QP_QKEY)
		ctx->qkey = attr->qkey;
	if (mask & IB_QP_AV) {
		ctx->ah_attr = attr->ah_attr;
		/* The core holds the GID reference (qp->av_sgid_attr). */
		ctx->ah_attr.grh.sgid_attr = NULL;
	}
	if (mask & IB_QP_PATH_MTU)
		ctx->path_mtu = attr->path_mtu;
	if (mask & IB_QP_TIMEOUT)
		ctx->timeout = attr->timeout;
	if (mask & IB_QP_RETRY_CNT)
		ctx->retry_cnt = attr->retry_cnt;
	if (mask & IB_QP_RNR_RETRY)
		ctx->rnr_retry = attr->rnr_retry;
	if (mask & IB_QP_RQ_PSN)
		ctx->rq_psn = attr->rq_psn;
	if (mask & IB_QP_MAX_QP_RD_ATOMIC)
		ctx->max_rd_atomic = attr->max_rd_atomic;
	if (mask & IB_QP_ALT_PATH) {
		ctx->alt_ah_attr = attr->alt_ah_attr;
		ctx->alt_ah_attr.grh.sgid_attr = NULL;
		ctx->alt_pkey_index = attr->alt_pkey_index;
		ctx->alt_port_num = attr->alt_port_num;
		ctx->alt_timeout = attr->alt_timeout;
	}
	if (mask & IB_QP_MIN_RNR_TIMER)
		ctx->min_rnr_timer = attr->min_rnr_timer;
	if (mask & IB_QP_SQ_PSN)
		ctx->sq_psn = attr->sq_psn;
	if (mask & IB_QP_MAX_DEST_RD_ATOMIC)
		ctx->max_dest_rd_atomic = attr->max_dest_rd_atomic;
	if (mask & IB_QP_PATH_MIG_STATE)
		ctx->path_mig_state = attr->path_mig_state;
	if (mask & IB_QP_DEST_QPN)
		ctx->dest_qp_num = attr->dest_qp_num;
}

/*
 * What a driver sees of user space in modify_qp: real drivers choose
 * their user-QP or kernel-QP path by whether udata is NULL, and read
 * driver data from it.  Recorded for debugfs (modify_qp_udata).
 */
void xrc_sim_record_modify_udata(struct xrc_sim_dev *sdev,
				 const struct ib_udata *udata)
{
	spin_lock(&sdev->udata_lock);
	sdev->modify_udata.calls++;
	sdev->modify_udata.null = !udata;
	sdev->modify_udata.inlen = udata ? udata->inlen : 0;
	sdev->modify_udata.outlen = udata ? udata->outlen : 0;
	spin_unlock(&sdev->udata_lock);
}

int xrc_sim_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
		      int mask, struct ib_udata *udata)
{
	struct xrc_sim_qp *qp = to_sim_qp(ibqp);
	enum ib_qp_state cur, next;
	int err = -EINVAL;

	xrc_sim_record_modify_udata(to_sim_dev(ibqp->device), udata);

	if (mask & ~IB_QP_ATTR_STANDARD_BITS)
		return -EOPNOTSUPP;

	mutex_lock(&qp->lock);
	cur = qp->attr.qp_state;
	next = (mask & IB_QP_STATE) ? attr->qp_state : cur;

	/* The context knows the real current state: don't take another. */
	if ((mask & IB_QP_CUR_STATE) && attr->cur_qp_state != cur)
		goto out;
	if (next > IB_QPS_ERR)
		goto out;
	if (!ib_modify_qp_is_ok(cur, next, IB_QPT_XRC_TGT, mask))
		goto out;
	err = xrc_sim_qp_check_attr(attr, mask);
	if (err)
		goto out;

	if (next == IB_QPS_RESET) {
		xrc_sim_qp_reset(qp);
	} else {
		xrc_sim_qp_store(&qp->attr, attr, mask);
		qp->attr.qp_state = next;
	}
out:
	mutex_unlock(&qp->lock);
	return err;
}

int xrc_sim_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		     struct ib_qp_init_attr *init)
{
	struct xrc_sim_qp *qp = to_sim_qp(ibqp);

	/* All attributes, whatever @mask asks for, as drivers do. */
	mutex_lock(&qp->lock);
	*attr = qp->attr;
	mutex_unlock(&qp->lock);
	attr->cur_qp_state = attr->qp_state;

	memset(init, 0, sizeof(*init));
	init->qp_type = IB_QPT_XRC_TGT;
	init->xrcd = ibqp->xrcd;
	init->sq_sig_type = IB_SIGNAL_REQ_WR;
	init->port_num = attr->port_num;
	return 0;
}
