/* SPDX-License-Identifier: (GPL-2.0 OR Linux-OpenIB) */
/*
 * A fake libibverbs for the host tests: device contexts, XRC domains and
 * the XRC receive QP verbs of rdma-core, modelled on the kernel's counted
 * references (per context and domain, counted per call). No device needed.
 */
#ifndef FAKE_VERBS_H
#define FAKE_VERBS_H

#include <infiniband/verbs.h>

struct ibv_context *fake_open_context(void);
/* Process exit: drops every reference of the context, closes its domains */
void fake_close_context(struct ibv_context *ctx);

/* The kernel's view, for the tests to look at */
int fake_qp_exists(uint32_t qpn);
int fake_qp_refs(struct ibv_context *ctx, uint32_t qpn);
int fake_qp_state(uint32_t qpn);

/* How many of each verb reached the "kernel", reset by fake_reset_calls() */
struct fake_calls {
	int reg, unreg, modify, query, open_xrcd, close_xrcd, create_srq;
	int create_qp, modify_qp, destroy_qp, post_send;
};
extern struct fake_calls fake_calls;
void fake_reset_calls(void);

/* Make every verb fail with this errno value (0: work normally) */
extern int fake_fail_with;

/* The last ibv_create_srq_ex() attributes */
extern struct ibv_srq_init_attr_ex fake_last_srq_attr;

/*
 * QPs: rdma-core's ibv_create_qp() (which ibv_create_qp_ex() with only
 * IBV_QP_INIT_ATTR_PD calls), ibv_modify_qp(), ibv_destroy_qp() and
 * ibv_post_send(), with rdma-core's and the kernel's checks: QP type 5
 * (OFED's XRC) is no type and gets EINVAL, an XRC send QP takes no SRQ
 * and, at RTR, neither IBV_QP_MAX_DEST_RD_ATOMIC nor
 * IBV_QP_MIN_RNR_TIMER. Every creation grants a max_inline_data of at
 * least FAKE_INLINE.
 */
#define FAKE_INLINE 64
extern struct ibv_qp_init_attr fake_last_qp_attr;
extern int fake_last_qp_mask;
extern struct ibv_send_wr fake_last_send_wr;
extern int fake_live_qps;

#endif
