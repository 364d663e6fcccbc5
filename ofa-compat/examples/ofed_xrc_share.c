// SPDX-License-Identifier: (GPL-2.0 OR Linux-OpenIB)
/*
 * An OFED 1.5-style XRC program on ofa_verbs.h, the way MPI libraries set
 * up XRC connections: several processes of one node share one receive QP
 * for a remote peer. The first creates it, the others register it by
 * number, the QP is moved to RTR, an event reaches every process, and the
 * processes leave in any order - the creator first, some by unregistering,
 * some by just exiting - while the QP lives on until the last one goes.
 *
 *   ofed_xrc_share [NPROC]     (default 4)
 *
 * Needs an XRC device with the XRC receive QP verbs; events are raised
 * through xrc_sim's debugfs inject_event when it is there. Exits 0 when
 * every step did what OFED 1.5 code expects, 77 without a device.
 *
 * The one source change from OFED 1.5 is marked "ofa_verbs.h:".
 */
#include <infiniband/ofa_verbs.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define INJECT "/sys/kernel/debug/xrc_sim/inject_event"
#define LIVE_QPS "/sys/kernel/debug/xrc_sim/live_qps"

static int nproc = 4, me = -1;
#define MAX_PROC 64

static int to_parent[2], go[MAX_PROC][2], qpn_pipe[2];

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

	for (i = first; i < nproc; i++)
		if (read(to_parent[0], &c, 1) != 1)
			fail("a child died");
	for (i = first; i < nproc; i++)
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

static void child(int dom_fd, int exit_by_unreg)
{
	struct ibv_device **list;
	struct ibv_context *ctx;
	struct ibv_xrc_domain *dom;
	struct ofa_qp_init_attr init_attr;	/* ofa_verbs.h: was struct ibv_qp_init_attr */
	struct ibv_qp_init_attr qinit;
	struct ibv_qp_attr attr;
	struct ibv_async_event ev;
	struct pollfd pfd;
	uint32_t qpn;
	int i, ret;

	/* keep only this child's ends, so that a dead parent is noticed */
	close(to_parent[0]);
	for (i = 0; i < nproc; i++) {
		close(go[i][1]);
		if (i != me)
			close(go[i][0]);
	}

	list = ibv_get_device_list(NULL);
	if (!list || !list[0])
		fail("no RDMA device");
	ctx = ibv_open_device(list[0]);
	if (!ctx)
		fail("ibv_open_device: %s", strerror(errno));
	ibv_free_device_list(list);
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

int main(int argc, char **argv)
{
	char path[] = "/tmp/ofed_xrc_share-XXXXXX";
	struct ibv_device **list;
	long live_before, live_after;
	int i, n, status, fd, bad = 0;
	pid_t pid;

	if (argc > 1)
		nproc = atoi(argv[1]);
	if (nproc < 2)
		nproc = 2;
	if (nproc > MAX_PROC)
		nproc = MAX_PROC;
	list = ibv_get_device_list(&n);
	if (!list || !n) {
		printf("ofed_xrc_share: no RDMA device: skipped\n");
		return 77;
	}
	ibv_free_device_list(list);

	fd = mkstemp(path);
	if (fd < 0 || pipe(to_parent) || pipe(qpn_pipe))
		fail("setup: %s", strerror(errno));
	for (i = 0; i < nproc; i++)
		if (pipe(go[i]))
			fail("setup: %s", strerror(errno));
	/* a child that fails leaves the others waiting: give up in time */
	alarm(120);
	unlink(path);
	live_before = read_long(LIVE_QPS);
	fflush(stdout);

	for (i = 0; i < nproc; i++) {
		pid = fork();
		if (pid < 0)
			fail("fork");
		if (!pid) {
			me = i;
			child(fd, i % 2 == 1);
		}
	}
	release_from(0);		/* created and registered */
	release_from(0);		/* RTR */
	release_from(0);		/* queried */
	release_from(0);		/* events */
	release_from(0);		/* the creator leaves */
	release_from(1);		/* the rest leave */
	for (i = 0; i < nproc; i++) {
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
