// SPDX-License-Identifier: (GPL-2.0 OR Linux-OpenIB)
/*
 * An OFED 1.5-style XRC program on ofa_verbs.h, the way MPI libraries set
 * up XRC connections: several processes of one node share one receive QP
 * for a remote peer. The first creates it, the others register it by
 * number, the QP is moved to RTR, an event reaches every process, and the
 * processes leave in any order - the creator first, some by unregistering,
 * some by just exiting - while the QP lives on until the last one goes.
 *
 *   ofed_xrc_share [-d IBDEV] [NPROC]            (default 4)
 *   ofed_xrc_share --send [-d IBDEV] [NPROC]
 *
 * With --send the processes also exchange messages, the OFED 1.5 way:
 * each of the NPROC processes creates an XRC SRQ (ibv_create_xrc_srq())
 * and posts receives; the first creates the shared receive QP, the others
 * register it; one more process, the initiator, creates an IBV_QPT_XRC
 * send QP, the first process moves the receive QP to INIT and RTR with
 * ibv_modify_xrc_rcv_qp(), the initiator connects its QP to it (RoCE: a
 * global route from and to the IPv4-mapped GID of port 1, whose index is
 * found by scanning the GID table; InfiniBand: the port's LID) and sends
 * one message of MSG_LEN bytes to each process's SRQ, naming it in
 * wr.xrc_remote_srq_num. Every process checks the payload, the length
 * and the receiving QP of its message and says so; the exit status is 0
 * only if every message arrived intact. It needs a device that moves data
 * (soft-RoCE with XRC, or hardware), not the simulated one.
 *
 * The device is IBDEV, or the first one. Needs an XRC device with the
 * XRC receive QP verbs; events are raised through xrc_sim's debugfs
 * inject_event when it is there (not with --send). Exits 0 when every
 * step did what OFED 1.5 code expects, 77 without a device.
 *
 * The source changes from OFED 1.5 are marked "ofa_verbs.h:".
 */
#include <infiniband/ofa_verbs.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define INJECT "/sys/kernel/debug/xrc_sim/inject_event"
#define LIVE_QPS "/sys/kernel/debug/xrc_sim/live_qps"

static int nproc = 4, me = -1;
#define MAX_PROC 64

/* the processes the parent drives: nproc, and the initiator with --send */
static int nchild;
static const char *ibdev;	/* -d, or NULL for the first device */

static int to_parent[2], go[MAX_PROC + 1][2], qpn_pipe[2];

static void fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "ofed_xrc_share[%d]: FAIL: ", me);
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	_exit(1);
}

static void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (nchild > nproc && me == nproc)
		printf("[initiator] ");
	else
		printf("[%s%d] ", me < 0 ? "parent" : "proc ", me < 0 ? 0 : me);
	vprintf(fmt, ap);
	printf("\n");
	fflush(stdout);
	va_end(ap);
}

/* Child: report a phase done, wait for the parent's go (its own pipe) */
static void barrier(void)
{
	char c = 0;

	if (write(to_parent[1], &c, 1) != 1 || read(go[me][0], &c, 1) != 1)
		fail("lost the parent");
}

/* Parent: wait until the children from `first` on reported, release them */
static void release_from(int first)
{
	char c = 0;
	int i;

	for (i = first; i < nchild; i++)
		if (read(to_parent[0], &c, 1) != 1)
			fail("a child died");
	for (i = first; i < nchild; i++)
		if (write(go[i][1], &c, 1) != 1)
			fail("cannot release");
}

static long read_long(const char *path)
{
	char buf[32] = "";
	long v = -1;
	FILE *f = fopen(path, "r");

	if (f) {
		if (fgets(buf, sizeof(buf), f))
			v = strtol(buf, NULL, 0);
		fclose(f);
	}
	return v;
}

/* The device named by -d, or the first one */
static struct ibv_context *open_ctx(void)
{
	struct ibv_device **list;
	struct ibv_context *ctx;
	int i;

	list = ibv_get_device_list(NULL);
	if (!list || !list[0])
		fail("no RDMA device");
	for (i = 0; ibdev && list[i]; i++)
		if (!strcmp(ibv_get_device_name(list[i]), ibdev))
			break;
	if (!list[i])
		fail("no RDMA device %s", ibdev);
	ctx = ibv_open_device(list[i]);
	if (!ctx)
		fail("ibv_open_device: %s", strerror(errno));
	ibv_free_device_list(list);
	return ctx;
}

/* Keep only this child's ends, so that a dead parent is noticed */
static void keep_own_pipes(void)
{
	int i;

	close(to_parent[0]);
	for (i = 0; i < nchild; i++) {
		close(go[i][1]);
		if (i != me)
			close(go[i][0]);
	}
}

static void child(int dom_fd, int exit_by_unreg)
{
	struct ibv_context *ctx;
	struct ibv_xrc_domain *dom;
	struct ofa_qp_init_attr init_attr;	/* ofa_verbs.h: was struct ibv_qp_init_attr */
	struct ibv_qp_init_attr qinit;
	struct ibv_qp_attr attr;
	struct ibv_async_event ev;
	struct pollfd pfd;
	uint32_t qpn;
	int i, ret;

	keep_own_pipes();
	ctx = open_ctx();
	dom = ibv_open_xrc_domain(ctx, dom_fd, O_CREAT);
	if (!dom)
		fail("ibv_open_xrc_domain: %s", strerror(errno));

	/* 1. the first process creates the receive QP, the others wait */
	if (me == 0) {
		memset(&init_attr, 0, sizeof(init_attr));
		init_attr.xrc_domain = dom;
		init_attr.qp_type = IBV_QPT_XRC_RECV;
		ret = ibv_create_xrc_rcv_qp(&init_attr, &qpn);
		if (ret)
			fail("ibv_create_xrc_rcv_qp: %s", strerror(ret));
		say("created receive QP 0x%x", qpn);
		for (i = 1; i < nproc; i++)
			if (write(qpn_pipe[1], &qpn, sizeof(qpn)) != sizeof(qpn))
				fail("qpn pipe");
	} else {
		if (read(qpn_pipe[0], &qpn, sizeof(qpn)) != sizeof(qpn))
			fail("qpn pipe");
		/* 2. ... and register it; twice, as OFED 1.5 allowed */
		ret = ibv_reg_xrc_rcv_qp(dom, qpn);
		if (ret)
			fail("ibv_reg_xrc_rcv_qp: %s", strerror(ret));
		ret = ibv_reg_xrc_rcv_qp(dom, qpn);
		if (ret)
			fail("second ibv_reg_xrc_rcv_qp: %s", strerror(ret));
		say("registered QP 0x%x", qpn);
	}
	barrier();

	/* 3. the creator moves it to RTR, as the connection handshake does */
	if (me == 0) {
		memset(&attr, 0, sizeof(attr));
		attr.qp_state = IBV_QPS_INIT;
		attr.pkey_index = 0;
		attr.port_num = 1;
		attr.qp_access_flags = 0;
		ret = ibv_modify_xrc_rcv_qp(dom, qpn, &attr,
					    IBV_QP_STATE | IBV_QP_PKEY_INDEX |
					    IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
		if (ret)
			fail("modify to INIT: %s", strerror(ret));
		memset(&attr, 0, sizeof(attr));
		attr.qp_state = IBV_QPS_RTR;
		attr.path_mtu = IBV_MTU_1024;
		attr.dest_qp_num = 0x1234;
		attr.rq_psn = 0x77;
		attr.max_dest_rd_atomic = 1;
		attr.min_rnr_timer = 12;
		attr.ah_attr.dlid = 1;
		attr.ah_attr.port_num = 1;
		ret = ibv_modify_xrc_rcv_qp(dom, qpn, &attr,
					    IBV_QP_STATE | IBV_QP_AV |
					    IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
					    IBV_QP_RQ_PSN |
					    IBV_QP_MAX_DEST_RD_ATOMIC |
					    IBV_QP_MIN_RNR_TIMER);
		if (ret)
			fail("modify to RTR: %s", strerror(ret));
		say("moved QP 0x%x to RTR", qpn);
	}
	barrier();

	/* 4. every process sees the shared QP in RTR */
	ret = ibv_query_xrc_rcv_qp(dom, qpn, &attr, IBV_QP_STATE, &qinit);
	if (ret)
		fail("ibv_query_xrc_rcv_qp: %s", strerror(ret));
	if (attr.qp_state != IBV_QPS_RTR || attr.dest_qp_num != 0x1234)
		fail("QP state %d, dest QP 0x%x", attr.qp_state, attr.dest_qp_num);
	barrier();

	/* 5. the device raises an event; every process gets it once */
	if (access(INJECT, W_OK) == 0) {
		if (me == 0) {
			FILE *f = fopen(INJECT, "w");

			/* 4: IB_EVENT_COMM_EST */
			if (!f || fprintf(f, "0x%x 4\n", qpn) < 0 || fclose(f))
				fail("cannot inject an event");
		}
		pfd.fd = ctx->async_fd;
		pfd.events = POLLIN;
		if (poll(&pfd, 1, 5000) != 1)
			fail("no async event");
		if (ibv_get_async_event(ctx, &ev))
			fail("ibv_get_async_event: %s", strerror(errno));
		if (!(ev.event_type & IBV_XRC_QP_EVENT_FLAG) ||
		    (ev.event_type & ~IBV_XRC_QP_EVENT_FLAG) != IBV_EVENT_COMM_EST ||
		    ev.element.xrc_qp_num != qpn)
			fail("event 0x%x on 0x%x", ev.event_type, ev.element.xrc_qp_num);
		ibv_ack_async_event(&ev);
		if (poll(&pfd, 1, 100) != 0)
			fail("the event came twice");
		say("got COMM_EST for QP 0x%x, once", qpn);
	}
	barrier();

	/* 6. the creator leaves first */
	if (me == 0) {
		ret = ibv_unreg_xrc_rcv_qp(dom, qpn);
		if (ret)
			fail("ibv_unreg_xrc_rcv_qp: %s", strerror(ret));
		ret = ibv_close_xrc_domain(dom);
		if (ret)
			fail("ibv_close_xrc_domain: %s", strerror(ret));
		ibv_close_device(ctx);
		say("unregistered and left");
		barrier();
		_exit(0);
	}
	barrier();

	/* 7. the QP outlives its creator */
	ret = ibv_query_xrc_rcv_qp(dom, qpn, &attr, IBV_QP_STATE, &qinit);
	if (ret || attr.qp_state != IBV_QPS_RTR)
		fail("QP gone with its creator: %s", strerror(ret));
	/* one unregistration releases a double registration (OFED 1.5) */
	if (exit_by_unreg) {
		ret = ibv_unreg_xrc_rcv_qp(dom, qpn);
		if (ret)
			fail("ibv_unreg_xrc_rcv_qp: %s", strerror(ret));
		ret = ibv_unreg_xrc_rcv_qp(dom, qpn);
		if (ret != EINVAL)
			fail("second unreg gave %d, not EINVAL", ret);
		ret = ibv_close_xrc_domain(dom);
		if (ret)
			fail("ibv_close_xrc_domain: %s", strerror(ret));
		say("unregistered and left");
	} else {
		say("left without unregistering");
	}
	barrier();
	_exit(0);	/* exit drops whatever is left */
}

/* ---- --send: messages through the shared receive QP ---- */

#define MSG_LEN		2500	/* three packets at a 1024-byte MTU */
#define RECVS		4
#define TIMEOUT_MS	10000

/*
 * What the processes tell each other, in memory shared across fork():
 * written before a barrier, read after it (the pipes order them).
 */
struct board {
	uint32_t rcv_qpn;		/* the shared receive QP (process 0) */
	uint32_t ini_qpn;		/* the initiator's XRC send QP */
	union ibv_gid rcv_gid, ini_gid;	/* RoCE: the two ends' GIDs */
	uint16_t rcv_lid, ini_lid;	/* InfiniBand: their LIDs */
	uint32_t srqn[MAX_PROC];	/* each process's XRC SRQ */
};

static struct board *board;

/* This process's verbs objects, and how the others reach it */
static struct {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	struct ibv_xrc_domain *dom;
	char *buf;
	int roce;		/* Ethernet link layer: routed by GID */
	int gidx;		/* RoCE: the IPv4-mapped GID's index, port 1 */
	union ibv_gid gid;
	uint16_t lid;
} nd;

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * RoCE v2 routes by IP: the GID to use is the IPv4-mapped one
 * (::ffff:a.b.c.d), wherever the GID table holds it.
 */
static int find_ipv4_gid(int len, union ibv_gid *gid)
{
	static const uint8_t mapped[12] = { [10] = 0xff, [11] = 0xff };
	int i;

	for (i = 0; i < len; i++)
		if (!ibv_query_gid(nd.ctx, 1, i, gid) &&
		    !memcmp(gid->raw, mapped, sizeof(mapped)))
			return i;
	return -1;
}

static void node_open(int dom_fd, size_t buflen, int cqe)
{
	struct ibv_port_attr pa;

	nd.ctx = open_ctx();
	if (ibv_query_port(nd.ctx, 1, &pa))
		fail("ibv_query_port: %s", strerror(errno));
	nd.roce = pa.link_layer == IBV_LINK_LAYER_ETHERNET;
	nd.lid = pa.lid;
	if (nd.roce) {
		nd.gidx = find_ipv4_gid(pa.gid_tbl_len, &nd.gid);
		if (nd.gidx < 0)
			fail("port 1 has no IPv4-mapped GID");
	}
	nd.buf = calloc(1, buflen);
	nd.pd = ibv_alloc_pd(nd.ctx);
	nd.cq = nd.pd ? ibv_create_cq(nd.ctx, cqe, NULL, NULL, 0) : NULL;
	nd.mr = nd.cq && nd.buf ? ibv_reg_mr(nd.pd, nd.buf, buflen,
					     IBV_ACCESS_LOCAL_WRITE) : NULL;
	if (!nd.mr)
		fail("PD, CQ or MR: %s", strerror(errno));
	nd.dom = ibv_open_xrc_domain(nd.ctx, dom_fd, O_CREAT);
	if (!nd.dom)
		fail("ibv_open_xrc_domain: %s", strerror(errno));
}

/* After the SRQ or QP: the domain refuses to go while they use it */
static void node_close(void)
{
	int ret = ibv_close_xrc_domain(nd.dom);

	if (ret)
		fail("ibv_close_xrc_domain: %s", strerror(ret));
	if (ibv_dereg_mr(nd.mr) || ibv_destroy_cq(nd.cq) ||
	    ibv_dealloc_pd(nd.pd) || ibv_close_device(nd.ctx))
		fail("cannot release the MR, CQ, PD or device");
	free(nd.buf);
}

/* To a peer: from our GID to its GID on RoCE, to its LID on InfiniBand */
static struct ibv_ah_attr route_to(const union ibv_gid *gid, uint16_t lid)
{
	struct ibv_ah_attr av;

	memset(&av, 0, sizeof(av));
	av.port_num = 1;
	if (nd.roce) {
		av.is_global = 1;
		av.grh.dgid = *gid;
		av.grh.sgid_index = nd.gidx;
		av.grh.hop_limit = 64;
	} else {
		av.dlid = lid;
	}
	return av;
}

/* The message for process i: its name, then a pattern of i and offset */
static void fill_msg(char *p, int i)
{
	int k, n;

	n = snprintf(p, MSG_LEN, "ofed_xrc_share: message for process %d", i);
	for (k = n + 1; k < MSG_LEN; k++)
		p[k] = (char)(i * 31 + k);
}

/* 1 with a completion, 0 at the deadline, < 0 on a CQ error */
static int poll_one(struct ibv_wc *wc, long deadline)
{
	int n;

	do {
		n = ibv_poll_cq(nd.cq, 1, wc);
		if (n)
			return n;
		usleep(1000);
	} while (now_ms() < deadline);
	return 0;
}

/* Receiver: an XRC SRQ of the shared domain, with receives posted */
static struct ibv_srq *make_srq(void)
{
	struct ibv_srq_init_attr attr;
	struct ibv_srq *srq;
	int i, ret;

	memset(&attr, 0, sizeof(attr));
	attr.attr.max_wr = RECVS;
	attr.attr.max_sge = 1;
	srq = ibv_create_xrc_srq(nd.pd, nd.dom, nd.cq, &attr);
	if (!srq)
		fail("ibv_create_xrc_srq: %s", strerror(errno));
	for (i = 0; i < RECVS; i++) {
		struct ibv_sge sge = {
			.addr = (uintptr_t)nd.buf + i * MSG_LEN,
			.length = MSG_LEN,
			.lkey = nd.mr->lkey,
		};
		struct ibv_recv_wr wr = {
			.wr_id = i, .sg_list = &sge, .num_sge = 1,
		}, *bad_wr;

		ret = ibv_post_srq_recv(srq, &wr, &bad_wr);
		if (ret)
			fail("ibv_post_srq_recv: %s", strerror(ret));
	}
	return srq;
}

/* Process 0: the shared receive QP, as in the default mode */
static uint32_t make_rcv_qp(void)
{
	struct ofa_qp_init_attr init_attr;	/* ofa_verbs.h: was struct ibv_qp_init_attr */
	uint32_t qpn;
	int ret;

	memset(&init_attr, 0, sizeof(init_attr));
	init_attr.xrc_domain = nd.dom;
	ret = ibv_create_xrc_rcv_qp(&init_attr, &qpn);
	if (ret)
		fail("ibv_create_xrc_rcv_qp: %s", strerror(ret));
	return qpn;
}

/* Process 0: INIT, then RTR towards the initiator's send QP */
static void rcv_qp_to_rtr(uint32_t qpn)
{
	struct ibv_qp_attr attr;
	int ret;

	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_INIT;
	attr.port_num = 1;
	ret = ibv_modify_xrc_rcv_qp(nd.dom, qpn, &attr,
				    IBV_QP_STATE | IBV_QP_PKEY_INDEX |
				    IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
	if (ret)
		fail("receive QP to INIT: %s", strerror(ret));
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_RTR;
	attr.path_mtu = IBV_MTU_1024;
	attr.dest_qp_num = board->ini_qpn;
	attr.rq_psn = 0;
	attr.max_dest_rd_atomic = 1;
	attr.min_rnr_timer = 12;
	attr.ah_attr = route_to(&board->ini_gid, board->ini_lid);
	ret = ibv_modify_xrc_rcv_qp(nd.dom, qpn, &attr,
				    IBV_QP_STATE | IBV_QP_AV |
				    IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
				    IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
				    IBV_QP_MIN_RNR_TIMER);
	if (ret)
		fail("receive QP to RTR: %s", strerror(ret));
}

/* Receiver: this process's message, checked; 0 if it arrived intact */
static int check_msg(void)
{
	char want[MSG_LEN], *got;
	struct ibv_wc wc;
	int n;

	n = poll_one(&wc, now_ms() + TIMEOUT_MS);
	if (n <= 0) {
		say("FAIL: %s", n ? "ibv_poll_cq failed" : "no message came");
		return -1;
	}
	if (wc.status != IBV_WC_SUCCESS || wc.wr_id >= RECVS) {
		say("FAIL: receive completed with %s (wr_id %llu)",
		    ibv_wc_status_str(wc.status), (unsigned long long)wc.wr_id);
		return -1;
	}
	got = nd.buf + wc.wr_id * MSG_LEN;
	fill_msg(want, me);
	if (wc.opcode != IBV_WC_RECV || wc.byte_len != MSG_LEN ||
	    wc.qp_num != board->rcv_qpn || memcmp(got, want, MSG_LEN)) {
		say("FAIL: opcode %d, %u bytes (want %d), through QP 0x%x (want 0x%x), \"%.48s\"",
		    wc.opcode, wc.byte_len, MSG_LEN, wc.qp_num, board->rcv_qpn,
		    got);
		return -1;
	}
	say("received \"%s\": %u bytes, payload intact, through QP 0x%x into SRQ 0x%x",
	    got, wc.byte_len, wc.qp_num, board->srqn[me]);
	return 0;
}

/* Initiator: an XRC send QP, the OFED 1.5 way */
static struct ibv_qp *make_send_qp(void)
{
	struct ofa_qp_init_attr init_attr;	/* ofa_verbs.h: was struct ibv_qp_init_attr */
	struct ibv_qp *qp;

	memset(&init_attr, 0, sizeof(init_attr));
	init_attr.send_cq = nd.cq;
	init_attr.recv_cq = nd.cq;
	init_attr.cap.max_send_wr = nproc;
	init_attr.cap.max_send_sge = 1;
	init_attr.qp_type = IBV_QPT_XRC;
	init_attr.xrc_domain = nd.dom;
	qp = ibv_create_qp(nd.pd, &init_attr);
	if (!qp)
		fail("ibv_create_qp(IBV_QPT_XRC): %s", strerror(errno));
	return qp;
}

/* Initiator: INIT, RTR, RTS, with the masks OFED 1.5 code used for RC */
static void send_qp_connect(struct ibv_qp *qp)
{
	struct ibv_qp_attr attr;
	int ret;

	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_INIT;
	attr.port_num = 1;
	ret = ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			    IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
	if (ret)
		fail("send QP to INIT: %s", strerror(ret));
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_RTR;
	attr.path_mtu = IBV_MTU_1024;
	attr.dest_qp_num = board->rcv_qpn;
	attr.rq_psn = 0;
	attr.max_dest_rd_atomic = 1;
	attr.min_rnr_timer = 12;
	attr.ah_attr = route_to(&board->rcv_gid, board->rcv_lid);
	ret = ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_AV |
			    IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
			    IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER);
	if (ret)
		fail("send QP to RTR: %s", strerror(ret));
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_RTS;
	attr.sq_psn = 0;
	attr.timeout = 14;
	attr.retry_cnt = 7;
	attr.rnr_retry = 7;
	attr.max_rd_atomic = 1;
	ret = ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_TIMEOUT |
			    IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			    IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
	if (ret)
		fail("send QP to RTS: %s", strerror(ret));
}

/* Initiator: one message to each process's SRQ; 0 if all completed */
static int send_all(struct ibv_qp *qp)
{
	struct ibv_wc wc;
	long deadline;
	int i, ret, done, bad = 0;

	for (i = 0; i < nproc; i++) {
		struct ibv_sge sge = {
			.addr = (uintptr_t)nd.buf + i * MSG_LEN,
			.length = MSG_LEN,
			.lkey = nd.mr->lkey,
		};
		struct ibv_send_wr wr, *bad_wr;

		fill_msg(nd.buf + i * MSG_LEN, i);
		memset(&wr, 0, sizeof(wr));
		wr.wr_id = i;
		wr.sg_list = &sge;
		wr.num_sge = 1;
		wr.opcode = IBV_WR_SEND;
		wr.send_flags = IBV_SEND_SIGNALED;
		wr.xrc_remote_srq_num = board->srqn[i];	/* OFED 1.5's member */
		ret = ibv_post_send(qp, &wr, &bad_wr);
		if (ret) {
			say("FAIL: ibv_post_send to SRQ 0x%x: %s",
			    board->srqn[i], strerror(ret));
			return -1;
		}
	}
	deadline = now_ms() + TIMEOUT_MS;
	for (done = 0; done < nproc; done++) {
		if (poll_one(&wc, deadline) <= 0) {
			say("FAIL: %d of %d sends completed", done, nproc);
			return -1;
		}
		if (wc.status != IBV_WC_SUCCESS || wc.opcode != IBV_WC_SEND) {
			say("FAIL: the send to process %llu: %s",
			    (unsigned long long)wc.wr_id,
			    ibv_wc_status_str(wc.status));
			bad++;
		}
	}
	if (!bad)
		say("sent %d messages of %d bytes through QP 0x%x", nproc,
		    MSG_LEN, qp->qp_num);
	return bad ? -1 : 0;
}

/*
 * Processes 0..nproc-1 receive, process nproc (the initiator) sends.
 * Exits 0 only if this process's part went through.
 */
static void send_child(int dom_fd)
{
	int initiator = me == nproc, ret, bad;
	struct ibv_srq *srq = NULL;
	struct ibv_qp *qp = NULL;

	keep_own_pipes();
	if (initiator)
		node_open(dom_fd, nproc * MSG_LEN, nproc);
	else
		node_open(dom_fd, RECVS * MSG_LEN, RECVS);

	/* 1. an SRQ each, the shared receive QP, the initiator's send QP */
	if (initiator) {
		qp = make_send_qp();
		board->ini_qpn = qp->qp_num;
		board->ini_gid = nd.gid;
		board->ini_lid = nd.lid;
		say("created XRC send QP 0x%x", qp->qp_num);
	} else {
		srq = make_srq();
		/* ofa_verbs.h: was srq->xrc_srq_num */
		board->srqn[me] = ofa_xrc_srq_num(srq);
		if (!board->srqn[me])
			fail("no number for the XRC SRQ");
		if (me == 0) {
			board->rcv_qpn = make_rcv_qp();
			board->rcv_gid = nd.gid;
			board->rcv_lid = nd.lid;
			say("created receive QP 0x%x", board->rcv_qpn);
		}
		say("XRC SRQ 0x%x, %d receives posted", board->srqn[me], RECVS);
	}
	barrier();

	/* 2. the others register the receive QP, the first moves it to RTR */
	if (!initiator && me != 0) {
		ret = ibv_reg_xrc_rcv_qp(nd.dom, board->rcv_qpn);
		if (ret)
			fail("ibv_reg_xrc_rcv_qp: %s", strerror(ret));
	}
	if (me == 0) {
		rcv_qp_to_rtr(board->rcv_qpn);
		say("moved receive QP 0x%x to RTR, from send QP 0x%x",
		    board->rcv_qpn, board->ini_qpn);
	}
	barrier();

	/* 3. the initiator connects and sends, every process checks */
	if (initiator) {
		send_qp_connect(qp);
		bad = send_all(qp) != 0;
	} else {
		bad = check_msg() != 0;
	}
	barrier();

	/* 4. everything goes */
	if (initiator) {
		ret = ibv_destroy_qp(qp);
		if (ret)
			fail("ibv_destroy_qp: %s", strerror(ret));
	} else {
		ret = ibv_unreg_xrc_rcv_qp(nd.dom, board->rcv_qpn);
		if (ret)
			fail("ibv_unreg_xrc_rcv_qp: %s", strerror(ret));
		ret = ibv_destroy_srq(srq);
		if (ret)
			fail("ibv_destroy_srq: %s", strerror(ret));
	}
	node_close();
	_exit(bad);
}

/* Parent, --send: the three phases, then every process's verdict */
static int send_results(void)
{
	int i, status, bad = 0;

	release_from(0);		/* SRQs and QPs created */
	release_from(0);		/* registered, receive QP in RTR */
	release_from(0);		/* sent and received */
	for (i = 0; i < nchild; i++)
		if (wait(&status) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			bad++;
	if (bad) {
		printf("ofed_xrc_share: FAILED (%d of %d processes failed)\n",
		       bad, nchild);
		return 1;
	}
	printf("ofed_xrc_share: %d messages through one shared receive QP, each intact: passed\n",
	       nproc);
	return 0;
}

/* Whether the device -d names (or any device) is there */
static int have_device(void)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	int i, found = 0;

	for (i = 0; list && list[i] && !found; i++)
		found = !ibdev || !strcmp(ibv_get_device_name(list[i]), ibdev);
	if (list)
		ibv_free_device_list(list);
	return found;
}

int main(int argc, char **argv)
{
	char path[] = "/tmp/ofed_xrc_share-XXXXXX";
	struct ibv_device **list;
	long live_before, live_after;
	int i, n, status, fd, send_mode = 0, have_nproc = 0, bad = 0;
	pid_t pid;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--send"))
			send_mode = 1;
		else if (!strcmp(argv[i], "-d") && i + 1 < argc)
			ibdev = argv[++i];
		else if (!have_nproc++)
			nproc = atoi(argv[i]);
	}
	if (nproc < 2)
		nproc = 2;
	if (nproc > MAX_PROC)
		nproc = MAX_PROC;
	nchild = send_mode ? nproc + 1 : nproc;
	list = ibv_get_device_list(&n);
	if (!list || !n) {
		printf("ofed_xrc_share: no RDMA device: skipped\n");
		return 77;
	}
	ibv_free_device_list(list);
	if (!have_device()) {
		printf("ofed_xrc_share: no RDMA device %s\n", ibdev);
		return 1;
	}

	fd = mkstemp(path);
	if (fd < 0 || pipe(to_parent) || pipe(qpn_pipe))
		fail("setup: %s", strerror(errno));
	if (send_mode) {
		board = mmap(NULL, sizeof(*board), PROT_READ | PROT_WRITE,
			     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (board == MAP_FAILED)
			fail("setup: %s", strerror(errno));
	}
	for (i = 0; i < nchild; i++)
		if (pipe(go[i]))
			fail("setup: %s", strerror(errno));
	/* a child that fails leaves the others waiting: give up in time */
	alarm(120);
	unlink(path);
	live_before = read_long(LIVE_QPS);
	fflush(stdout);

	for (i = 0; i < nchild; i++) {
		pid = fork();
		if (pid < 0)
			fail("fork");
		if (!pid) {
			me = i;
			if (send_mode)
				send_child(fd);
			else
				child(fd, i % 2 == 1);
		}
	}
	if (send_mode)
		return send_results();
	release_from(0);		/* created and registered */
	release_from(0);		/* RTR */
	release_from(0);		/* queried */
	release_from(0);		/* events */
	release_from(0);		/* the creator leaves */
	release_from(1);		/* the rest leave */
	for (i = 0; i < nchild; i++) {
		if (wait(&status) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
			bad++;
	}
	live_after = read_long(LIVE_QPS);
	if (live_before >= 0)
		say("live QPs on the device: %ld before, %ld after", live_before,
		    live_after);
	if (bad || live_after != live_before) {
		printf("ofed_xrc_share: FAILED (%d processes failed)\n", bad);
		return 1;
	}
	printf("ofed_xrc_share: %d processes shared one receive QP: passed\n", nproc);
	return 0;
}
