// SPDX-License-Identifier: (GPL-2.0 OR Linux-OpenIB)
/* A fake libibverbs for the host tests: see fake_verbs.h */
#include "fake_verbs.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_CTX 8
#define MAX_QP 64
#define MAX_XRCD 16

struct fake_xrcd_obj {		/* the kernel's struct ib_xrcd */
	int used;
	dev_t dev;
	ino_t ino;
	int has_file;
};

struct fake_qp {
	int used;
	uint32_t qpn;
	struct fake_xrcd_obj *xrcd;
	int state;
	int refs[MAX_CTX];
};

struct fake_ctx {
	struct verbs_context vctx;
	int idx;
	int open;
};

struct fake_xrcd {		/* one handle */
	struct ibv_xrcd xrcd;
	uint32_t handle;
	struct fake_xrcd_obj *obj;
	struct fake_ctx *ctx;
	struct fake_xrcd *next;
};

static struct fake_ctx ctxs[MAX_CTX];
static struct fake_qp qps[MAX_QP];
static struct fake_xrcd_obj xrcd_objs[MAX_XRCD];
static struct fake_xrcd *handles;
static uint32_t next_qpn = 0x100;
static uint32_t next_handle = 1;

struct fake_calls fake_calls;
int fake_fail_with;
struct ibv_srq_init_attr_ex fake_last_srq_attr;
struct ibv_qp_init_attr fake_last_qp_attr;
int fake_last_qp_mask;
struct ibv_send_wr fake_last_send_wr;
int fake_live_qps;

void fake_reset_calls(void)
{
	memset(&fake_calls, 0, sizeof(fake_calls));
}

static struct fake_ctx *to_ctx(struct ibv_context *c)
{
	return (struct fake_ctx *)verbs_get_ctx(c);
}

static struct fake_xrcd *to_xrcd(struct ibv_xrcd *x)
{
	return (struct fake_xrcd *)x;
}

static struct fake_qp *find_qp(struct fake_xrcd_obj *obj, uint32_t qpn)
{
	for (int i = 0; i < MAX_QP; i++)
		if (qps[i].used && qps[i].qpn == qpn && (!obj || qps[i].xrcd == obj))
			return &qps[i];
	return NULL;
}

static int ctx_refs_on(struct fake_ctx *c, struct fake_xrcd_obj *obj)
{
	int n = 0;

	for (int i = 0; i < MAX_QP; i++)
		if (qps[i].used && qps[i].xrcd == obj)
			n += qps[i].refs[c->idx];
	return n;
}

static int ctx_handles_on(struct fake_ctx *c, struct fake_xrcd_obj *obj)
{
	int n = 0;

	for (struct fake_xrcd *h = handles; h; h = h->next)
		if (h->ctx == c && h->obj == obj)
			n++;
	return n;
}

static void put_qp_ref(struct fake_qp *qp, int idx, int all)
{
	int total = 0;

	qp->refs[idx] = all ? 0 : qp->refs[idx] - 1;
	for (int i = 0; i < MAX_CTX; i++)
		total += qp->refs[i];
	if (!total)
		memset(qp, 0, sizeof(*qp));
}

static struct ibv_xrcd *fake_open_xrcd(struct ibv_context *context,
				       struct ibv_xrcd_init_attr *attr)
{
	struct fake_xrcd_obj *obj = NULL;
	struct fake_xrcd *h;
	struct stat st;
	int has_file = attr->fd >= 0;

	fake_calls.open_xrcd++;
	if (fake_fail_with) {
		errno = fake_fail_with;
		return NULL;
	}
	if (has_file && fstat(attr->fd, &st)) {
		errno = EBADF;
		return NULL;
	}
	for (int i = 0; has_file && i < MAX_XRCD; i++)
		if (xrcd_objs[i].used && xrcd_objs[i].has_file &&
		    xrcd_objs[i].dev == st.st_dev && xrcd_objs[i].ino == st.st_ino)
			obj = &xrcd_objs[i];
	for (int i = 0; !obj && i < MAX_XRCD; i++)
		if (!xrcd_objs[i].used) {
			obj = &xrcd_objs[i];
			obj->used = 1;
			obj->has_file = has_file;
			if (has_file) {
				obj->dev = st.st_dev;
				obj->ino = st.st_ino;
			}
		}
	h = calloc(1, sizeof(*h));
	h->xrcd.context = context;
	h->handle = next_handle++;
	h->obj = obj;
	h->ctx = to_ctx(context);
	h->next = handles;
	handles = h;
	return &h->xrcd;
}

static void unlink_handle(struct fake_xrcd *h)
{
	for (struct fake_xrcd **p = &handles; *p; p = &(*p)->next)
		if (*p == h) {
			*p = h->next;
			break;
		}
	free(h);
}

static int fake_close_xrcd(struct ibv_xrcd *x)
{
	struct fake_xrcd *h = to_xrcd(x);

	fake_calls.close_xrcd++;
	if (fake_fail_with)
		return fake_fail_with;
	if (ctx_handles_on(h->ctx, h->obj) == 1 && ctx_refs_on(h->ctx, h->obj))
		return EBUSY;
	unlink_handle(h);
	return 0;
}

static struct ibv_srq *fake_create_srq_ex(struct ibv_context *context,
					  struct ibv_srq_init_attr_ex *attr)
{
	struct ibv_srq *srq;

	fake_calls.create_srq++;
	fake_last_srq_attr = *attr;
	if (fake_fail_with) {
		errno = fake_fail_with;
		return NULL;
	}
	srq = calloc(1, sizeof(*srq));
	srq->context = context;
	srq->srq_context = attr->srq_context;
	return srq;
}

static int fake_get_srq_num(struct ibv_srq *srq, uint32_t *num)
{
	*num = 0x42;
	return 0;
}

static int fake_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr,
			  struct ibv_send_wr **bad_wr)
{
	fake_calls.post_send++;
	fake_last_send_wr = *wr;
	return 0;
}

struct ibv_context *fake_open_context(void)
{
	for (int i = 0; i < MAX_CTX; i++)
		if (!ctxs[i].open) {
			struct fake_ctx *c = &ctxs[i];

			memset(c, 0, sizeof(*c));
			c->idx = i;
			c->open = 1;
			c->vctx.sz = sizeof(c->vctx);
			c->vctx.context.abi_compat = __VERBS_ABI_IS_EXTENDED;
			c->vctx.open_xrcd = fake_open_xrcd;
			c->vctx.close_xrcd = fake_close_xrcd;
			c->vctx.create_srq_ex = fake_create_srq_ex;
			c->vctx.get_srq_num = fake_get_srq_num;
			c->vctx.context.ops.post_send = fake_post_send;
			return &c->vctx.context;
		}
	return NULL;
}

void fake_close_context(struct ibv_context *ctx)
{
	struct fake_ctx *c = to_ctx(ctx);
	struct fake_xrcd *h, *next;

	for (int i = 0; i < MAX_QP; i++)
		if (qps[i].used && qps[i].refs[c->idx])
			put_qp_ref(&qps[i], c->idx, 1);
	for (h = handles; h; h = next) {
		next = h->next;
		if (h->ctx == c)
			unlink_handle(h);
	}
	c->open = 0;
}

int fake_qp_exists(uint32_t qpn)
{
	return find_qp(NULL, qpn) != NULL;
}

int fake_qp_refs(struct ibv_context *ctx, uint32_t qpn)
{
	struct fake_qp *qp = find_qp(NULL, qpn);

	return qp ? qp->refs[to_ctx(ctx)->idx] : 0;
}

int fake_qp_state(uint32_t qpn)
{
	struct fake_qp *qp = find_qp(NULL, qpn);

	return qp ? qp->state : -1;
}

/* The four verbs, with the kernel's semantics (abi.md) */
int ibv_reg_xrc_rcv_qp(struct ibv_xrcd *xrcd, uint32_t *qp_num)
{
	struct fake_xrcd *h = to_xrcd(xrcd);
	struct fake_qp *qp;

	fake_calls.reg++;
	if (fake_fail_with)
		return fake_fail_with;
	if (*qp_num == IBV_XRC_RCV_QPN_NEW) {
		for (int i = 0; i < MAX_QP; i++)
			if (!qps[i].used) {
				qp = &qps[i];
				qp->used = 1;
				qp->qpn = next_qpn++;
				qp->xrcd = h->obj;
				qp->state = IBV_QPS_RESET;
				qp->refs[h->ctx->idx] = 1;
				*qp_num = qp->qpn;
				return 0;
			}
		return ENOMEM;
	}
	qp = find_qp(h->obj, *qp_num);
	if (!qp)
		return EINVAL;
	qp->refs[h->ctx->idx]++;
	return 0;
}

int ibv_unreg_xrc_rcv_qp(struct ibv_xrcd *xrcd, uint32_t qp_num)
{
	struct fake_xrcd *h = to_xrcd(xrcd);
	struct fake_qp *qp;

	fake_calls.unreg++;
	if (fake_fail_with)
		return fake_fail_with;
	qp = find_qp(h->obj, qp_num);
	if (!qp || !qp->refs[h->ctx->idx])
		return EINVAL;
	put_qp_ref(qp, h->ctx->idx, 0);
	return 0;
}

int ibv_modify_xrc_rcv_qp(struct ibv_xrcd *xrcd, uint32_t qp_num,
			  struct ibv_qp_attr *attr, int attr_mask)
{
	struct fake_xrcd *h = to_xrcd(xrcd);
	struct fake_qp *qp;

	fake_calls.modify++;
	if (fake_fail_with)
		return fake_fail_with;
	qp = find_qp(h->obj, qp_num);
	if (!qp || !qp->refs[h->ctx->idx])
		return EINVAL;
	if (attr_mask & IBV_QP_STATE)
		qp->state = attr->qp_state;
	return 0;
}

int ibv_query_xrc_rcv_qp(struct ibv_xrcd *xrcd, uint32_t qp_num,
			 struct ibv_qp_attr *attr, int attr_mask,
			 struct ibv_qp_init_attr *init_attr)
{
	struct fake_xrcd *h = to_xrcd(xrcd);
	struct fake_qp *qp;

	fake_calls.query++;
	if (fake_fail_with)
		return fake_fail_with;
	qp = find_qp(h->obj, qp_num);
	if (!qp || !qp->refs[h->ctx->idx])
		return EINVAL;
	memset(attr, 0, sizeof(*attr));
	memset(init_attr, 0, sizeof(*init_attr));
	attr->qp_state = qp->state;
	init_attr->qp_type = IBV_QPT_XRC_RECV;
	return 0;
}

/* Referenced by the inline ibv_create_srq_ex() for basic SRQs: not used */
struct ibv_srq *ibv_create_srq(struct ibv_pd *pd, struct ibv_srq_init_attr *attr)
{
	errno = EOPNOTSUPP;
	return NULL;
}

/* The QP verbs of rdma-core, with the kernel's checks (fake_verbs.h) */
struct ibv_qp *ibv_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *attr)
{
	struct ibv_qp *qp;

	fake_calls.create_qp++;
	fake_last_qp_attr = *attr;
	if (fake_fail_with) {
		errno = fake_fail_with;
		return NULL;
	}
	switch (attr->qp_type) {
	case IBV_QPT_RC:
	case IBV_QPT_UC:
	case IBV_QPT_UD:
		break;
	case IBV_QPT_XRC_SEND:
		if (attr->srq) {
			errno = EINVAL;
			return NULL;
		}
		break;
	default:
		errno = EINVAL;
		return NULL;
	}
	qp = calloc(1, sizeof(*qp));
	if (!qp) {
		errno = ENOMEM;
		return NULL;
	}
	qp->context = pd->context;
	qp->qp_context = attr->qp_context;
	qp->pd = pd;
	qp->send_cq = attr->send_cq;
	qp->recv_cq = attr->recv_cq;
	qp->srq = attr->srq;
	qp->qp_num = next_qpn++;
	qp->state = IBV_QPS_RESET;
	qp->qp_type = attr->qp_type;
	if (attr->cap.max_inline_data < FAKE_INLINE)
		attr->cap.max_inline_data = FAKE_INLINE;
	fake_live_qps++;
	return qp;
}

int ibv_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask)
{
	fake_calls.modify_qp++;
	fake_last_qp_mask = attr_mask;
	if (fake_fail_with)
		return fake_fail_with;
	if (qp->qp_type == IBV_QPT_XRC_SEND &&
	    attr_mask & (IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER))
		return EINVAL;
	if (attr_mask & IBV_QP_STATE)
		qp->state = attr->qp_state;
	return 0;
}

int ibv_destroy_qp(struct ibv_qp *qp)
{
	fake_calls.destroy_qp++;
	free(qp);
	fake_live_qps--;
	return 0;
}
