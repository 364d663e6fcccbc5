// SPDX-License-Identifier: GPL-2.0
/*
 * xrc_rcv_data: the XRC receive-QP registration verbs with messages.
 *
 * Processes of one node share one receive QP registered with
 * ibv_reg_xrc_rcv_qp(); each posts to an XRC SRQ of its own; an initiator
 * in another process sends to each SRQ through that one QP, over rxe
 * (soft-RoCE) looped back on one port:
 *
 *   1. C creates the receive QP (IBV_XRC_RCV_QPN_NEW), R1 and R2 register
 *      its number; C moves it to RTR with ibv_modify_xrc_rcv_qp().
 *   2. The initiator I sends MSGS messages to each of the three SRQs;
 *      every payload, length, opcode and receiving QP number is checked,
 *      in order per SRQ.
 *   3. C exits without unregistering; messages to R1 and R2 still arrive.
 *   4. R1 and R2 unregister; the last call destroys the QP: rdma
 *      resource lists it no more (it did before), the number is no longer
 *      registrable, and a send to it from the initiator that has been
 *      sending (in sequence: a live QP would deliver it) ends in
 *      IBV_WC_RETRY_EXC_ERR with nothing reaching R2's SRQ.
 *   5. R1 creates a new receive QP and receives on it; a message naming
 *      an SRQ of another XRC domain (F's) is refused at the initiator
 *      with IBV_WC_REM_INV_REQ_ERR and reaches nothing.
 *
 * Each role is a process that opens the device itself (libibverbs does
 * not support verbs across fork()), driven by the parent over a
 * socketpair with one-line commands. Prints "ok"/"not ok" lines; exits 0
 * only if every check passed.
 *
 * With --ioctl, REG and UNREG are the kernel's ioctl methods themselves
 * (UVERBS_METHOD_XRCD_REG_RCV_QP and _UNREG_RCV_QP on the context's
 * command fd), not libibverbs' verbs; everything else is the same. With a
 * second device, the initiators send from it (rxe on the other end of a
 * veth pair, in another network namespace) instead of looping back.
 *
 *   xrc_rcv_data [--ioctl] <ibdev> [<initiators' ibdev>]
 *
 * (--ioctl names rxe's driver in the ioctl header: rxe devices only.)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>
/* struct verbs_xrcd, where libibverbs keeps the XRCD's kernel handle */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include <infiniband/driver.h>
#pragma GCC diagnostic pop
#include <infiniband/verbs.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/rdma_user_ioctl.h>

#include "common.h"
#include "agent.h"

#define MSGS		8
#define MSG_LEN		2500	/* three packets at a 1024-byte MTU */
#define RECVS		32
#define TIMEOUT_MS	30000
#define QUIET_MS	1500

/* ---- the agent: one process, one device context ---- */

static int raw_ioctl;
static struct ibv_context *ctx;
static struct ibv_pd *pd;
static struct ibv_cq *cq;
static struct ibv_xrcd *xrcd;
static struct ibv_srq *srq;
static struct ibv_qp *ini;
static struct ibv_mr *mr;
static char buf[RECVS * MSG_LEN];
static union ibv_gid gid;	/* this agent's own: the IPv4 one of port 1 */
static int gidx = -1;

static int open_dev(const char *devname)
{
	ctx = open_named_device(devname);
	if (!ctx)
		return ENODEV;
	gidx = find_ipv4_gid(ctx, 1, &gid);
	pd = ibv_alloc_pd(ctx);
	cq = ibv_create_cq(ctx, 2 * RECVS, NULL, NULL, 0);
	mr = pd ? ibv_reg_mr(pd, buf, sizeof(buf), IBV_ACCESS_LOCAL_WRITE) : NULL;
	return gidx < 0 || !pd || !cq || !mr ? EIO : 0;
}

/* The domain is named by a file: the processes that open it share it */
static int open_xrcd(const char *path)
{
	xrcd = open_shared_xrcd(ctx, path);
	return xrcd ? 0 : errno;
}

static int make_srq(uint32_t *num)
{
	int i;

	srq = create_xrc_srq(ctx, pd, xrcd, cq, RECVS);
	if (!srq)
		return errno;
	for (i = 0; i < RECVS; i++) {
		struct ibv_sge sge = { (uintptr_t)buf + i * MSG_LEN, MSG_LEN,
				       mr->lkey };
		struct ibv_recv_wr wr = { .wr_id = i, .sg_list = &sge,
					  .num_sge = 1 }, *bad;

		if (ibv_post_srq_recv(srq, &wr, &bad))
			return EIO;
	}
	return ibv_get_srq_num(srq, num);
}

static int make_ini(uint32_t *qpn)
{
	if (ini)
		ibv_destroy_qp(ini);
	ini = create_xrc_send_qp(ctx, pd, cq, RECVS);
	if (!ini)
		return errno;
	*qpn = ini->qp_num;
	return 0;
}

/* Message k for a tag: "<tag> <k>", then a pattern of k and the offset */
static void fill(char *p, const char *tag, int k)
{
	int i, n = snprintf(p, MSG_LEN, "%s %d", tag, k) + 1;

	for (i = n; i < MSG_LEN; i++)
		p[i] = (char)(k * 31 + i);
}

/* Send n messages to an SRQ; "ok" only if each completed with status */
static int send_msgs(uint32_t srqn, int n, const char *tag,
		     enum ibv_wc_status want, char *why, size_t len)
{
	struct ibv_wc wc;
	int k;

	for (k = 0; k < n; k++) {
		struct ibv_sge sge = { (uintptr_t)buf, MSG_LEN, mr->lkey };
		struct ibv_send_wr wr = {
			.wr_id = k, .sg_list = &sge, .num_sge = 1,
			.opcode = IBV_WR_SEND,
			.send_flags = IBV_SEND_SIGNALED,
		}, *bad;

		fill(buf, tag, k);
		wr.qp_type.xrc.remote_srqn = srqn;
		if (ibv_post_send(ini, &wr, &bad)) {
			snprintf(why, len, "post_send %d: %s", k, strerror(errno));
			return -1;
		}
		if (poll_one(cq, &wc, TIMEOUT_MS) != 1) {
			snprintf(why, len, "send %d: no completion", k);
			return -1;
		}
		if (wc.status != want || wc.wr_id != (uint64_t)k) {
			snprintf(why, len, "send %d: %s (wr_id %" PRIu64 "), want %s",
				 k, ibv_wc_status_str(wc.status), wc.wr_id,
				 ibv_wc_status_str(want));
			return -1;
		}
	}
	return 0;
}

/* Receive n messages of a tag, in order, through QP qpn */
static int recv_msgs(uint32_t qpn, int n, const char *tag, char *why,
		     size_t len)
{
	char want[MSG_LEN];
	struct ibv_wc wc;
	int k;

	for (k = 0; k < n; k++) {
		if (poll_one(cq, &wc, TIMEOUT_MS) != 1) {
			snprintf(why, len, "message %d of %s: not received", k, tag);
			return -1;
		}
		fill(want, tag, k);
		if (wc.status != IBV_WC_SUCCESS || wc.opcode != IBV_WC_RECV ||
		    wc.byte_len != MSG_LEN || wc.qp_num != qpn ||
		    memcmp(buf + wc.wr_id * MSG_LEN, want, MSG_LEN)) {
			snprintf(why, len,
				 "message %d of %s: %s, opcode %d, %u bytes, qp %#x (want %#x), payload \"%.24s\"",
				 k, tag, ibv_wc_status_str(wc.status), wc.opcode,
				 wc.byte_len, wc.qp_num, qpn,
				 buf + wc.wr_id * MSG_LEN);
			return -1;
		}
		/* give the buffer back to the SRQ */
		{
			struct ibv_sge sge = { (uintptr_t)buf + wc.wr_id * MSG_LEN,
					       MSG_LEN, mr->lkey };
			struct ibv_recv_wr wr = { .wr_id = wc.wr_id,
						  .sg_list = &sge,
						  .num_sge = 1 }, *bad;

			if (ibv_post_srq_recv(srq, &wr, &bad)) {
				snprintf(why, len, "repost: %s", strerror(errno));
				return -1;
			}
		}
	}
	return 0;
}

static int quiet(char *why, size_t len)
{
	struct ibv_wc wc;

	switch (poll_one(cq, &wc, QUIET_MS)) {
	case 0:
		return 0;
	case -1:
		snprintf(why, len, "ibv_poll_cq failed");
		return -1;
	}
	snprintf(why, len, "unexpected completion: %s, %u bytes, \"%.24s\"",
		 ibv_wc_status_str(wc.status), wc.byte_len,
		 buf + wc.wr_id * MSG_LEN);
	return -1;
}

static enum ibv_wc_status status_named(const char *s)
{
	return !strcmp(s, "rem_inv_req") ? IBV_WC_REM_INV_REQ_ERR :
	       !strcmp(s, "retry_exc") ? IBV_WC_RETRY_EXC_ERR :
	       IBV_WC_SUCCESS;
}

/* The XRCD's handle in the kernel, which libibverbs keeps beside it */
static uint64_t xrcd_handle(void)
{
	return ((struct verbs_xrcd *)xrcd)->handle;
}

/*
 * REG and UNREG as the kernel sees them: one ioctl with the XRCD handle,
 * the number (a u32, inline; absent asks for a new QP) and, for REG, a
 * pointer to the resulting number. The header names the driver of the
 * device, which the kernel checks: rxe here.
 */
static int ioctl_reg(uint32_t *qpn)
{
	struct {
		struct ib_uverbs_ioctl_hdr hdr;
		struct ib_uverbs_attr attrs[3];
	} c = { .hdr = { .object_id = UVERBS_OBJECT_XRCD,
			 .method_id = UVERBS_METHOD_XRCD_REG_RCV_QP,
			 .driver_id = RDMA_DRIVER_RXE } };
	uint32_t out = 0;
	int n = 0;

	c.attrs[n++] = (struct ib_uverbs_attr){
		.attr_id = UVERBS_ATTR_REG_RCV_QP_XRCD_HANDLE,
		.data = xrcd_handle() };
	if (*qpn != IBV_XRC_RCV_QPN_NEW)
		c.attrs[n++] = (struct ib_uverbs_attr){
			.attr_id = UVERBS_ATTR_REG_RCV_QP_NUM,
			.len = sizeof(*qpn), .data = *qpn };
	c.attrs[n++] = (struct ib_uverbs_attr){
		.attr_id = UVERBS_ATTR_REG_RCV_QP_RESP_NUM,
		.len = sizeof(out), .data = (uintptr_t)&out };
	c.hdr.num_attrs = n;
	c.hdr.length = sizeof(c.hdr) + n * sizeof(c.attrs[0]);
	if (ioctl(ctx->cmd_fd, RDMA_VERBS_IOCTL, &c))
		return errno;
	*qpn = out;
	return 0;
}

static int ioctl_unreg(uint32_t qpn)
{
	struct {
		struct ib_uverbs_ioctl_hdr hdr;
		struct ib_uverbs_attr attrs[2];
	} c = {
		.hdr = { .object_id = UVERBS_OBJECT_XRCD,
			 .method_id = UVERBS_METHOD_XRCD_UNREG_RCV_QP,
			 .driver_id = RDMA_DRIVER_RXE,
			 .num_attrs = 2, .length = sizeof(c) },
		.attrs = {
			{ .attr_id = UVERBS_ATTR_UNREG_RCV_QP_XRCD_HANDLE,
			  .data = xrcd_handle() },
			{ .attr_id = UVERBS_ATTR_UNREG_RCV_QP_NUM,
			  .len = sizeof(qpn), .data = qpn },
		},
	};

	return ioctl(ctx->cmd_fd, RDMA_VERBS_IOCTL, &c) ? errno : 0;
}

static int reg(uint32_t *qpn)
{
	return raw_ioctl ? ioctl_reg(qpn) : ibv_reg_xrc_rcv_qp(xrcd, qpn);
}

static int unreg(uint32_t qpn)
{
	return raw_ioctl ? ioctl_unreg(qpn) : ibv_unreg_xrc_rcv_qp(xrcd, qpn);
}

/* One command, one reply: "ok [value]" or "err <why>" */
static void serve(int sock)
{
	char cmd[256], arg1[64], arg2[64], why[384];
	union ibv_gid peer;
	unsigned int u, n;
	uint32_t num;
	ssize_t r;
	int rc;

	while ((r = read(sock, cmd, sizeof(cmd) - 1)) > 0) {
		cmd[r] = 0;
		num = 0;
		why[0] = 0;
		rc = 0;
		if (!strcmp(cmd, "exit")) {
			/* no cleanup: the kernel releases it all at close */
			_exit(0);
		} else if (sscanf(cmd, "open %63s", arg1) == 1) {
			rc = open_dev(arg1);
		} else if (!strcmp(cmd, "gid")) {
			gid_to_hex(&gid, why);
		} else if (sscanf(cmd, "xrcd %63s", arg1) == 1) {
			rc = open_xrcd(arg1);
		} else if (sscanf(cmd, "reg %x", &u) == 1) {
			num = u;
			rc = reg(&num);
		} else if (sscanf(cmd, "unreg %x", &u) == 1) {
			rc = unreg(u);
		} else if (sscanf(cmd, "rtr %x %x %63s", &u, &n, arg1) == 3) {
			rc = gid_from_hex(arg1, &peer) ?:
			     xrc_rcv_to_rtr(xrcd, u, n, &peer, gidx);
		} else if (!strcmp(cmd, "srq")) {
			rc = make_srq(&num);
		} else if (!strcmp(cmd, "ini")) {
			rc = make_ini(&num);
		} else if (sscanf(cmd, "connect %x %63s", &u, arg1) == 2) {
			rc = gid_from_hex(arg1, &peer) ?: xrc_ini_connect(ini, u, &peer, gidx, 15);
		} else if (sscanf(cmd, "send %x %u %63s %63s", &u, &n, arg1, arg2) == 4) {
			rc = send_msgs(u, n, arg1, status_named(arg2), why,
				       sizeof(why)) ? EIO : 0;
		} else if (sscanf(cmd, "recv %x %u %63s", &u, &n, arg1) == 3) {
			rc = recv_msgs(u, n, arg1, why, sizeof(why)) ? EIO : 0;
		} else if (!strcmp(cmd, "quiet")) {
			rc = quiet(why, sizeof(why)) ? EIO : 0;
		} else {
			rc = EINVAL;
			snprintf(why, sizeof(why), "unknown command \"%.64s\"", cmd);
		}
		if (rc)
			dprintf(sock, "err %d %s", rc, why[0] ? why : strerror(rc));
		else
			dprintf(sock, "ok %x %s", num, why);
	}
	_exit(0);
}

/* ---- the parent: the scenario ---- */

int main(int argc, char **argv)
{
	struct agent c, r1, r2, i1, f;
	struct agent *all[] = { &c, &r1, &r2, &i1, &f };
	const char *dev, *ini_dev;
	char cmd[256], rgid[40], igid[40];
	uint32_t qpn, q1, q2, qpn2, sc, s1, s2, sf, iq1;
	unsigned int k;
	int err;

	raw_ioctl = argc > 1 && !strcmp(argv[1], "--ioctl");
	if (argc < 2 + raw_ioctl || argc > 3 + raw_ioctl) {
		fprintf(stderr, "usage: %s [--ioctl] <ibdev> [<initiators' ibdev>]\n",
			argv[0]);
		return 2;
	}
	dev = argv[1 + raw_ioctl];
	ini_dev = argc > 2 + raw_ioctl ? argv[2 + raw_ioctl] : dev;
	printf("xrc_rcv_data: REG and UNREG through %s; receivers on %s, initiators on %s\n",
	       raw_ioctl ? "the ioctl methods" : "libibverbs", dev, ini_dev);
	signal(SIGPIPE, SIG_IGN);
	start(&c, serve, "C");
	start(&r1, serve, "R1");
	start(&r2, serve, "R2");
	start(&i1, serve, "I");
	start(&f, serve, "F");
	for (k = 0; k < sizeof(all) / sizeof(all[0]); k++) {
		int is_ini = all[k] == &i1;

		if (must(all[k], NULL, "open the device, PD, CQ, MR", "open %s",
			 is_ini ? ini_dev : dev))
			goto out;
	}
	/* each end's GID, for the other end's path */
	if (must(&c, NULL, "its GID", "gid") ||
	    sscanf(c.reply, "ok %*x %39s", rgid) != 1 ||
	    must(&i1, NULL, "its GID", "gid") ||
	    sscanf(i1.reply, "ok %*x %39s", igid) != 1)
		goto out;
	/* files of this run's own: no other run's domain to meet */
	snprintf(cmd, sizeof(cmd), "xrcd /tmp/xrc_rcv_data.%d.a", (int)getpid());
	if (must(&c, NULL, "open the XRCD of file A", "%s", cmd) ||
	    must(&r1, NULL, "open the XRCD of file A", "%s", cmd) ||
	    must(&r2, NULL, "open the XRCD of file A", "%s", cmd))
		goto out;
	if (must(&f, NULL, "open the XRCD of file B",
		 "xrcd /tmp/xrc_rcv_data.%d.b", (int)getpid()))
		goto out;

	/* 1. one receive QP, three registrations */
	if (must(&c, &qpn, "REG with IBV_XRC_RCV_QPN_NEW creates a receive QP",
		 "reg ffffffff"))
		goto out;
	if (must(&r1, &q1, "REG of C's QP number", "reg %x", qpn) ||
	    must(&r2, &q2, "REG of C's QP number", "reg %x", qpn))
		goto out;
	check(q1 == qpn && q2 == qpn, "R1 and R2 registered QP %#x itself", qpn);
	if (must(&c, &sc, "XRC SRQ, receives posted", "srq") ||
	    must(&r1, &s1, "XRC SRQ, receives posted", "srq") ||
	    must(&r2, &s2, "XRC SRQ, receives posted", "srq") ||
	    must(&f, &sf, "XRC SRQ in XRCD B, receives posted", "srq") ||
	    must(&i1, &iq1, "XRC send QP", "ini"))
		goto out;
	if (must(&c, NULL, "ibv_modify_xrc_rcv_qp to INIT and RTR",
		 "rtr %x %x %s", qpn, iq1, igid))
		goto out;
	if (must(&i1, NULL, "send QP to RTS towards the receive QP",
		 "connect %x %s", qpn, rgid))
		goto out;

	/* 2. messages to each process's SRQ through the one QP */
	must(&i1, NULL, "8 SENDs of 2500 bytes to C's SRQ complete",
	     "send %x %d to-C success", sc, MSGS);
	must(&i1, NULL, "8 SENDs to R1's SRQ complete",
	     "send %x %d to-R1 success", s1, MSGS);
	must(&i1, NULL, "8 SENDs to R2's SRQ complete",
	     "send %x %d to-R2 success", s2, MSGS);
	must(&c, NULL, "8 messages, payloads and QP number checked, in order",
	     "recv %x %d to-C", qpn, MSGS);
	must(&r1, NULL, "8 messages, payloads and QP number checked, in order",
	     "recv %x %d to-R1", qpn, MSGS);
	must(&r2, NULL, "8 messages, payloads and QP number checked, in order",
	     "recv %x %d to-R2", qpn, MSGS);

	/* 3. the creator goes away; the QP stays for the others */
	ask(&c, NULL, "exit");
	check(reap(c.pid) == 0, "C exited without unregistering");
	agent_forget(&c);
	must(&i1, NULL, "8 SENDs to R1's SRQ after C exited complete",
	     "send %x %d after-C-R1 success", s1, MSGS);
	must(&i1, NULL, "8 SENDs to R2's SRQ after C exited complete",
	     "send %x %d after-C-R2 success", s2, MSGS);
	must(&r1, NULL, "all 8 arrived after C exited",
	     "recv %x %d after-C-R1", qpn, MSGS);
	must(&r2, NULL, "all 8 arrived after C exited",
	     "recv %x %d after-C-R2", qpn, MSGS);

	/* 4. the last UNREG destroys it */
	must(&r1, NULL, "UNREG", "unreg %x", qpn);
	must(&i1, NULL, "a SEND with R2's registration left completes",
	     "send %x 1 one-left success", s2);
	must(&r2, NULL, "and arrives", "recv %x 1 one-left", qpn);
	check(qp_listed(dev, qpn) == 1, "rdma resource lists QP %#x on %s", qpn, dev);
	must(&r2, NULL, "the last UNREG", "unreg %x", qpn);
	check(qp_listed(dev, qpn) == 0, "rdma resource lists QP %#x no more", qpn);
	err = ask(&r1, NULL, "reg %x", qpn);
	check(err == EINVAL, "R1: REG of the destroyed QP's number fails with EINVAL (%s)",
	      r1.reply);
	/* from I, in sequence: a QP still there would deliver it to R2 */
	must(&i1, NULL, "a SEND to the destroyed QP ends in IBV_WC_RETRY_EXC_ERR",
	     "send %x 1 stale retry_exc", s2);
	must(&r2, NULL, "and nothing reached R2's SRQ", "quiet");

	/* 5. a new QP; an SRQ of another domain is refused */
	if (must(&r1, &qpn2, "REG with IBV_XRC_RCV_QPN_NEW after the last UNREG",
		 "reg ffffffff") ||
	    must(&i1, &iq1, "a new XRC send QP", "ini"))
		goto out;
	printf("# the new receive QP is %#x (the destroyed one was %#x)\n", qpn2, qpn);
	if (must(&r1, NULL, "the new receive QP to RTR",
		 "rtr %x %x %s", qpn2, iq1, igid))
		goto out;
	if (must(&i1, NULL, "send QP to RTS towards it",
		 "connect %x %s", qpn2, rgid))
		goto out;
	must(&i1, NULL, "8 SENDs to R1's SRQ through the new QP complete",
	     "send %x %d new-qp success", s1, MSGS);
	must(&r1, NULL, "all 8 arrived through the new QP",
	     "recv %x %d new-qp", qpn2, MSGS);
	must(&i1, NULL, "a SEND naming F's SRQ (XRCD B) ends in IBV_WC_REM_INV_REQ_ERR",
	     "send %x 1 foreign rem_inv_req", sf);
	must(&f, NULL, "nothing reached F's SRQ", "quiet");
	must(&r1, NULL, "nor R1's, the QP's other SRQ", "quiet");
	must(&r1, NULL, "UNREG of the new QP", "unreg %x", qpn2);

out:
	for (k = 0; k < sizeof(all) / sizeof(all[0]); k++) {
		if (!all[k]->pid)
			continue;
		ask(all[k], NULL, "exit");
		check(reap(all[k]->pid) == 0, "%s exited", all[k]->name);
	}
	printf("xrc_rcv_data: %d passed, %d failed (%s)\n", passed, failed,
	       raw_ioctl ? "ioctl" : "libibverbs");
	return failed || !passed;
}
