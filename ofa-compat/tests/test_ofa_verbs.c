// SPDX-License-Identifier: (GPL-2.0 OR Linux-OpenIB)
/*
 * Host tests of the OFED 1.5 compatibility library, against the fake
 * libibverbs of fake_verbs.c: no device needed. The calls are written the
 * way OFED 1.5 code writes them, with the source changes the header
 * documents (struct ofa_qp_init_attr for the variable carrying xrc_domain,
 * &init_attr.base where it goes through a function pointer, and
 * ofa_xrc_srq_num(srq) for srq->xrc_srq_num) and no others.
 */
#include <infiniband/ofa_verbs.h>
#include "fake_verbs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int passed, failed, current_failed;

#define CHECK(cond)                                                           \
	do {                                                                  \
		if (!(cond)) {                                                \
			printf("  %s:%d: %s\n", __FILE__, __LINE__, #cond);   \
			current_failed = 1;                                   \
		}                                                             \
	} while (0)

#define CHECK_EQ(a, b)                                                        \
	do {                                                                  \
		long long _a = (a), _b = (b);                                 \
		if (_a != _b) {                                               \
			printf("  %s:%d: %s == %lld, expected %s == %lld\n",  \
			       __FILE__, __LINE__, #a, _a, #b, _b);           \
			current_failed = 1;                                   \
		}                                                             \
	} while (0)

static char path[] = "/tmp/ofa-compat-test-XXXXXX";
static int fd = -1;

static void run(const char *name, void (*fn)(void))
{
	current_failed = 0;
	fake_fail_with = 0;
	fake_reset_calls();
	fn();
	if (current_failed) {
		failed++;
		printf("not ok %d - %s\n", passed + failed, name);
	} else {
		passed++;
		printf("ok %d - %s\n", passed + failed, name);
	}
}

/* What OFED 1.5 code does to create a receive QP: the one changed line */
static int create_rcv_qp(struct ibv_xrc_domain *dom, uint32_t *qpn)
{
	struct ofa_qp_init_attr init_attr;	/* was: struct ibv_qp_init_attr */

	memset(&init_attr, 0, sizeof(init_attr));
	init_attr.xrc_domain = dom;
	init_attr.cap.max_send_wr = 1;	/* ignored, as by OFED 1.5's kernel */
	init_attr.cap.max_recv_wr = 1;
	init_attr.qp_type = IBV_QPT_XRC_RECV;
	return ibv_create_xrc_rcv_qp(&init_attr, qpn);
}

static void test_open_and_close_a_domain(void)
{
	struct ibv_context *ctx = fake_open_context();
	struct ibv_xrc_domain *dom = ibv_open_xrc_domain(ctx, fd, O_CREAT);

	CHECK(dom != NULL);
	CHECK(dom->context == ctx);
	CHECK(dom->xrcd != NULL);
	CHECK_EQ(ibv_close_xrc_domain(dom), 0);
	fake_close_context(ctx);
}

static void test_open_failure_is_null_with_errno(void)
{
	struct ibv_context *ctx = fake_open_context();

	fake_fail_with = EINVAL;
	errno = 0;
	CHECK(ibv_open_xrc_domain(ctx, fd, O_CREAT) == NULL);
	CHECK_EQ(errno, EINVAL);
	errno = 0;
	CHECK(ibv_open_xrc_domain(NULL, fd, O_CREAT) == NULL);
	CHECK_EQ(errno, EINVAL);
	fake_close_context(ctx);
}

static void test_no_xrc_support_is_enosys(void)
{
	struct ibv_context *ctx = fake_open_context();
	struct ibv_xrc_domain *dom = ibv_open_xrc_domain(ctx, fd, O_CREAT);
	uint32_t qpn;

	fake_fail_with = EOPNOTSUPP;
	CHECK_EQ(create_rcv_qp(dom, &qpn), ENOSYS);
	fake_fail_with = EPROTONOSUPPORT;
	CHECK_EQ(ibv_reg_xrc_rcv_qp(dom, 0x100), ENOSYS);
	errno = 0;
	fake_fail_with = EOPNOTSUPP;
	CHECK(ibv_open_xrc_domain(ctx, fd, O_CREAT) == NULL);
	CHECK_EQ(errno, ENOSYS);
	fake_fail_with = 0;
	CHECK_EQ(ibv_close_xrc_domain(dom), 0);
	fake_close_context(ctx);
}

static void test_create_takes_one_reference(void)
{
	struct ibv_context *ctx = fake_open_context();
	struct ibv_xrc_domain *dom = ibv_open_xrc_domain(ctx, fd, O_CREAT);
	uint32_t qpn = 0;

	CHECK_EQ(create_rcv_qp(dom, &qpn), 0);
	CHECK(qpn != 0 && qpn != IBV_XRC_RCV_QPN_NEW);
	CHECK_EQ(fake_qp_refs(ctx, qpn), 1);
	CHECK_EQ(fake_qp_state(qpn), IBV_QPS_RESET);
	CHECK_EQ(ibv_unreg_xrc_rcv_qp(dom, qpn), 0);
	CHECK(!fake_qp_exists(qpn));
	CHECK_EQ(ibv_close_xrc_domain(dom), 0);
	fake_close_context(ctx);
}

static void test_create_without_a_domain_is_einval(void)
{
	struct ofa_qp_init_attr init_attr;
	uint32_t qpn;

	memset(&init_attr, 0, sizeof(init_attr));
	CHECK_EQ(ibv_create_xrc_rcv_qp(&init_attr, &qpn), EINVAL);
	CHECK_EQ(ibv_create_xrc_rcv_qp(NULL, &qpn), EINVAL);
	CHECK_EQ(fake_calls.reg, 0);
}

/* OFED 1.5 semantics: a context registers a QP at most once */
static void test_second_registration_by_one_context_changes_nothing(void)
{
	struct ibv_context *ctx = fake_open_context();
	struct ibv_xrc_domain *dom = ibv_open_xrc_domain(ctx, fd, O_CREAT);
	uint32_t qpn;

	CHECK_EQ(create_rcv_qp(dom, &qpn), 0);
	fake_reset_calls();
	CHECK_EQ(ibv_reg_xrc_rcv_qp(dom, qpn), 0);
	CHECK_EQ(ibv_reg_xrc_rcv_qp(dom, qpn), 0);
	CHECK_EQ(fake_calls.reg, 0);
	CHECK_EQ(fake_qp_refs(ctx, qpn), 1);
	/* ... and one unregistration releases it */
	CHECK_EQ(ibv_unreg_xrc_rcv_qp(dom, qpn), 0);
	CHECK(!fake_qp_exists(qpn));
	CHECK_EQ(ibv_unreg_xrc_rcv_qp(dom, qpn), EINVAL);
	CHECK_EQ(fake_calls.unreg, 1);
	CHECK_EQ(ibv_close_xrc_domain(dom), 0);
	fake_close_context(ctx);
}

static void test_two_handles_on_one_domain_share_registrations(void)
{
	struct ibv_context *ctx = fake_open_context();
	struct ibv_xrc_domain *a = ibv_open_xrc_domain(ctx, fd, O_CREAT);
	struct ibv_xrc_domain *b = ibv_open_xrc_domain(ctx, fd, 0);
	uint32_t qpn;

	CHECK(a && b && a != b);
	CHECK_EQ(create_rcv_qp(a, &qpn), 0);
	CHECK_EQ(ibv_reg_xrc_rcv_qp(b, qpn), 0);
	CHECK_EQ(fake_qp_refs(ctx, qpn), 1);
	/* closing one of two handles succeeds, the registration stays */
	CHECK_EQ(ibv_close_xrc_domain(a), 0);
	CHECK(fake_qp_exists(qpn));
	CHECK_EQ(ibv_unreg_xrc_rcv_qp(b, qpn), 0);
	CHECK(!fake_qp_exists(qpn));
	CHECK_EQ(ibv_close_xrc_domain(b), 0);
	fake_close_context(ctx);
}

static void test_processes_share_a_qp_and_leave_in_any_order(void)
{
	struct ibv_context *c[3];
	struct ibv_xrc_domain *d[3];
	uint32_t qpn;
	int i;

	for (i = 0; i < 3; i++) {
		c[i] = fake_open_context();
		d[i] = ibv_open_xrc_domain(c[i], fd, O_CREAT);
		CHECK(d[i] != NULL);
	}
	CHECK_EQ(create_rcv_qp(d[0], &qpn), 0);
	CHECK_EQ(ibv_reg_xrc_rcv_qp(d[1], qpn), 0);
	CHECK_EQ(ibv_reg_xrc_rcv_qp(d[2], qpn), 0);
	/* the creator leaves first, by unregistering */
	CHECK_EQ(ibv_unreg_xrc_rcv_qp(d[0], qpn), 0);
	CHECK_EQ(ibv_close_xrc_domain(d[0]), 0);
	CHECK(fake_qp_exists(qpn));
	/* another one exits without unregistering */
	fake_close_context(c[2]);
	CHECK(fake_qp_exists(qpn));
	CHECK_EQ(ibv_unreg_xrc_rcv_qp(d[1], qpn), 0);
	CHECK(!fake_qp_exists(qpn));
	CHECK_EQ(ibv_close_xrc_domain(d[1]), 0);
	fake_close_context(c[0]);
	fake_close_context(c[1]);
	free(d[2]);	/* its context went away under it, as at exit */
}

static void test_unreg_of_an_unregistered_qp_is_einval(void)
{
	struct ibv_context *c1 = fake_open_context();
	struct ibv_context *c2 = fake_open_context();
	struct ibv_xrc_domain *d1 = ibv_open_xrc_domain(c1, fd, O_CREAT);
	struct ibv_xrc_domain *d2 = ibv_open_xrc_domain(c2, fd, O_CREAT);
	uint32_t qpn;

	CHECK_EQ(create_rcv_qp(d1, &qpn), 0);
	CHECK_EQ(ibv_unreg_xrc_rcv_qp(d2, qpn), EINVAL);
	CHECK_EQ(ibv_reg_xrc_rcv_qp(d2, 0xabcdef), EINVAL);
	CHECK_EQ(ibv_reg_xrc_rcv_qp(d2, IBV_XRC_RCV_QPN_NEW), EINVAL);
	CHECK(fake_qp_exists(qpn));
	CHECK_EQ(ibv_unreg_xrc_rcv_qp(d1, qpn), 0);
	CHECK_EQ(ibv_close_xrc_domain(d1), 0);
	CHECK_EQ(ibv_close_xrc_domain(d2), 0);
	fake_close_context(c1);
	fake_close_context(c2);
}

static void test_modify_and_query_pass_through(void)
{
	struct ibv_context *c1 = fake_open_context();
	struct ibv_context *c2 = fake_open_context();
	struct ibv_xrc_domain *d1 = ibv_open_xrc_domain(c1, fd, O_CREAT);
	struct ibv_xrc_domain *d2 = ibv_open_xrc_domain(c2, fd, O_CREAT);
	struct ibv_qp_attr attr;
	struct ibv_qp_init_attr init_attr;
	uint32_t qpn;

	CHECK_EQ(create_rcv_qp(d1, &qpn), 0);
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_INIT;
	attr.port_num = 1;
	CHECK_EQ(ibv_modify_xrc_rcv_qp(d1, qpn, &attr,
				       IBV_QP_STATE | IBV_QP_PKEY_INDEX |
				       IBV_QP_PORT | IBV_QP_ACCESS_FLAGS), 0);
	CHECK_EQ(fake_qp_state(qpn), IBV_QPS_INIT);
	memset(&attr, 0xff, sizeof(attr));
	CHECK_EQ(ibv_query_xrc_rcv_qp(d1, qpn, &attr, IBV_QP_STATE, &init_attr), 0);
	CHECK_EQ(attr.qp_state, IBV_QPS_INIT);
	CHECK_EQ(init_attr.qp_type, IBV_QPT_XRC_RECV);
	/* the kernel's errors come back as errno values */
	CHECK_EQ(ibv_query_xrc_rcv_qp(d2, qpn, &attr, IBV_QP_STATE, &init_attr), EINVAL);
	CHECK_EQ(ibv_modify_xrc_rcv_qp(d2, qpn, &attr, IBV_QP_STATE), EINVAL);
	CHECK_EQ(ibv_unreg_xrc_rcv_qp(d1, qpn), 0);
	CHECK_EQ(ibv_close_xrc_domain(d1), 0);
	CHECK_EQ(ibv_close_xrc_domain(d2), 0);
	fake_close_context(c1);
	fake_close_context(c2);
}

static void test_close_with_registrations_is_ebusy(void)
{
	struct ibv_context *ctx = fake_open_context();
	struct ibv_xrc_domain *dom = ibv_open_xrc_domain(ctx, fd, O_CREAT);
	uint32_t qpn;

	CHECK_EQ(create_rcv_qp(dom, &qpn), 0);
	CHECK_EQ(ibv_close_xrc_domain(dom), EBUSY);
	/* the domain is still usable */
	CHECK_EQ(ibv_unreg_xrc_rcv_qp(dom, qpn), 0);
	CHECK_EQ(ibv_close_xrc_domain(dom), 0);
	fake_close_context(ctx);
}

static void test_private_domains_do_not_share(void)
{
	struct ibv_context *ctx = fake_open_context();
	struct ibv_xrc_domain *a = ibv_open_xrc_domain(ctx, -1, 0);
	struct ibv_xrc_domain *b = ibv_open_xrc_domain(ctx, -1, 0);
	uint32_t qpn;

	CHECK(a && b);
	CHECK(a->shared != b->shared);
	CHECK_EQ(create_rcv_qp(a, &qpn), 0);
	CHECK_EQ(ibv_reg_xrc_rcv_qp(b, qpn), EINVAL);
	CHECK_EQ(ibv_unreg_xrc_rcv_qp(a, qpn), 0);
	CHECK_EQ(ibv_close_xrc_domain(a), 0);
	CHECK_EQ(ibv_close_xrc_domain(b), 0);
	fake_close_context(ctx);
}

static void test_create_xrc_srq_makes_an_xrc_srq(void)
{
	struct ibv_context *ctx = fake_open_context();
	struct ibv_xrc_domain *dom = ibv_open_xrc_domain(ctx, fd, O_CREAT);
	struct ibv_pd pd = { .context = ctx };
	struct ibv_cq cq = { .context = ctx };
	struct ibv_srq_init_attr attr;
	struct ibv_srq *srq;

	memset(&attr, 0, sizeof(attr));
	attr.srq_context = &pd;
	attr.attr.max_wr = 16;
	attr.attr.max_sge = 1;
	srq = ibv_create_xrc_srq(&pd, dom, &cq, &attr);
	CHECK(srq != NULL);
	CHECK_EQ(fake_last_srq_attr.srq_type, IBV_SRQT_XRC);
	CHECK(fake_last_srq_attr.xrcd == dom->xrcd);
	CHECK(fake_last_srq_attr.cq == &cq);
	CHECK(fake_last_srq_attr.pd == &pd);
	CHECK_EQ(fake_last_srq_attr.attr.max_wr, 16);
	CHECK(fake_last_srq_attr.srq_context == &pd);
	CHECK_EQ(fake_last_srq_attr.comp_mask,
		 IBV_SRQ_INIT_ATTR_TYPE | IBV_SRQ_INIT_ATTR_PD |
		 IBV_SRQ_INIT_ATTR_XRCD | IBV_SRQ_INIT_ATTR_CQ);
	CHECK_EQ(ofa_xrc_srq_num(srq), 0x42);
	free(srq);
	errno = 0;
	CHECK(ibv_create_xrc_srq(&pd, NULL, &cq, &attr) == NULL);
	CHECK_EQ(errno, EINVAL);
	CHECK_EQ(ibv_close_xrc_domain(dom), 0);
	fake_close_context(ctx);
}

/* Source compatibility: OFED 1.5's names, types and event format compile */
static void test_ofed_signatures_and_event_format(void)
{
	int (*reg)(struct ibv_xrc_domain *, uint32_t) = ibv_reg_xrc_rcv_qp;
	int (*unreg)(struct ibv_xrc_domain *, uint32_t) = ibv_unreg_xrc_rcv_qp;
	int (*create)(struct ofa_qp_init_attr *, uint32_t *) = ibv_create_xrc_rcv_qp;
	struct ibv_xrc_domain *(*open)(struct ibv_context *, int, int) =
		ibv_open_xrc_domain;
	struct ibv_async_event ev;
	struct ofa_qp_init_attr ia;

	CHECK(reg && unreg && create && open);
	memset(&ev, 0, sizeof(ev));
	ev.event_type = (enum ibv_event_type)(IBV_EVENT_COMM_EST | IBV_XRC_QP_EVENT_FLAG);
	ev.element.xrc_qp_num = 0x123;
	CHECK(ev.event_type & IBV_XRC_QP_EVENT_FLAG);
	CHECK_EQ(ev.event_type & ~IBV_XRC_QP_EVENT_FLAG, IBV_EVENT_COMM_EST);
	CHECK_EQ(ev.element.xrc_qp_num, 0x123);
	/* struct ofa_qp_init_attr is struct ibv_qp_init_attr, plus xrc_domain */
	CHECK_EQ(offsetof(struct ofa_qp_init_attr, cap),
		 offsetof(struct ibv_qp_init_attr, cap));
	CHECK_EQ(offsetof(struct ofa_qp_init_attr, sq_sig_all),
		 offsetof(struct ibv_qp_init_attr, sq_sig_all));
	CHECK(offsetof(struct ofa_qp_init_attr, xrc_domain) >=
	      sizeof(struct ibv_qp_init_attr));
	ia.srq = (struct ibv_srq *)&ia;
	CHECK(ia.base.srq == (struct ibv_srq *)&ia);
}

/* What OFED 1.5 code does to create an XRC send QP: the one changed line */
static void xrc_send_init_attr(struct ofa_qp_init_attr *init_attr,
			       struct ibv_xrc_domain *dom, struct ibv_cq *cq)
{
	memset(init_attr, 0, sizeof(*init_attr));
	init_attr->qp_context = cq;
	init_attr->send_cq = cq;
	init_attr->recv_cq = cq;	/* as MVAPICH2 passes it; ignored */
	init_attr->cap.max_send_wr = 16;
	init_attr->cap.max_recv_wr = 16;
	init_attr->cap.max_send_sge = 1;
	init_attr->cap.max_recv_sge = 1;
	init_attr->cap.max_inline_data = 8;
	init_attr->qp_type = IBV_QPT_XRC;
	init_attr->sq_sig_all = 1;
	init_attr->xrc_domain = dom;
}

static void test_ofed_xrc_qp_type_is_no_rdma_core_type(void)
{
	CHECK_EQ(IBV_QPT_XRC, 5);	/* OFED 1.5's: RC 2, UC, UD, XRC */
	CHECK(IBV_QPT_XRC != IBV_QPT_RC && IBV_QPT_XRC != IBV_QPT_UC &&
	      IBV_QPT_XRC != IBV_QPT_UD && IBV_QPT_XRC != IBV_QPT_RAW_PACKET &&
	      IBV_QPT_XRC != IBV_QPT_XRC_SEND &&
	      IBV_QPT_XRC != IBV_QPT_XRC_RECV && IBV_QPT_XRC != IBV_QPT_DRIVER);
}

static void test_xrc_qp_is_an_xrc_send_qp(void)
{
	struct ibv_context *ctx = fake_open_context();
	struct ibv_xrc_domain *dom = ibv_open_xrc_domain(ctx, fd, O_CREAT);
	struct ibv_pd pd = { .context = ctx };
	struct ibv_cq cq = { .context = ctx };
	struct ofa_qp_init_attr init_attr;
	struct ibv_qp *qp;

	xrc_send_init_attr(&init_attr, dom, &cq);
	qp = ibv_create_qp(&pd, &init_attr);
	CHECK(qp != NULL);
	CHECK_EQ(fake_calls.create_qp, 1);
	CHECK_EQ(fake_last_qp_attr.qp_type, IBV_QPT_XRC_SEND);
	CHECK(fake_last_qp_attr.send_cq == &cq);
	CHECK(fake_last_qp_attr.recv_cq == NULL);
	CHECK(fake_last_qp_attr.srq == NULL);
	CHECK(fake_last_qp_attr.qp_context == &cq);
	CHECK_EQ(fake_last_qp_attr.sq_sig_all, 1);
	CHECK_EQ(fake_last_qp_attr.cap.max_send_wr, 16);
	CHECK_EQ(fake_last_qp_attr.cap.max_send_sge, 1);
	CHECK_EQ(fake_last_qp_attr.cap.max_recv_wr, 0);
	CHECK_EQ(fake_last_qp_attr.cap.max_recv_sge, 0);
	if (qp) {
		CHECK_EQ(qp->qp_type, IBV_QPT_XRC_SEND);
		CHECK(qp->pd == &pd);
	}
	/* the granted sizes come back, as from ibv_create_qp() */
	CHECK_EQ(init_attr.cap.max_inline_data, FAKE_INLINE);
	CHECK(init_attr.xrc_domain == dom);
	CHECK_EQ(init_attr.qp_type, IBV_QPT_XRC);
	CHECK_EQ(fake_live_qps, 1);
	CHECK_EQ(ibv_destroy_qp(qp), 0);
	CHECK_EQ(fake_live_qps, 0);
	CHECK_EQ(ibv_close_xrc_domain(dom), 0);
	fake_close_context(ctx);
}

/* MVAPICH2 keeps the verbs in function pointers: ibv_ops.create_qp */
static void test_function_pointers_get_the_mapping(void)
{
	struct ibv_qp *(*create_qp)(struct ibv_pd *, struct ibv_qp_init_attr *) =
		ibv_create_qp;
	int (*modify_qp)(struct ibv_qp *, struct ibv_qp_attr *, int) =
		ibv_modify_qp;
	struct ibv_context *ctx = fake_open_context();
	struct ibv_xrc_domain *dom = ibv_open_xrc_domain(ctx, fd, O_CREAT);
	struct ibv_pd pd = { .context = ctx };
	struct ibv_cq cq = { .context = ctx };
	struct ofa_qp_init_attr init_attr;
	struct ibv_qp_attr attr;
	struct ibv_qp *qp;

	CHECK(create_qp == ofa_create_qp);
	CHECK(modify_qp == ofa_modify_qp);
	xrc_send_init_attr(&init_attr, dom, &cq);
	qp = create_qp(&pd, &init_attr.base);
	CHECK(qp != NULL);
	CHECK_EQ(fake_last_qp_attr.qp_type, IBV_QPT_XRC_SEND);
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_INIT;
	CHECK_EQ(modify_qp(qp, &attr, IBV_QP_STATE), 0);
	if (qp)
		CHECK_EQ(qp->state, IBV_QPS_INIT);
	CHECK_EQ(ibv_destroy_qp(qp), 0);
	CHECK_EQ(fake_live_qps, 0);
	CHECK_EQ(ibv_close_xrc_domain(dom), 0);
	fake_close_context(ctx);
}

/*
 * The same, with the table filled the way MVAPICH2 fills its ibv_ops: the
 * member name pasted onto "ibv_", so the pasted name meets the header's
 * macros. Its create_xrc_rcv_qp member takes OFED's struct (README).
 */
struct verbs_table {
	struct ibv_qp *(*create_qp)(struct ibv_pd *, struct ibv_qp_init_attr *);
	int (*modify_qp)(struct ibv_qp *, struct ibv_qp_attr *, int);
	struct ibv_srq *(*create_xrc_srq)(struct ibv_pd *,
					  struct ibv_xrc_domain *,
					  struct ibv_cq *,
					  struct ibv_srq_init_attr *);
	int (*create_xrc_rcv_qp)(struct ofa_qp_init_attr *, uint32_t *);
	int (*reg_xrc_rcv_qp)(struct ibv_xrc_domain *, uint32_t);
};
#define TABLE_TAKE(table, prefix, verb) ((table).verb = prefix##_##verb)

static void test_pasted_names_get_the_mapping(void)
{
	struct verbs_table t;

	TABLE_TAKE(t, ibv, create_qp);
	TABLE_TAKE(t, ibv, modify_qp);
	TABLE_TAKE(t, ibv, create_xrc_srq);
	TABLE_TAKE(t, ibv, create_xrc_rcv_qp);
	TABLE_TAKE(t, ibv, reg_xrc_rcv_qp);
	CHECK(t.create_qp == ofa_create_qp);
	CHECK(t.modify_qp == ofa_modify_qp);
	CHECK(t.create_xrc_srq == ofa_create_xrc_srq);
	CHECK(t.create_xrc_rcv_qp == ofa_create_xrc_rcv_qp);
	CHECK(t.reg_xrc_rcv_qp == ofa_reg_xrc_rcv_qp);
}

static void test_other_qp_types_reach_rdma_core_unchanged(void)
{
	struct ibv_context *ctx = fake_open_context();
	struct ibv_pd pd = { .context = ctx };
	struct ibv_cq cq = { .context = ctx };
	struct ibv_qp_init_attr plain;
	struct ofa_qp_init_attr ofed;
	struct ibv_qp *qp;

	/* rdma-core's own struct goes straight to rdma-core */
	memset(&plain, 0, sizeof(plain));
	plain.send_cq = plain.recv_cq = &cq;
	plain.cap.max_recv_wr = 4;
	plain.qp_type = IBV_QPT_RC;
	qp = ibv_create_qp(&pd, &plain);
	CHECK(qp != NULL);
	CHECK_EQ(fake_last_qp_attr.qp_type, IBV_QPT_RC);
	CHECK(fake_last_qp_attr.recv_cq == &cq);
	CHECK_EQ(fake_last_qp_attr.cap.max_recv_wr, 4);
	CHECK_EQ(ibv_destroy_qp(qp), 0);
	/* ... and so does OFED's, for any type but IBV_QPT_XRC */
	memset(&ofed, 0, sizeof(ofed));
	ofed.send_cq = ofed.recv_cq = &cq;
	ofed.qp_type = IBV_QPT_UD;
	qp = ibv_create_qp(&pd, &ofed);
	CHECK(qp != NULL);
	CHECK_EQ(fake_last_qp_attr.qp_type, IBV_QPT_UD);
	CHECK(fake_last_qp_attr.recv_cq == &cq);
	CHECK_EQ(ibv_destroy_qp(qp), 0);
	CHECK_EQ(fake_calls.create_qp, 2);
	CHECK_EQ(fake_live_qps, 0);
	fake_close_context(ctx);
}

/* IBV_QPT_XRC without OFED's struct has no domain: rdma-core refuses it */
static void test_xrc_type_in_rdma_core_struct_is_refused(void)
{
	struct ibv_context *ctx = fake_open_context();
	struct ibv_pd pd = { .context = ctx };
	struct ibv_cq cq = { .context = ctx };
	struct ibv_qp_init_attr plain;

	memset(&plain, 0, sizeof(plain));
	plain.send_cq = plain.recv_cq = &cq;
	plain.qp_type = IBV_QPT_XRC;
	errno = 0;
	CHECK(ibv_create_qp(&pd, &plain) == NULL);
	CHECK_EQ(errno, EINVAL);
	CHECK_EQ(fake_last_qp_attr.qp_type, IBV_QPT_XRC);	/* not mapped */
	CHECK_EQ(fake_live_qps, 0);
	fake_close_context(ctx);
}

static void test_bad_xrc_qp_is_einval_and_changes_nothing(void)
{
	struct ibv_context *ctx = fake_open_context();
	struct ibv_context *other = fake_open_context();
	struct ibv_xrc_domain *dom = ibv_open_xrc_domain(ctx, fd, O_CREAT);
	struct ibv_xrc_domain *odom = ibv_open_xrc_domain(other, fd, O_CREAT);
	struct ibv_pd pd = { .context = ctx };
	struct ibv_cq cq = { .context = ctx };
	struct ofa_qp_init_attr init_attr, before;

	xrc_send_init_attr(&init_attr, NULL, &cq);
	before = init_attr;
	errno = 0;
	CHECK(ibv_create_qp(&pd, &init_attr) == NULL);
	CHECK_EQ(errno, EINVAL);
	/* a domain of another device context */
	init_attr.xrc_domain = before.xrc_domain = odom;
	errno = 0;
	CHECK(ibv_create_qp(&pd, &init_attr) == NULL);
	CHECK_EQ(errno, EINVAL);
	/* no domain of this library: one never opened, one closed */
	{
		struct ibv_xrc_domain not_opened = { .context = ctx };
		struct ibv_xrc_domain *closed;

		init_attr.xrc_domain = before.xrc_domain = &not_opened;
		errno = 0;
		CHECK(ibv_create_qp(&pd, &init_attr) == NULL);
		CHECK_EQ(errno, EINVAL);
		closed = ibv_open_xrc_domain(ctx, -1, 0);
		CHECK_EQ(ibv_close_xrc_domain(closed), 0);
		init_attr.xrc_domain = before.xrc_domain = closed;
		errno = 0;
		CHECK(ibv_create_qp(&pd, &init_attr) == NULL);
		CHECK_EQ(errno, EINVAL);
	}
	init_attr.xrc_domain = before.xrc_domain = dom;
	errno = 0;
	CHECK(ibv_create_qp(NULL, &init_attr) == NULL);
	CHECK_EQ(errno, EINVAL);
	CHECK_EQ(fake_calls.create_qp, 0);
	/* no XRC on the device: ENOSYS, as for the receive side */
	fake_fail_with = EOPNOTSUPP;
	errno = 0;
	CHECK(ibv_create_qp(&pd, &init_attr) == NULL);
	CHECK_EQ(errno, ENOSYS);
	fake_fail_with = ENOMEM;
	errno = 0;
	CHECK(ibv_create_qp(&pd, &init_attr) == NULL);
	CHECK_EQ(errno, ENOMEM);
	fake_fail_with = 0;
	CHECK(!memcmp(&init_attr, &before, sizeof(init_attr)));
	CHECK_EQ(fake_live_qps, 0);
	CHECK_EQ(ibv_close_xrc_domain(dom), 0);
	CHECK_EQ(ibv_close_xrc_domain(odom), 0);
	fake_close_context(ctx);
	fake_close_context(other);
}

/* OFED 1.5's RTR mask for XRC was RC's; the kernel's for XRC send is less */
static void test_modify_xrc_qp_drops_responder_attributes(void)
{
	const int rc_rtr = IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
			   IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
			   IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
	struct ibv_context *ctx = fake_open_context();
	struct ibv_xrc_domain *dom = ibv_open_xrc_domain(ctx, fd, O_CREAT);
	struct ibv_pd pd = { .context = ctx };
	struct ibv_cq cq = { .context = ctx };
	struct ofa_qp_init_attr init_attr;
	struct ibv_qp_init_attr plain;
	struct ibv_qp_attr attr;
	struct ibv_qp *xrc, *rc;

	xrc_send_init_attr(&init_attr, dom, &cq);
	xrc = ibv_create_qp(&pd, &init_attr);
	memset(&plain, 0, sizeof(plain));
	plain.send_cq = plain.recv_cq = &cq;
	plain.qp_type = IBV_QPT_RC;
	rc = ibv_create_qp(&pd, &plain);
	CHECK(xrc && rc);
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_RTR;
	CHECK_EQ(ibv_modify_qp(xrc, &attr, rc_rtr), 0);
	CHECK_EQ(fake_last_qp_mask, rc_rtr & ~(IBV_QP_MAX_DEST_RD_ATOMIC |
					       IBV_QP_MIN_RNR_TIMER));
	CHECK_EQ(xrc->state, IBV_QPS_RTR);
	/* an RC QP keeps its mask */
	CHECK_EQ(ibv_modify_qp(rc, &attr, rc_rtr), 0);
	CHECK_EQ(fake_last_qp_mask, rc_rtr);
	/* rdma-core's errors pass through; a NULL QP is refused */
	fake_fail_with = EINVAL;
	CHECK_EQ(ibv_modify_qp(xrc, &attr, IBV_QP_STATE), EINVAL);
	fake_fail_with = 0;
	fake_reset_calls();
	CHECK_EQ(ibv_modify_qp(NULL, &attr, IBV_QP_STATE), EINVAL);
	CHECK_EQ(fake_calls.modify_qp, 0);
	CHECK_EQ(ibv_destroy_qp(xrc), 0);
	CHECK_EQ(ibv_destroy_qp(rc), 0);
	CHECK_EQ(fake_live_qps, 0);
	CHECK_EQ(ibv_close_xrc_domain(dom), 0);
	fake_close_context(ctx);
}

/* srq->xrc_srq_num becomes ofa_xrc_srq_num(srq): 0 where there is none */
static void test_xrc_srq_num_is_0_without_one(void)
{
	struct ibv_context *ctx = fake_open_context();
	struct verbs_context *vctx = verbs_get_ctx(ctx);
	struct ibv_srq srq = { .context = ctx };

	CHECK_EQ(ofa_xrc_srq_num(&srq), 0x42);
	vctx->get_srq_num = NULL;	/* a provider without XRC SRQs */
	CHECK_EQ(ofa_xrc_srq_num(&srq), 0);
	CHECK_EQ(ofa_xrc_srq_num(NULL), 0);
	fake_close_context(ctx);
}

/* wr.xrc_remote_srq_num, OFED 1.5's spelling, is rdma-core's remote_srqn */
static void test_xrc_remote_srq_num_is_remote_srqn(void)
{
	struct ibv_context *ctx = fake_open_context();
	struct ibv_xrc_domain *dom = ibv_open_xrc_domain(ctx, fd, O_CREAT);
	struct ibv_pd pd = { .context = ctx };
	struct ibv_cq cq = { .context = ctx };
	struct ofa_qp_init_attr init_attr;
	struct ibv_send_wr wr, *bad = NULL;
	struct ibv_send_wr init = { .xrc_remote_srq_num = 0x77 };
	struct ibv_qp *qp;

	CHECK_EQ(init.qp_type.xrc.remote_srqn, 0x77);
	CHECK_EQ(offsetof(struct ibv_send_wr, xrc_remote_srq_num),
		 offsetof(struct ibv_send_wr, qp_type.xrc.remote_srqn));
	xrc_send_init_attr(&init_attr, dom, &cq);
	qp = ibv_create_qp(&pd, &init_attr);
	CHECK(qp != NULL);
	memset(&wr, 0, sizeof(wr));
	wr.opcode = IBV_WR_SEND;
	wr.xrc_remote_srq_num = 0x1234;
	CHECK_EQ(wr.qp_type.xrc.remote_srqn, 0x1234);
	if (qp) {
		CHECK_EQ(ibv_post_send(qp, &wr, &bad), 0);
		CHECK_EQ(fake_calls.post_send, 1);
		CHECK_EQ(fake_last_send_wr.qp_type.xrc.remote_srqn, 0x1234);
	}
	CHECK_EQ(ibv_destroy_qp(qp), 0);
	CHECK_EQ(ibv_close_xrc_domain(dom), 0);
	fake_close_context(ctx);
}

int main(void)
{
	fd = mkstemp(path);
	if (fd < 0) {
		perror("mkstemp");
		return 1;
	}
	unlink(path);

	run("open_and_close_a_domain", test_open_and_close_a_domain);
	run("open_failure_is_null_with_errno", test_open_failure_is_null_with_errno);
	run("no_xrc_support_is_enosys", test_no_xrc_support_is_enosys);
	run("create_takes_one_reference", test_create_takes_one_reference);
	run("create_without_a_domain_is_einval", test_create_without_a_domain_is_einval);
	run("second_registration_by_one_context_changes_nothing",
	    test_second_registration_by_one_context_changes_nothing);
	run("two_handles_on_one_domain_share_registrations",
	    test_two_handles_on_one_domain_share_registrations);
	run("processes_share_a_qp_and_leave_in_any_order",
	    test_processes_share_a_qp_and_leave_in_any_order);
	run("unreg_of_an_unregistered_qp_is_einval",
	    test_unreg_of_an_unregistered_qp_is_einval);
	run("modify_and_query_pass_through", test_modify_and_query_pass_through);
	run("close_with_registrations_is_ebusy", test_close_with_registrations_is_ebusy);
	run("private_domains_do_not_share", test_private_domains_do_not_share);
	run("create_xrc_srq_makes_an_xrc_srq", test_create_xrc_srq_makes_an_xrc_srq);
	run("ofed_signatures_and_event_format", test_ofed_signatures_and_event_format);
	run("ofed_xrc_qp_type_is_no_rdma_core_type",
	    test_ofed_xrc_qp_type_is_no_rdma_core_type);
	run("xrc_qp_is_an_xrc_send_qp", test_xrc_qp_is_an_xrc_send_qp);
	run("function_pointers_get_the_mapping",
	    test_function_pointers_get_the_mapping);
	run("pasted_names_get_the_mapping", test_pasted_names_get_the_mapping);
	run("other_qp_types_reach_rdma_core_unchanged",
	    test_other_qp_types_reach_rdma_core_unchanged);
	run("xrc_type_in_rdma_core_struct_is_refused",
	    test_xrc_type_in_rdma_core_struct_is_refused);
	run("bad_xrc_qp_is_einval_and_changes_nothing",
	    test_bad_xrc_qp_is_einval_and_changes_nothing);
	run("modify_xrc_qp_drops_responder_attributes",
	    test_modify_xrc_qp_drops_responder_attributes);
	run("xrc_srq_num_is_0_without_one", test_xrc_srq_num_is_0_without_one);
	run("xrc_remote_srq_num_is_remote_srqn",
	    test_xrc_remote_srq_num_is_remote_srqn);

	close(fd);
	printf("ofa-compat: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
