// SPDX-License-Identifier: GPL-2.0
/*
 * xrc_mpi_shape: the memory an MPI job's connections take on one node,
 * with real QPs on soft-RoCE: P processes, each connected to N remote
 * peers.
 *
 *   none      each process: its device context, PD and CQ, no QP (what
 *             every kind has; subtracted from the others)
 *   rc        each process: one RC QP per peer (send and receive queues
 *             of DEPTH work requests each)
 *   rc-srq    each process: one RC QP per peer (send queue of DEPTH) and
 *             one SRQ (SRQ_DEPTH) that they all receive through, as MPI
 *             libraries run RC
 *   xrc       the receive side alone: one XRC receive QP per peer for the
 *             whole node, created by process 0 with ibv_reg_xrc_rcv_qp()
 *             and registered by every other process; one XRC SRQ per
 *             process (SRQ_DEPTH)
 *   xrc-send  xrc, plus one XRC send QP per process per peer (send queue
 *             of DEPTH), which an MPI process also needs to send: one per
 *             remote node, so this counts every peer on a node of its own
 *
 * The processes build their share, report, and wait; the parent then
 * reads /proc/meminfo, lets them go, and prints what the connections
 * took against the same reading before the processes existed:
 *
 *   RXE-BENCH mem kind=<kind> P=<P> N=<N> used_kb=<MemAvailable drop>
 *             slab_kb=<Slab growth> vmalloc_kb=<VmallocUsed growth>
 *
 *   xrc_mpi_shape <ibdev> <none|rc|rc-srq|xrc|xrc-send> <P> <N>
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <infiniband/verbs.h>

#include "common.h"

#define DEPTH		64
#define SRQ_DEPTH	512
#define XRCD_FILE	"/tmp/xrc_mpi_shape.xrcd"

static const char *devname;

static void die(const char *what)
{
	fprintf(stderr, "xrc_mpi_shape: %s: %s\n", what, strerror(errno));
	exit(1);
}

static long meminfo_kb(const char *key)
{
	char line[128];
	size_t n = strlen(key);
	long v = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		die("/proc/meminfo");
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == ':')
			v = strtol(line + n + 1, NULL, 10);
	fclose(f);
	return v;
}

/* RC QPs with receive queues of their own, or all on one SRQ */
static void rc_qps(struct ibv_pd *pd, struct ibv_cq *cq, int n,
		   struct ibv_srq *srq)
{
	struct ibv_qp_init_attr a = {
		.send_cq = cq,
		.recv_cq = cq,
		.srq = srq,
		.cap = { .max_send_wr = DEPTH, .max_recv_wr = srq ? 0 : DEPTH,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.qp_type = IBV_QPT_RC,
	};
	int i;

	for (i = 0; i < n; i++)
		if (!ibv_create_qp(pd, &a))
			die("ibv_create_qp(RC)");
}

static struct ibv_srq *plain_srq(struct ibv_pd *pd)
{
	struct ibv_srq_init_attr a = {
		.attr = { .max_wr = SRQ_DEPTH, .max_sge = 1 },
	};
	struct ibv_srq *srq = ibv_create_srq(pd, &a);

	if (!srq)
		die("ibv_create_srq");
	return srq;
}

static void xrc_send_qps(struct ibv_context *ctx, struct ibv_pd *pd,
			 struct ibv_cq *cq, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!create_xrc_send_qp(ctx, pd, cq, DEPTH))
			die("ibv_create_qp_ex(XRC_SEND)");
}

/*
 * One process's share. Process 0 of an XRC job creates the node's receive
 * QPs; the others read each number from qpn_in and register it; every
 * process but the last passes the numbers on through qpn_out. Then
 * "ready" goes to the parent, and the process waits for the parent to
 * close go.
 */
static void process(const char *kind, int rank, int n, int qpn_in,
		    int qpn_out, int ready, int go)
{
	struct ibv_context *ctx = open_named_device(devname);
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	char c;
	int i;

	if (!ctx)
		die(devname);
	pd = ibv_alloc_pd(ctx);
	cq = ibv_create_cq(ctx, 2 * DEPTH, NULL, NULL, 0);
	if (!pd || !cq)
		die("PD, CQ");
	if (!strcmp(kind, "none")) {
		/* the baseline: nothing more */
	} else if (!strcmp(kind, "rc")) {
		rc_qps(pd, cq, n, NULL);
	} else if (!strcmp(kind, "rc-srq")) {
		rc_qps(pd, cq, n, plain_srq(pd));
	} else {
		struct ibv_xrcd *xrcd = open_shared_xrcd(ctx, XRCD_FILE);

		/* one message for both ways to fail: the file, or the verb */
		if (!xrcd)
			die("ibv_open_xrcd of " XRCD_FILE);
		for (i = 0; i < n; i++) {
			uint32_t qpn = IBV_XRC_RCV_QPN_NEW;

			if (rank && read(qpn_in, &qpn, sizeof(qpn)) != sizeof(qpn))
				die("reading a QP number");
			errno = ibv_reg_xrc_rcv_qp(xrcd, &qpn);
			if (errno)
				die("ibv_reg_xrc_rcv_qp");
			if (qpn_out >= 0 &&
			    write(qpn_out, &qpn, sizeof(qpn)) != sizeof(qpn))
				die("writing a QP number");
		}
		if (!create_xrc_srq(ctx, pd, xrcd, cq, SRQ_DEPTH))
			die("ibv_create_srq_ex(XRC)");
		if (!strcmp(kind, "xrc-send"))
			xrc_send_qps(ctx, pd, cq, n);
	}
	if (write(ready, "r", 1) != 1)
		die("ready");
	/* everything is released by the kernel when the process ends */
	while (read(go, &c, 1) > 0)
		;
	_exit(0);
}

static int known_kind(const char *kind)
{
	static const char *const kinds[] = {
		"none", "rc", "rc-srq", "xrc", "xrc-send",
	};
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(kind, kinds[i]))
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	long avail, slab, vmalloc;
	int ready[2], go[2];
	const char *kind;
	int p, n, i, bad = 0;
	pid_t *pids;
	char c;

	if (argc != 5 || !known_kind(argv[2])) {
		fprintf(stderr, "usage: %s <ibdev> <none|rc|rc-srq|xrc|xrc-send> <P> <N>\n",
			argv[0]);
		return 2;
	}
	devname = argv[1];
	kind = argv[2];
	p = atoi(argv[3]);
	n = atoi(argv[4]);
	if (p < 1 || n < 1)
		return 2;
	pids = calloc(p, sizeof(*pids));
	if (!pids || pipe(ready) || pipe(go))
		die("setup");
	/*
	 * A process that fails never reports ready, and the others keep the
	 * pipe open: a run that hangs ends here, its processes with it (they
	 * see go close)
	 */
	alarm(900);
	avail = meminfo_kb("MemAvailable");
	slab = meminfo_kb("Slab");
	vmalloc = meminfo_kb("VmallocUsed");

	/* the QP numbers travel from process 0 down a chain of pipes */
	{
		int in = -1, chain[2];

		for (i = 0; i < p; i++) {
			if (i + 1 < p && pipe(chain))
				die("pipe");
			pids[i] = fork();
			if (pids[i] < 0)
				die("fork");
			if (!pids[i]) {
				close(ready[0]);
				close(go[1]);
				process(kind, i, n, in,
					i + 1 < p ? chain[1] : -1, ready[1],
					go[0]);
			}
			if (in >= 0)
				close(in);
			if (i + 1 < p) {
				close(chain[1]);
				in = chain[0];
			}
		}
	}
	close(ready[1]);
	close(go[0]);
	for (i = 0; i < p; i++)
		if (read(ready[0], &c, 1) != 1)
			bad = 1;
	if (!bad)
		printf("RXE-BENCH mem kind=%s P=%d N=%d used_kb=%ld slab_kb=%ld vmalloc_kb=%ld\n",
		       kind, p, n, avail - meminfo_kb("MemAvailable"),
		       meminfo_kb("Slab") - slab,
		       meminfo_kb("VmallocUsed") - vmalloc);
	close(go[1]);
	for (i = 0; i < p; i++) {
		int status;

		if (waitpid(pids[i], &status, 0) != pids[i] ||
		    !WIFEXITED(status) || WEXITSTATUS(status))
			bad = 1;
	}
	free(pids);
	return bad;
}
