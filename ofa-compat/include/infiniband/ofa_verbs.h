/* SPDX-License-Identifier: (GPL-2.0 OR Linux-OpenIB) */
/*
 * OFED 1.5 XRC source compatibility on rdma-core's XRC receive QP verbs.
 *
 * Code written for OFED 1.5's legacy XRC verbs (MPI libraries such as
 * MVAPICH2, Open MPI and GASNet) builds against rdma-core with this header
 * added and one source change (below), and keeps OFED 1.5's behaviour:
 *
 *   struct ibv_xrc_domain *ibv_open_xrc_domain(ctx, fd, oflag);
 *   int ibv_close_xrc_domain(dom);
 *   struct ibv_srq *ibv_create_xrc_srq(pd, dom, cq, srq_init_attr);
 *   int ibv_create_xrc_rcv_qp(init_attr, &qpn);
 *   int ibv_modify_xrc_rcv_qp(dom, qpn, attr, attr_mask);
 *   int ibv_query_xrc_rcv_qp(dom, qpn, attr, attr_mask, init_attr);
 *   int ibv_reg_xrc_rcv_qp(dom, qpn);
 *   int ibv_unreg_xrc_rcv_qp(dom, qpn);
 *
 * The int functions return 0 or an errno value, the others NULL with errno
 * set, as in OFED 1.5. Async events keep OFED 1.5's format: event_type has
 * IBV_XRC_QP_EVENT_FLAG set and element.xrc_qp_num holds the QP number
 * (rdma-core's <infiniband/verbs.h> now gives both).
 *
 * THE ONE SOURCE CHANGE. OFED 1.5 added a member xrc_domain to struct
 * ibv_qp_init_attr. rdma-core cannot change that struct (it is ABI), so
 * the variable that carries the domain is declared with this header's
 * struct ofa_qp_init_attr instead, which has every member of
 * struct ibv_qp_init_attr under the same name plus xrc_domain:
 *
 *   -	struct ibv_qp_init_attr init_attr;
 *   +	struct ofa_qp_init_attr init_attr;
 *
 *	memset(&init_attr, 0, sizeof(init_attr));
 *	init_attr.xrc_domain = dom;
 *	ret = ibv_create_xrc_rcv_qp(&init_attr, &qpn);
 *
 * Nothing else changes; where the same variable is also handed to a verb
 * that takes a struct ibv_qp_init_attr *, pass &init_attr.base.
 *
 * Where OFED 1.5 and the kernel's counted references differ, OFED 1.5 wins
 * (ofa-compat/README.md lists every difference). Above all: in OFED 1.5 a
 * context registered a QP at most once - a second ibv_reg_xrc_rcv_qp() of
 * the same QP by the same context succeeded and changed nothing, and one
 * ibv_unreg_xrc_rcv_qp() released it - whereas the kernel counts every
 * call. This library keeps one kernel reference per (context, domain, QP).
 *
 * The OFED names are macros for this library's ofa_*() functions, because
 * rdma-core's own ibv_reg_xrc_rcv_qp() and friends have other signatures:
 * a file that includes this header sees the OFED ones. Define
 * OFA_VERBS_NO_COMPAT_NAMES before including it to keep rdma-core's.
 */
#ifndef INFINIBAND_OFA_VERBS_H
#define INFINIBAND_OFA_VERBS_H

#include <stddef.h>
#include <stdint.h>
#include <infiniband/verbs.h>

#ifdef __cplusplus
extern "C" {
#endif

struct ofa_xrc_shared;

/* An XRC domain as OFED 1.5 had it; from ibv_open_xrc_domain() */
struct ibv_xrc_domain {
	struct ibv_context *context;
	uint32_t handle;	/* always 0: the kernel handle is private now */
	/* rdma-core's domain and this library's state behind it */
	struct ibv_xrcd *xrcd;
	struct ofa_xrc_shared *shared;
};

/*
 * struct ibv_qp_init_attr with OFED 1.5's xrc_domain: the same members,
 * by name and by layout, then xrc_domain. &attr.base is the plain struct.
 */
struct ofa_qp_init_attr {
	union {
		struct ibv_qp_init_attr base;
		struct {
			void *qp_context;
			struct ibv_cq *send_cq;
			struct ibv_cq *recv_cq;
			struct ibv_srq *srq;
			struct ibv_qp_cap cap;
			enum ibv_qp_type qp_type;
			int sq_sig_all;
		};
	};
	struct ibv_xrc_domain *xrc_domain;
};

struct ibv_xrc_domain *ofa_open_xrc_domain(struct ibv_context *context,
					   int fd, int oflag);
int ofa_close_xrc_domain(struct ibv_xrc_domain *d);
struct ibv_srq *ofa_create_xrc_srq(struct ibv_pd *pd,
				   struct ibv_xrc_domain *xrc_domain,
				   struct ibv_cq *xrc_cq,
				   struct ibv_srq_init_attr *srq_init_attr);
int ofa_create_xrc_rcv_qp(struct ofa_qp_init_attr *init_attr,
			  uint32_t *xrc_rcv_qpn);
int ofa_modify_xrc_rcv_qp(struct ibv_xrc_domain *xrc_domain,
			  uint32_t xrc_qp_num, struct ibv_qp_attr *attr,
			  int attr_mask);
int ofa_query_xrc_rcv_qp(struct ibv_xrc_domain *xrc_domain,
			 uint32_t xrc_qp_num, struct ibv_qp_attr *attr,
			 int attr_mask, struct ibv_qp_init_attr *init_attr);
int ofa_reg_xrc_rcv_qp(struct ibv_xrc_domain *xrc_domain,
		       uint32_t xrc_qp_num);
int ofa_unreg_xrc_rcv_qp(struct ibv_xrc_domain *xrc_domain,
			 uint32_t xrc_qp_num);

/*
 * OFED 1.5's struct ibv_srq had xrc_srq_num; rdma-core has
 * ibv_get_srq_num(). This returns the number, or 0 on error.
 */
static inline uint32_t ofa_xrc_srq_num(struct ibv_srq *srq)
{
	uint32_t num;

	return ibv_get_srq_num(srq, &num) ? 0 : num;
}

#ifndef OFA_VERBS_NO_COMPAT_NAMES
#define ibv_open_xrc_domain	ofa_open_xrc_domain
#define ibv_close_xrc_domain	ofa_close_xrc_domain
#define ibv_create_xrc_srq	ofa_create_xrc_srq
#define ibv_create_xrc_rcv_qp	ofa_create_xrc_rcv_qp
#define ibv_modify_xrc_rcv_qp	ofa_modify_xrc_rcv_qp
#define ibv_query_xrc_rcv_qp	ofa_query_xrc_rcv_qp
#define ibv_reg_xrc_rcv_qp	ofa_reg_xrc_rcv_qp
#define ibv_unreg_xrc_rcv_qp	ofa_unreg_xrc_rcv_qp
#endif

#ifdef __cplusplus
}
#endif

#endif /* INFINIBAND_OFA_VERBS_H */
