/* SPDX-License-Identifier: (GPL-2.0 OR Linux-OpenIB) */
/*
 * OFED 1.5 XRC source compatibility on rdma-core's XRC receive QP verbs.
 *
 * Code written for OFED 1.5's legacy XRC verbs (MPI libraries such as
 * MVAPICH2, Open MPI and GASNet) builds against rdma-core with this header
 * added and the source changes below, and keeps OFED 1.5's behaviour:
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
 * THE SOURCE CHANGES. OFED 1.5 added a member xrc_domain to struct
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
 * Where the same variable is also handed to a verb through a pointer of
 * type struct ibv_qp_init_attr * (a function pointer, another library),
 * pass &init_attr.base; ibv_create_qp(pd, &init_attr) needs nothing. The
 * other change is on the send side: srq->xrc_srq_num becomes
 * ofa_xrc_srq_num(srq) (below). Nothing else changes.
 *
 * Where OFED 1.5 and the kernel's counted references differ, OFED 1.5 wins
 * (ofa-compat/README.md lists every difference). Above all: in OFED 1.5 a
 * context registered a QP at most once - a second ibv_reg_xrc_rcv_qp() of
 * the same QP by the same context succeeded and changed nothing, and one
 * ibv_unreg_xrc_rcv_qp() released it - whereas the kernel counts every
 * call. This library keeps one kernel reference per (context, domain, QP).
 *
 * THE SEND SIDE. OFED 1.5 also extended three send-side constructs;
 * rdma-core has each under another name:
 *
 *   OFED 1.5                        here (rdma-core behind it)
 *   init_attr.qp_type = IBV_QPT_XRC;
 *   init_attr.xrc_domain = dom;
 *   ibv_create_qp(pd, &init_attr)   an IBV_QPT_XRC_SEND QP from
 *                                   ibv_create_qp_ex(IBV_QP_INIT_ATTR_PD)
 *   ibv_modify_qp(qp, &attr, mask)  the same, less two responder
 *                                   attributes OFED 1.5 wanted at RTR
 *   wr.xrc_remote_srq_num = n       wr.qp_type.xrc.remote_srqn = n
 *   srq->xrc_srq_num                ofa_xrc_srq_num(srq): changed
 *
 * - IBV_QPT_XRC keeps OFED 1.5's value, 5, which rdma-core does not use:
 *   only ofa_create_qp() knows it, and rdma-core's verbs and the kernel
 *   refuse it (EINVAL). init_attr is the struct ofa_qp_init_attr of the
 *   change above, so the creation needs no further change: ibv_create_qp
 *   names ofa_create_qp(), which has rdma-core's signature (code that
 *   keeps the verb in a function pointer gets it too) and, in C, is also
 *   a _Generic macro: a struct ofa_qp_init_attr * goes to the mapping, a
 *   plain struct ibv_qp_init_attr * straight to rdma-core's
 *   ibv_create_qp(). Through a function pointer, the mapping takes a
 *   struct ibv_qp_init_attr * whose qp_type is IBV_QPT_XRC to be the
 *   .base of a struct ofa_qp_init_attr (it cannot carry a domain
 *   otherwise): pass &init_attr.base there, never a plain struct of
 *   type IBV_QPT_XRC, which would be read past its end.
 * - ibv_modify_qp names ofa_modify_qp(): OFED 1.5's kernel required
 *   IBV_QP_MAX_DEST_RD_ATOMIC and IBV_QP_MIN_RNR_TIMER to move an XRC QP
 *   to RTR, as for RC, and today's refuses both on an XRC send QP; they
 *   mean nothing to a QP that only sends, so they are dropped there.
 * - xrc_remote_srq_num is a macro for the member path
 *   qp_type.xrc.remote_srqn, so wr.xrc_remote_srq_num (and the designator
 *   .xrc_remote_srq_num) compiles unchanged. Any other identifier of that
 *   name in a file that includes this header stops compiling (never
 *   silently); define OFA_VERBS_NO_XRC_REMOTE_SRQ_NUM to keep it and write
 *   wr.qp_type.xrc.remote_srqn instead.
 * - srq->xrc_srq_num has no member to stand for (struct ibv_srq is ABI):
 *   that expression is the one send-side construct that changes.
 * - qp->qp_type of such a QP reads IBV_QPT_XRC_SEND (providers switch on
 *   it when posting), so code comparing it with IBV_QPT_XRC changes too.
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
 * OFED 1.5's XRC (send) QP type, with OFED 1.5's value (RC 2, UC, UD, XRC).
 * rdma-core has no type 5 and the kernel refuses it with EINVAL; only
 * ofa_create_qp() turns it into an IBV_QPT_XRC_SEND QP.
 */
#define OFA_QPT_XRC	((enum ibv_qp_type)5)

/*
 * ibv_create_qp() with OFED 1.5's XRC send QPs, and rdma-core's signature.
 * qp_type OFA_QPT_XRC: qp_init_attr is the .base of a struct
 * ofa_qp_init_attr whose xrc_domain is a domain of pd's context; the QP
 * is an IBV_QPT_XRC_SEND QP on pd, with no receive side (OFED 1.5's had
 * none either: srq, recv_cq and the receive sizes are ignored), and the
 * granted sizes come back in qp_init_attr->cap. NULL and errno on
 * failure, qp_init_attr untouched. Any other type: rdma-core's verb.
 */
struct ibv_qp *ofa_create_qp(struct ibv_pd *pd,
			     struct ibv_qp_init_attr *qp_init_attr);

/*
 * ibv_modify_qp(), except that on an XRC send QP the responder attributes
 * OFED 1.5 required at RTR (IBV_QP_MAX_DEST_RD_ATOMIC and
 * IBV_QP_MIN_RNR_TIMER), which the kernel now refuses there, are dropped.
 */
int ofa_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask);

/* What the ibv_create_qp() macro calls for each type of init_attr */
static inline struct ibv_qp *ofa_create_qp_ofed(struct ibv_pd *pd,
						struct ofa_qp_init_attr *attr)
{
	return ofa_create_qp(pd, attr ? &attr->base : NULL);
}

static inline struct ibv_qp *ofa_create_qp_rdma(struct ibv_pd *pd,
						struct ibv_qp_init_attr *attr)
{
	return ibv_create_qp(pd, attr);	/* rdma-core's, not the macro */
}

/*
 * OFED 1.5's struct ibv_srq had xrc_srq_num; rdma-core has
 * ibv_get_srq_num(). This returns the number, or 0 for no SRQ or one
 * that has none (not an XRC SRQ, or a provider without them).
 */
static inline uint32_t ofa_xrc_srq_num(struct ibv_srq *srq)
{
	uint32_t num;

	return !srq || ibv_get_srq_num(srq, &num) ? 0 : num;
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
#define IBV_QPT_XRC		OFA_QPT_XRC
#define ibv_create_qp		ofa_create_qp
#define ibv_modify_qp		ofa_modify_qp
#ifndef __cplusplus
/*
 * ibv_create_qp(pd, attr) by the type of attr: OFED 1.5's struct goes to
 * the mapping, rdma-core's straight to rdma-core. Without arguments (a
 * function pointer) the name is the function ofa_create_qp().
 */
#define ofa_create_qp(pd, attr)						\
	_Generic((attr),						\
		 struct ofa_qp_init_attr *: ofa_create_qp_ofed,		\
		 default: ofa_create_qp_rdma)((pd), (attr))
#endif
#ifndef OFA_VERBS_NO_XRC_REMOTE_SRQ_NUM
/* OFED 1.5's struct ibv_send_wr member, where rdma-core keeps it */
#define xrc_remote_srq_num	qp_type.xrc.remote_srqn
#endif
#endif

#ifdef __cplusplus
}

/* C++ has no _Generic: an overload takes OFED 1.5's struct */
static inline struct ibv_qp *ofa_create_qp(struct ibv_pd *pd,
					   struct ofa_qp_init_attr *attr)
{
	return ofa_create_qp_ofed(pd, attr);
}
#endif

#endif /* INFINIBAND_OFA_VERBS_H */
