// SPDX-License-Identifier: GPL-2.0
/*
 * xrc_sim: the data path, which is not simulated.
 *
 * ib_register_device() counts a device as a kernel verbs provider only if
 * it has these ops.  None of them can succeed here: no CQ or MR can be
 * created, and nothing can be posted.
 */

#include <rdma/ib_verbs.h>

#include "xrc_sim.h"

int xrc_sim_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		      const struct ib_send_wr **bad_wr)
{
	*bad_wr = wr;
	return -EOPNOTSUPP;
}

int xrc_sim_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		      const struct ib_recv_wr **bad_wr)
{
	*bad_wr = wr;
	return -EOPNOTSUPP;
}

int xrc_sim_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		      struct uverbs_attr_bundle *attrs)
{
	return -EOPNOTSUPP;
}

/* Never called: no CQ is ever created. */
int xrc_sim_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	return 0;
}

int xrc_sim_poll_cq(struct ib_cq *ibcq, int num_entries, struct ib_wc *wc)
{
	return -EOPNOTSUPP;
}

int xrc_sim_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags)
{
	return -EOPNOTSUPP;
}

struct ib_mr *xrc_sim_get_dma_mr(struct ib_pd *ibpd, int access)
{
	return ERR_PTR(-EOPNOTSUPP);
}

struct ib_mr *xrc_sim_reg_user_mr(struct ib_pd *ibpd, u64 start, u64 length,
				  u64 virt_addr, int access, XRC_SIM_DMAH_ARG
				  struct ib_udata *udata)
{
	return ERR_PTR(-EOPNOTSUPP);
}

/* Never called: no MR is ever created. */
int xrc_sim_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	return 0;
}
