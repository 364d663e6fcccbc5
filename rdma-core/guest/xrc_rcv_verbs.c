// SPDX-License-Identifier: (GPL-2.0 OR Linux-OpenIB)
/*
 * The patched libibverbs' XRC receive QP verbs on a real device (the
 * xrc_sim guest): through ibv_get_device_list() and the provider, not the
 * raw uverbs ABI. One line per case, then "xrc_rcv_verbs: N passed, N failed".
 */
#include <infiniband/verbs.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int passed, failed, cur;
static struct ibv_context *ctx, *ctx2;
static int dom_fd;

#define CHECK_EQ(a, b)                                                        \
	do {                                                                  \
		long long _a = (a), _b = (b);                                 \
		if (_a != _b) {                                               \
			printf("  line %d: %s == %lld, expected %lld\n",      \
			       __LINE__, #a, _a, _b);                         \
			cur = 1;                                              \
		}                                                             \
	} while (0)

static struct ibv_xrcd *open_xrcd(struct ibv_context *c)
{
	struct ibv_xrcd_init_attr attr = {
		.comp_mask = IBV_XRCD_INIT_ATTR_FD | IBV_XRCD_INIT_ATTR_OFLAGS,
		.fd = dom_fd,
		.oflags = O_CREAT,
	};

	return ibv_open_xrcd(c, &attr);
}

static void run(const char *name, void (*fn)(void))
{
	cur = 0;
	fn();
	printf("%s %d - %s\n", cur ? "not ok" : "ok", passed + failed + 1, name);
	cur ? failed++ : passed++;
}

static void test_reg_new_gives_a_reset_xrc_recv_qp(void)
{
	struct ibv_xrcd *x = open_xrcd(ctx);
	struct ibv_qp_attr attr;
	struct ibv_qp_init_attr init;
	uint32_t qpn = IBV_XRC_RCV_QPN_NEW;

	CHECK_EQ(ibv_reg_xrc_rcv_qp(x, &qpn), 0);
	CHECK_EQ(qpn < (1u << 24), 1);
	CHECK_EQ(ibv_query_xrc_rcv_qp(x, qpn, &attr, IBV_QP_STATE, &init), 0);
	CHECK_EQ(attr.qp_state, IBV_QPS_RESET);
	CHECK_EQ(init.qp_type, IBV_QPT_XRC_RECV);
	CHECK_EQ(ibv_unreg_xrc_rcv_qp(x, qpn), 0);
	CHECK_EQ(ibv_close_xrcd(x), 0);
}

static void test_references_are_counted_per_call(void)
{
	struct ibv_xrcd *x = open_xrcd(ctx);
	uint32_t qpn = IBV_XRC_RCV_QPN_NEW, again;

	CHECK_EQ(ibv_reg_xrc_rcv_qp(x, &qpn), 0);
	again = qpn;
	CHECK_EQ(ibv_reg_xrc_rcv_qp(x, &again), 0);
	CHECK_EQ(again, qpn);
	CHECK_EQ(ibv_unreg_xrc_rcv_qp(x, qpn), 0);
	CHECK_EQ(ibv_unreg_xrc_rcv_qp(x, qpn), 0);
	CHECK_EQ(ibv_unreg_xrc_rcv_qp(x, qpn), EINVAL);
	again = qpn;
	CHECK_EQ(ibv_reg_xrc_rcv_qp(x, &again), EINVAL);
	CHECK_EQ(ibv_close_xrcd(x), 0);
}

static void test_another_context_shares_by_number(void)
{
	struct ibv_xrcd *x1 = open_xrcd(ctx), *x2 = open_xrcd(ctx2);
	struct ibv_qp_attr attr;
	struct ibv_qp_init_attr init;
	uint32_t qpn = IBV_XRC_RCV_QPN_NEW, q2;

	CHECK_EQ(ibv_reg_xrc_rcv_qp(x1, &qpn), 0);
	CHECK_EQ(ibv_query_xrc_rcv_qp(x2, qpn, &attr, IBV_QP_STATE, &init), EINVAL);
	q2 = qpn;
	CHECK_EQ(ibv_reg_xrc_rcv_qp(x2, &q2), 0);
	CHECK_EQ(ibv_unreg_xrc_rcv_qp(x1, qpn), 0);
	CHECK_EQ(ibv_query_xrc_rcv_qp(x2, qpn, &attr, IBV_QP_STATE, &init), 0);
	CHECK_EQ(ibv_unreg_xrc_rcv_qp(x2, qpn), 0);
	CHECK_EQ(ibv_close_xrcd(x1), 0);
	CHECK_EQ(ibv_close_xrcd(x2), 0);
}

static void test_modify_to_rtr_and_query(void)
{
	struct ibv_xrcd *x = open_xrcd(ctx);
	struct ibv_qp_attr attr;
	struct ibv_qp_init_attr init;
	uint32_t qpn = IBV_XRC_RCV_QPN_NEW;

	CHECK_EQ(ibv_reg_xrc_rcv_qp(x, &qpn), 0);
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_INIT;
	attr.port_num = 1;
	CHECK_EQ(ibv_modify_xrc_rcv_qp(x, qpn, &attr, IBV_QP_STATE |
				       IBV_QP_PKEY_INDEX | IBV_QP_PORT |
				       IBV_QP_ACCESS_FLAGS), 0);
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_RTR;
	attr.path_mtu = IBV_MTU_2048;
	attr.dest_qp_num = 0xabc;
	attr.rq_psn = 0x55;
	attr.max_dest_rd_atomic = 2;
	attr.min_rnr_timer = 7;
	attr.ah_attr.dlid = 1;
	attr.ah_attr.port_num = 1;
	CHECK_EQ(ibv_modify_xrc_rcv_qp(x, qpn, &attr, IBV_QP_STATE | IBV_QP_AV |
				       IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
				       IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
				       IBV_QP_MIN_RNR_TIMER), 0);
	memset(&attr, 0, sizeof(attr));
	CHECK_EQ(ibv_query_xrc_rcv_qp(x, qpn, &attr, IBV_QP_STATE, &init), 0);
	CHECK_EQ(attr.qp_state, IBV_QPS_RTR);
	CHECK_EQ(attr.path_mtu, IBV_MTU_2048);
	CHECK_EQ(attr.dest_qp_num, 0xabc);
	CHECK_EQ(attr.rq_psn, 0x55);
	CHECK_EQ(attr.max_dest_rd_atomic, 2);
	CHECK_EQ(attr.min_rnr_timer, 7);
	/* an invalid transition is refused, the QP unchanged */
	attr.qp_state = IBV_QPS_SQD;
	CHECK_EQ(ibv_modify_xrc_rcv_qp(x, qpn, &attr, IBV_QP_STATE), EINVAL);
	/* attributes past the core struct */
	CHECK_EQ(ibv_modify_xrc_rcv_qp(x, qpn, &attr, IBV_QP_RATE_LIMIT), EOPNOTSUPP);
	CHECK_EQ(ibv_unreg_xrc_rcv_qp(x, qpn), 0);
	CHECK_EQ(ibv_close_xrcd(x), 0);
}

static void test_events_carry_the_flag_and_number(void)
{
	struct ibv_xrcd *x = open_xrcd(ctx);
	struct ibv_async_event ev;
	struct pollfd pfd = { .fd = ctx->async_fd, .events = POLLIN };
	uint32_t qpn = IBV_XRC_RCV_QPN_NEW;
	FILE *f;

	CHECK_EQ(ibv_reg_xrc_rcv_qp(x, &qpn), 0);
	f = fopen("/sys/kernel/debug/xrc_sim/inject_event", "w");
	if (!f) {
		printf("  no xrc_sim inject_event: skipped\n");
		goto out;
	}
	fprintf(f, "0x%x 1\n", qpn);	/* IB_EVENT_QP_FATAL */
	fclose(f);
	CHECK_EQ(poll(&pfd, 1, 5000), 1);
	CHECK_EQ(ibv_get_async_event(ctx, &ev), 0);
	CHECK_EQ(ev.event_type, IBV_EVENT_QP_FATAL | IBV_XRC_QP_EVENT_FLAG);
	CHECK_EQ(ev.element.xrc_qp_num, qpn);
	ibv_ack_async_event(&ev);
out:
	CHECK_EQ(ibv_unreg_xrc_rcv_qp(x, qpn), 0);
	CHECK_EQ(ibv_close_xrcd(x), 0);
}

static void test_close_xrcd_with_references_is_busy(void)
{
	struct ibv_xrcd *x = open_xrcd(ctx);
	uint32_t qpn = IBV_XRC_RCV_QPN_NEW;

	CHECK_EQ(ibv_reg_xrc_rcv_qp(x, &qpn), 0);
	CHECK_EQ(ibv_close_xrcd(x), EBUSY);
	CHECK_EQ(ibv_unreg_xrc_rcv_qp(x, qpn), 0);
	CHECK_EQ(ibv_close_xrcd(x), 0);
}

int main(void)
{
	char path[] = "/tmp/xrc_rcv_verbs-XXXXXX";
	struct ibv_device **list;
	int n;

	list = ibv_get_device_list(&n);
	if (!list || !n) {
		printf("xrc_rcv_verbs: no RDMA device: skipped\n");
		return 77;
	}
	printf("xrc_rcv_verbs: device %s\n", ibv_get_device_name(list[0]));
	ctx = ibv_open_device(list[0]);
	ctx2 = ibv_open_device(list[0]);
	ibv_free_device_list(list);
	dom_fd = mkstemp(path);
	if (!ctx || !ctx2 || dom_fd < 0) {
		perror("setup");
		return 1;
	}
	unlink(path);

	run("reg_new_gives_a_reset_xrc_recv_qp", test_reg_new_gives_a_reset_xrc_recv_qp);
	run("references_are_counted_per_call", test_references_are_counted_per_call);
	run("another_context_shares_by_number", test_another_context_shares_by_number);
	run("modify_to_rtr_and_query", test_modify_to_rtr_and_query);
	run("events_carry_the_flag_and_number", test_events_carry_the_flag_and_number);
	run("close_xrcd_with_references_is_busy", test_close_xrcd_with_references_is_busy);

	ibv_close_device(ctx);
	ibv_close_device(ctx2);
	printf("xrc_rcv_verbs: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
