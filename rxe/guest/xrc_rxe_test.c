// SPDX-License-Identifier: GPL-2.0
/*
 * xrc_rxe_test: XRC over one rxe device, looped back, through libibverbs.
 *
 * One XRC initiator and one XRC target QP connected to each other on the
 * same port, XRC SRQs in two XRC domains:
 *   1. SEND (multi packet) and SEND_WITH_IMM into SRQ A
 *   2. RDMA WRITE, RDMA READ (multi packet), WRITE_WITH_IMM, both atomics
 *   3. SEND naming SRQ B of another XRCD -> IBV_WC_REM_INV_REQ_ERR, no recv
 *   4. a second pair: SEND naming a nonexistent SRQ -> REM_INV_REQ_ERR
 *   5. a message half received (its first packet only): destroying its
 *      SRQ, moving its target QP to error or reset, destroying its target
 *      QP each flush the receive WQE it took onto the SRQ's CQ, without
 *      waiting; a target QP moved to SQD reports its (empty) SQ drained;
 *      SRQs destroyed while an initiator keeps sending into them
 *   6. what the provider takes on XRC and refuses: the ibv_wr_*() API with
 *      ibv_wr_set_xrc_srqn(), SEND_WITH_INV, an XRC domain on an RC QP;
 *      ibv_open_qp() of a target QP that keeps it after its creator's
 *      handle is gone
 *   7. tear everything down
 * Prints "ok"/"not ok" lines and exits 0 only if everything passed.
 *
 * Built against rdma-core with patches/rdma-core-rxe/ and run by hand in a
 * guest with patches/rxe/ (rxe/README.md); no make target runs it yet.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <infiniband/verbs.h>

#include "common.h"

#define MTU		IBV_MTU_1024
#define BUF		8192
#define TIMEOUT_MS	3000

static struct ibv_context *ctx;
static struct ibv_pd *pd;
static struct ibv_cq *scq, *rcq;
static int gidx = -1;
static union ibv_gid gid;
static uint8_t port = 1;

static struct ibv_srq *xrc_srq_cq(struct ibv_xrcd *xrcd, struct ibv_cq *cq,
				  uint32_t *num)
{
	struct ibv_srq *srq = create_xrc_srq(ctx, pd, xrcd, cq, 64);

	if (srq && ibv_get_srq_num(srq, num)) {
		ibv_destroy_srq(srq);
		return NULL;
	}
	return srq;
}

static struct ibv_srq *xrc_srq(struct ibv_xrcd *xrcd, uint32_t *num)
{
	return xrc_srq_cq(xrcd, rcq, num);
}

/* a domain of this process's own (no file), unlike common.h's */
static struct ibv_xrcd *open_xrcd(void)
{
	struct ibv_xrcd_init_attr a = {
		.comp_mask = IBV_XRCD_INIT_ATTR_FD | IBV_XRCD_INIT_ATTR_OFLAGS,
		.fd = -1,
		.oflags = O_CREAT,
	};

	return ibv_open_xrcd(ctx, &a);
}

static struct ibv_qp *ini_qp(void)
{
	struct ibv_qp_init_attr_ex a = {
		.qp_type = IBV_QPT_XRC_SEND,
		.send_cq = scq,
		.cap = { .max_send_wr = 32, .max_send_sge = 2,
			 .max_inline_data = 64 },
		.comp_mask = IBV_QP_INIT_ATTR_PD,
		.pd = pd,
	};

	return ibv_create_qp_ex(ctx, &a);
}

static struct ibv_qp *tgt_qp(struct ibv_xrcd *xrcd)
{
	struct ibv_qp_init_attr_ex a = {
		.qp_type = IBV_QPT_XRC_RECV,
		.comp_mask = IBV_QP_INIT_ATTR_XRCD,
		.xrcd = xrcd,
	};

	return ibv_create_qp_ex(ctx, &a);
}

static int to_init(struct ibv_qp *qp, int access)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT,
		.pkey_index = 0,
		.port_num = port,
		.qp_access_flags = access,
	};

	return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			     IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
}

static int to_rtr(struct ibv_qp *qp, uint32_t dqpn, int tgt)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_RTR,
		.path_mtu = MTU,
		.dest_qp_num = dqpn,
		.rq_psn = 100,
		.max_dest_rd_atomic = 4,
		.min_rnr_timer = 12,
		/* looped back: to the port's own GID */
		.ah_attr = av_to(&gid, gidx),
	};
	int mask = IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
		   IBV_QP_DEST_QPN | IBV_QP_RQ_PSN;

	if (tgt)
		mask |= IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
	return ibv_modify_qp(qp, &a, mask);
}

/*
 * The retry budget of a guest under TCG on a loaded host, where an ACK can
 * be late by tens of milliseconds: 134 ms (4.096 us * 2^15), 6 retries
 * (rxe takes 7 for "retry for ever")
 */
static int to_rts(struct ibv_qp *qp, int rnr_retry)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_RTS,
		.sq_psn = 100,
		.timeout = 15,
		.retry_cnt = 6,
		.rnr_retry = rnr_retry,
		.max_rd_atomic = 4,
	};

	return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN |
			     IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
			     IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC);
}

static int connect_pair(struct ibv_qp *ini, struct ibv_qp *tgt, int rnr_retry)
{
	int rw = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
		 IBV_ACCESS_REMOTE_ATOMIC;

	if (to_init(ini, 0) || to_init(tgt, rw))
		return -1;
	if (to_rtr(ini, tgt->qp_num, 0) || to_rtr(tgt, ini->qp_num, 1))
		return -1;
	return to_rts(ini, rnr_retry);
}

static int post_recv(struct ibv_srq *srq, struct ibv_mr *mr, void *buf,
		     uint32_t len, uint64_t id)
{
	struct ibv_sge sge = { (uintptr_t)buf, len, mr->lkey };
	struct ibv_recv_wr wr = { .wr_id = id, .sg_list = &sge,
				  .num_sge = 1 }, *bad;

	return ibv_post_srq_recv(srq, &wr, &bad);
}

static int post_send(struct ibv_qp *qp, enum ibv_wr_opcode op,
		     uint32_t srqn, struct ibv_mr *mr, void *buf,
		     uint32_t len, uint64_t raddr, uint32_t rkey,
		     uint64_t add_cmp, uint64_t swap, uint64_t id)
{
	struct ibv_sge sge = { (uintptr_t)buf, len, mr->lkey };
	struct ibv_send_wr wr = {
		.wr_id = id,
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = op,
		.send_flags = IBV_SEND_SIGNALED,
		.imm_data = htonl(0x1234),
	}, *bad;

	wr.qp_type.xrc.remote_srqn = srqn;
	if (op == IBV_WR_ATOMIC_FETCH_AND_ADD ||
	    op == IBV_WR_ATOMIC_CMP_AND_SWP) {
		wr.wr.atomic.remote_addr = raddr;
		wr.wr.atomic.rkey = rkey;
		wr.wr.atomic.compare_add = add_cmp;
		wr.wr.atomic.swap = swap;
	} else {
		wr.wr.rdma.remote_addr = raddr;
		wr.wr.rdma.rkey = rkey;
	}
	return ibv_post_send(qp, &wr, &bad);
}

static const char *st(enum ibv_wc_status s)
{
	return ibv_wc_status_str(s);
}

/* a new XRC_INI/XRC_TGT pair on xrcd, connected; 0 on success */
static int new_pair(struct ibv_xrcd *xrcd, struct ibv_qp **ini,
		    struct ibv_qp **tgt)
{
	*ini = ini_qp();
	*tgt = tgt_qp(xrcd);
	if (*ini && *tgt && !connect_pair(*ini, *tgt, 3))
		return 0;
	if (*ini)
		ibv_destroy_qp(*ini);
	if (*tgt)
		ibv_destroy_qp(*tgt);
	*ini = *tgt = NULL;
	return -1;
}

/*
 * Leave a message half received: a SEND of two packets whose second half
 * comes from an invalid lkey. The requester sends the first packet, which
 * takes a receive WQE of the SRQ, then fails to read the second one and
 * completes the SEND with an error: the last packet never comes. The
 * initiator may complete the SEND before the target's responder has run:
 * give the responder 300 ms to take the WQE, as nothing in user space
 * shows that it did. Returns the status of the SEND's completion, or -1
 * if none came.
 */
static int send_first_packet_only(struct ibv_qp *ini, uint32_t srqn,
				  struct ibv_mr *mr, void *buf, uint64_t id)
{
	struct ibv_sge sge[2] = {
		{ (uintptr_t)buf, 1024, mr->lkey },
		{ (uintptr_t)buf + 1024, 1024, mr->lkey ^ 0x5a5a00 },
	};
	struct ibv_send_wr wr = {
		.wr_id = id,
		.sg_list = sge,
		.num_sge = 2,
		.opcode = IBV_WR_SEND,
		.send_flags = IBV_SEND_SIGNALED,
	}, *bad;
	struct ibv_wc wc;

	wr.qp_type.xrc.remote_srqn = srqn;
	if (ibv_post_send(ini, &wr, &bad))
		return -1;
	if (poll_one(scq, &wc, TIMEOUT_MS) != 1 || wc.wr_id != id)
		return -1;
	usleep(300000);
	return wc.status;
}

/* expect the flush of receive WQE id of target QP tgt on cq */
static int flushed(struct ibv_cq *cq, struct ibv_qp *tgt, uint64_t id)
{
	struct ibv_wc wc;

	return poll_one(cq, &wc, TIMEOUT_MS) == 1 && wc.wr_id == id &&
	       wc.status == IBV_WC_WR_FLUSH_ERR && wc.qp_num == tgt->qp_num;
}

/* drain the send CQ of the flushes of a pair in error */
static void drain(struct ibv_cq *cq)
{
	struct ibv_wc wc;

	while (poll_one(cq, &wc, 200))
		;
}

/*
 * 5. A message whose first packet took a WQE of its XRC SRQ and whose
 * last packet never comes. Destroying the SRQ must neither wait for that
 * packet (rxe waited 50 s, then freed the SRQ under the target QP) nor
 * lose the WQE; moving the target QP to error or destroying it must
 * complete the WQE on the SRQ's CQ too.
 */
static void half_received(struct ibv_xrcd *xrcd, struct ibv_mr *smr,
			  char *sbuf, struct ibv_mr *rmr, char *rbuf)
{
	struct ibv_qp *ini, *tgt;
	struct ibv_srq *srq;
	struct ibv_cq *cq;
	struct ibv_wc wc;
	uint32_t srqn;
	long t;
	int i, s;

	cq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	srq = cq ? xrc_srq_cq(xrcd, cq, &srqn) : NULL;
	check(srq && !new_pair(xrcd, &ini, &tgt),
	      "half received: pair, SRQ and CQ");
	if (!srq || !ini)
		return;

	/* the SRQ is destroyed under the message */
	post_recv(srq, rmr, rbuf, BUF, 0xe1);
	s = send_first_packet_only(ini, srqn, smr, sbuf, 20);
	check(s > 0, "first packet only: SEND completes with %s",
	      s >= 0 ? st(s) : "nothing");
	check(poll_one(cq, &wc, 0) == 0,
	      "first packet only: nothing received yet");
	t = now_ms();
	s = ibv_destroy_srq(srq);
	t = now_ms() - t;
	check(!s && t < 5000, "destroy the SRQ of a half received message: "
	      "%s in %ld ms", s ? "failed" : "done", t);
	check(flushed(cq, tgt, 0xe1),
	      "destroy the SRQ: its WQE flushed on its CQ");
	ibv_destroy_qp(ini);
	ibv_destroy_qp(tgt);
	drain(scq);

	/* the target QP moves to error, or to reset, under the message */
	srq = xrc_srq_cq(xrcd, cq, &srqn);
	for (i = 0; i < 2; i++) {
		struct ibv_qp_attr a = {
			.qp_state = i ? IBV_QPS_RESET : IBV_QPS_ERR,
		};
		const char *to = i ? "reset" : "error";
		uint64_t id = 0xe2 + i * 0x10;

		if (!srq || new_pair(xrcd, &ini, &tgt)) {
			check(0, "target QP to %s: pair and SRQ", to);
			continue;
		}
		post_recv(srq, rmr, rbuf, BUF, id);
		send_first_packet_only(ini, srqn, smr, sbuf, 21);
		check(!ibv_modify_qp(tgt, &a, IBV_QP_STATE) &&
		      flushed(cq, tgt, id),
		      "target QP to %s: the WQE flushed on the SRQ's CQ", to);
		ibv_destroy_qp(ini);
		ibv_destroy_qp(tgt);
		drain(scq);
	}

	/* the target QP is destroyed under the message */
	if (srq && !new_pair(xrcd, &ini, &tgt)) {
		uint32_t qpn = tgt->qp_num;
		int gone;

		post_recv(srq, rmr, rbuf, BUF, 0xe3);
		send_first_packet_only(ini, srqn, smr, sbuf, 22);
		gone = !ibv_destroy_qp(tgt);
		check(gone && poll_one(cq, &wc, TIMEOUT_MS) == 1 &&
		      wc.wr_id == 0xe3 && wc.status == IBV_WC_WR_FLUSH_ERR &&
		      wc.qp_num == qpn,
		      "destroy the target QP: the WQE flushed on the SRQ's CQ");
		ibv_destroy_qp(ini);
		drain(scq);
	} else {
		check(0, "destroy the target QP: pair and SRQ");
	}
	check(srq && !ibv_destroy_srq(srq) && !ibv_destroy_cq(cq),
	      "half received: teardown");
}

/*
 * SRQs destroyed while an initiator keeps sending into them: with no WQE
 * posted and infinite RNR retries, every retry of the SEND makes the
 * target look its SRQ up from the wire, before, during and after the
 * destroy. The destroy must not wait for the initiator, and the SEND must
 * end once the SRQ is gone, with a remote invalid request error.
 */
static void destroy_under_retries(struct ibv_xrcd *xrcd, struct ibv_mr *smr,
				  char *sbuf)
{
	struct ibv_qp *ini, *tgt;
	struct ibv_srq *srq;
	struct ibv_wc wc;
	long t, worst = 0;
	int i, ok = 1, st_ok = 1;
	uint32_t srqn;

	for (i = 0; i < 20 && ok; i++) {
		srq = xrc_srq(xrcd, &srqn);
		ini = ini_qp();
		tgt = tgt_qp(xrcd);
		ok = srq && ini && tgt && !connect_pair(ini, tgt, 7) &&
		     !post_send(ini, IBV_WR_SEND, srqn, smr, sbuf, 64, 0, 0, 0,
				0, 40 + i);
		if (ok) {
			usleep(20000);
			t = now_ms();
			ok = !ibv_destroy_srq(srq);
			srq = NULL;
			t = now_ms() - t;
			if (t > worst)
				worst = t;
			st_ok = st_ok && poll_one(scq, &wc, TIMEOUT_MS) == 1 &&
				wc.wr_id == (uint64_t)(40 + i) &&
				wc.status == IBV_WC_REM_INV_REQ_ERR;
		}
		if (srq)
			ibv_destroy_srq(srq);
		if (ini)
			ibv_destroy_qp(ini);
		if (tgt)
			ibv_destroy_qp(tgt);
		drain(scq);
	}
	check(ok && i == 20 && worst < 5000,
	      "20 SRQs destroyed under RNR retries: longest destroy %ld ms",
	      worst);
	check(ok && st_ok,
	      "20 SRQs destroyed under RNR retries: each SEND ends in a "
	      "remote invalid request error");
}

/* a target QP has no send queue: SQD reports it drained at once */
static void tgt_sqd(struct ibv_xrcd *xrcd)
{
	struct ibv_qp_attr rts = {
		.qp_state = IBV_QPS_RTS,
		.timeout = 14,
		.sq_psn = 100,
	};
	struct ibv_qp_attr sqd = { .qp_state = IBV_QPS_SQD };
	struct pollfd pfd = { .fd = ctx->async_fd, .events = POLLIN };
	struct ibv_async_event ev;
	struct ibv_qp *ini, *tgt;
	int found = 0;

	if (new_pair(xrcd, &ini, &tgt)) {
		check(0, "target QP to SQD: pair");
		return;
	}
	check(!ibv_modify_qp(tgt, &rts, IBV_QP_STATE | IBV_QP_TIMEOUT |
			     IBV_QP_SQ_PSN) &&
	      !ibv_modify_qp(tgt, &sqd, IBV_QP_STATE),
	      "target QP to RTS, then to SQD");
	/* other QPs' events may come first */
	while (!found && poll(&pfd, 1, TIMEOUT_MS) == 1 &&
	       !ibv_get_async_event(ctx, &ev)) {
		found = ev.event_type == IBV_EVENT_SQ_DRAINED &&
			ev.element.qp == tgt;
		ibv_ack_async_event(&ev);
	}
	check(found, "target QP in SQD: IBV_EVENT_SQ_DRAINED");
	ibv_destroy_qp(ini);
	ibv_destroy_qp(tgt);
}

/* ibv_open_qp(): an opened handle keeps the target QP when the first goes */
static void open_qp_check(struct ibv_xrcd *xrcd, struct ibv_mr *smr,
			  char *sbuf, struct ibv_mr *rmr, char *rbuf)
{
	struct ibv_qp_open_attr oa = {
		.comp_mask = IBV_QP_OPEN_ATTR_NUM | IBV_QP_OPEN_ATTR_XRCD |
			     IBV_QP_OPEN_ATTR_TYPE,
		.qp_type = IBV_QPT_XRC_RECV,
		.xrcd = xrcd,
	};
	struct ibv_qp *ini, *tgt, *opened;
	struct ibv_srq *srq;
	struct ibv_wc wc;
	uint32_t srqn;
	int ok, s;

	srq = xrc_srq(xrcd, &srqn);
	if (!srq || new_pair(xrcd, &ini, &tgt)) {
		check(0, "ibv_open_qp(): pair and SRQ");
		goto out;
	}
	oa.qp_num = tgt->qp_num;
	opened = ibv_open_qp(ctx, &oa);
	s = ibv_destroy_qp(tgt);
	check(opened && opened->qp_num == oa.qp_num && !s,
	      "ibv_open_qp() of the target QP, creator's handle destroyed: %s",
	      opened ? "opened" : strerror(errno));
	if (opened) {
		memset(rbuf, 0, BUF);
		post_recv(srq, rmr, rbuf, BUF, 0xf2);
		post_send(ini, IBV_WR_SEND, srqn, smr, sbuf, 800, 0, 0, 0, 0,
			  32);
		ok = poll_one(scq, &wc, TIMEOUT_MS) == 1 &&
		     wc.wr_id == 32 && wc.status == IBV_WC_SUCCESS;
		ok = ok && poll_one(rcq, &wc, TIMEOUT_MS) == 1 &&
		     wc.wr_id == 0xf2 && wc.status == IBV_WC_SUCCESS &&
		     wc.byte_len == 800 && wc.qp_num == oa.qp_num &&
		     !memcmp(sbuf, rbuf, 800);
		check(ok, "SEND to the target QP through the opened handle "
		      "only: received");
		check(!ibv_destroy_qp(opened), "close the opened handle");
	}
	ibv_destroy_qp(ini);
	drain(scq);
out:
	if (srq)
		ibv_destroy_srq(srq);
}

/* 6. the provider's side of XRC send QPs */
static void provider_checks(struct ibv_xrcd *xrcd, struct ibv_mr *smr,
			    char *sbuf, struct ibv_mr *rmr, char *rbuf)
{
	struct ibv_qp_init_attr_ex rc = {
		.qp_type = IBV_QPT_RC,
		.send_cq = scq,
		.recv_cq = rcq,
		.cap = { .max_send_wr = 1, .max_recv_wr = 1,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.comp_mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_XRCD,
		.pd = pd,
		.xrcd = xrcd,
	};
	struct ibv_qp_init_attr_ex xa = {
		.qp_type = IBV_QPT_XRC_SEND,
		.send_cq = scq,
		.cap = { .max_send_wr = 8, .max_send_sge = 1 },
		.comp_mask = IBV_QP_INIT_ATTR_PD |
			     IBV_QP_INIT_ATTR_SEND_OPS_FLAGS,
		.pd = pd,
		.send_ops_flags = IBV_QP_EX_WITH_SEND,
	};
	struct ibv_qp *qp, *ini, *tgt;
	struct ibv_qp_ex *qpx;
	struct ibv_srq *srq;
	struct ibv_wc wc;
	uint32_t srqn;
	int ok, s;

	errno = 0;
	qp = ibv_create_qp_ex(ctx, &rc);
	check(!qp && errno == EINVAL,
	      "an RC QP with an XRC domain is refused: %s",
	      qp ? "created" : strerror(errno));
	if (qp)
		ibv_destroy_qp(qp);

	if (new_pair(xrcd, &ini, &tgt)) {
		check(0, "SEND_WITH_INV on an XRC send QP: pair");
	} else {
		s = post_send(ini, IBV_WR_SEND_WITH_INV, srqn, smr, sbuf, 16,
			      0, 0, 0, 0, 31);
		check(s == EINVAL && poll_one(scq, &wc, 300) == 0,
		      "SEND_WITH_INV on an XRC send QP is refused: %s",
		      s ? strerror(s) : "posted");
		ibv_destroy_qp(ini);
		ibv_destroy_qp(tgt);
		drain(scq);
	}

	/* an SRQ of its own: SRQ A may still hold WQEs of earlier checks */
	srq = xrc_srq(xrcd, &srqn);
	ini = ibv_create_qp_ex(ctx, &xa);
	tgt = tgt_qp(xrcd);
	qpx = ini ? ibv_qp_to_qp_ex(ini) : NULL;
	check(srq && qpx && tgt && !connect_pair(ini, tgt, 3) &&
	      qpx->wr_set_xrc_srqn && !qpx->wr_set_ud_addr,
	      "XRC send QP for ibv_wr_*(): wr_set_xrc_srqn, no wr_set_ud_addr");
	if (!srq || !qpx || !tgt)
		goto out;

	memset(rbuf, 0, BUF);
	post_recv(srq, rmr, rbuf, BUF, 0xf1);
	ibv_wr_start(qpx);
	qpx->wr_id = 30;
	qpx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_send(qpx);
	ibv_wr_set_xrc_srqn(qpx, srqn);
	ibv_wr_set_sge(qpx, smr->lkey, (uintptr_t)sbuf, 1500);
	s = ibv_wr_complete(qpx);
	ok = !s && poll_one(scq, &wc, TIMEOUT_MS) == 1;
	check(ok && wc.wr_id == 30 && wc.status == IBV_WC_SUCCESS,
	      "ibv_wr_send() + ibv_wr_set_xrc_srqn(): %s",
	      s ? strerror(s) : ok ? st(wc.status) : "no completion");
	ok = poll_one(rcq, &wc, TIMEOUT_MS) == 1;
	check(ok && wc.wr_id == 0xf1 && wc.status == IBV_WC_SUCCESS &&
	      wc.byte_len == 1500 && wc.qp_num == tgt->qp_num &&
	      !memcmp(sbuf, rbuf, 1500),
	      "ibv_wr_send() + ibv_wr_set_xrc_srqn(): received %s len %u",
	      ok ? st(wc.status) : "nothing", ok ? wc.byte_len : 0);
out:
	if (ini)
		ibv_destroy_qp(ini);
	if (tgt)
		ibv_destroy_qp(tgt);
	if (srq)
		ibv_destroy_srq(srq);
	drain(scq);
}

int main(int argc, char **argv)
{
	const char *devname = argc > 1 ? argv[1] : "rxe0";
	struct ibv_device_attr dattr;
	struct ibv_xrcd *xa, *xb;
	struct ibv_srq *sa, *sb;
	struct ibv_qp *ini, *tgt, *ini2, *tgt2, *ini3, *tgt3;
	struct ibv_async_event ev;
	struct ibv_srq_attr sattr;
	struct pollfd pfd;
	uint32_t na, nb;
	struct ibv_mr *smr, *rmr, *tmr;
	char *sbuf, *rbuf, *tbuf;
	struct ibv_wc wc;
	int i, ok;

	ctx = open_named_device(devname);
	check(ctx != NULL, "open %s", devname);
	if (!ctx)
		return 1;

	check(!ibv_query_device(ctx, &dattr) &&
	      (dattr.device_cap_flags & IBV_DEVICE_XRC),
	      "device reports IBV_DEVICE_XRC");
	gidx = find_ipv4_gid(ctx, port, &gid);
	check(gidx >= 0, "IPv4 RoCEv2 gid found at index %d", gidx);

	pd = ibv_alloc_pd(ctx);
	scq = ibv_create_cq(ctx, 64, NULL, NULL, 0);
	rcq = ibv_create_cq(ctx, 64, NULL, NULL, 0);
	check(pd && scq && rcq, "pd and cqs");

	xa = open_xrcd();
	xb = open_xrcd();
	check(xa && xb, "open two XRC domains");
	if (!xa || !xb)
		return 1;

	sa = xrc_srq(xa, &na);
	sb = xrc_srq(xb, &nb);
	check(sa && sb && na != nb, "XRC SRQs %#x (xrcd A) %#x (xrcd B)",
	      sa ? na : 0, sb ? nb : 0);
	if (!sa || !sb)
		return 1;

	ini = ini_qp();
	tgt = tgt_qp(xa);
	check(ini && tgt, "XRC_INI qp %#x, XRC_TGT qp %#x",
	      ini ? ini->qp_num : 0, tgt ? tgt->qp_num : 0);
	if (!ini || !tgt)
		return 1;
	check(!connect_pair(ini, tgt, 3), "connect INI <-> TGT (RTS/RTR)");

	sbuf = calloc(1, BUF);
	rbuf = calloc(1, BUF);
	tbuf = aligned_alloc(4096, BUF);
	memset(tbuf, 0, BUF);
	smr = ibv_reg_mr(pd, sbuf, BUF, IBV_ACCESS_LOCAL_WRITE);
	rmr = ibv_reg_mr(pd, rbuf, BUF, IBV_ACCESS_LOCAL_WRITE);
	tmr = ibv_reg_mr(pd, tbuf, BUF, IBV_ACCESS_LOCAL_WRITE |
			 IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
			 IBV_ACCESS_REMOTE_ATOMIC);
	check(smr && rmr && tmr, "memory regions");
	if (!smr || !rmr || !tmr)
		return 1;

	/* 1. SEND of 4000 bytes: four packets at MTU 1024 */
	for (i = 0; i < 4000; i++)
		sbuf[i] = (char)(i * 7 + 1);
	post_recv(sa, rmr, rbuf, BUF, 0xa1);
	post_send(ini, IBV_WR_SEND, na, smr, sbuf, 4000, 0, 0, 0, 0, 1);
	ok = poll_one(scq, &wc, TIMEOUT_MS) == 1;
	check(ok && wc.status == IBV_WC_SUCCESS && wc.wr_id == 1,
	      "SEND 4000 bytes: send completion %s",
	      ok ? st(wc.status) : "missing");
	ok = poll_one(rcq, &wc, TIMEOUT_MS) == 1;
	check(ok && wc.status == IBV_WC_SUCCESS && wc.wr_id == 0xa1 &&
	      wc.opcode == IBV_WC_RECV && wc.byte_len == 4000 &&
	      wc.qp_num == tgt->qp_num && !memcmp(sbuf, rbuf, 4000),
	      "SEND 4000 bytes: recv completion on SRQ A's cq %s len %u qpn %#x",
	      ok ? st(wc.status) : "missing", ok ? wc.byte_len : 0,
	      ok ? wc.qp_num : 0);

	post_recv(sa, rmr, rbuf, BUF, 0xa2);
	post_send(ini, IBV_WR_SEND_WITH_IMM, na, smr, sbuf, 16, 0, 0, 0, 0, 2);
	ok = poll_one(scq, &wc, TIMEOUT_MS) == 1 &&
	     wc.status == IBV_WC_SUCCESS;
	ok = ok && poll_one(rcq, &wc, TIMEOUT_MS) == 1;
	check(ok && wc.status == IBV_WC_SUCCESS && wc.wr_id == 0xa2 &&
	      (wc.wc_flags & IBV_WC_WITH_IMM) &&
	      wc.imm_data == htonl(0x1234) && wc.byte_len == 16,
	      "SEND_WITH_IMM: recv completion with immediate");

	/* 2. RDMA WRITE 3000 bytes, READ it back, WRITE_WITH_IMM, atomics */
	for (i = 0; i < 3000; i++)
		sbuf[i] = (char)(i * 3 + 5);
	post_send(ini, IBV_WR_RDMA_WRITE, na, smr, sbuf, 3000,
		  (uintptr_t)tbuf, tmr->rkey, 0, 0, 3);
	ok = poll_one(scq, &wc, TIMEOUT_MS) == 1;
	check(ok && wc.status == IBV_WC_SUCCESS &&
	      !memcmp(sbuf, tbuf, 3000),
	      "RDMA WRITE 3000 bytes: %s, data %s",
	      ok ? st(wc.status) : "missing",
	      memcmp(sbuf, tbuf, 3000) ? "differs" : "matches");

	memset(rbuf, 0, BUF);
	post_send(ini, IBV_WR_RDMA_READ, na, rmr, rbuf, 3000,
		  (uintptr_t)tbuf, tmr->rkey, 0, 0, 4);
	ok = poll_one(scq, &wc, TIMEOUT_MS) == 1;
	check(ok && wc.status == IBV_WC_SUCCESS &&
	      !memcmp(rbuf, tbuf, 3000),
	      "RDMA READ 3000 bytes: %s, data %s",
	      ok ? st(wc.status) : "missing",
	      memcmp(rbuf, tbuf, 3000) ? "differs" : "matches");

	post_recv(sa, rmr, rbuf, BUF, 0xa3);
	post_send(ini, IBV_WR_RDMA_WRITE_WITH_IMM, na, smr, sbuf, 100,
		  (uintptr_t)tbuf + 4096, tmr->rkey, 0, 0, 5);
	ok = poll_one(scq, &wc, TIMEOUT_MS) == 1 &&
	     wc.status == IBV_WC_SUCCESS;
	ok = ok && poll_one(rcq, &wc, TIMEOUT_MS) == 1;
	check(ok && wc.status == IBV_WC_SUCCESS && wc.wr_id == 0xa3 &&
	      wc.opcode == IBV_WC_RECV_RDMA_WITH_IMM &&
	      !memcmp(sbuf, tbuf + 4096, 100),
	      "RDMA WRITE_WITH_IMM: recv completion on SRQ A's cq");

	*(uint64_t *)(tbuf + 2048) = 40;
	post_send(ini, IBV_WR_ATOMIC_FETCH_AND_ADD, na, rmr, rbuf, 8,
		  (uintptr_t)tbuf + 2048, tmr->rkey, 2, 0, 6);
	ok = poll_one(scq, &wc, TIMEOUT_MS) == 1;
	check(ok && wc.status == IBV_WC_SUCCESS &&
	      *(uint64_t *)rbuf == 40 && *(uint64_t *)(tbuf + 2048) == 42,
	      "FETCH_ADD: %s, orig %" PRIu64 ", now %" PRIu64,
	      ok ? st(wc.status) : "missing", *(uint64_t *)rbuf,
	      *(uint64_t *)(tbuf + 2048));
	post_send(ini, IBV_WR_ATOMIC_CMP_AND_SWP, na, rmr, rbuf, 8,
		  (uintptr_t)tbuf + 2048, tmr->rkey, 42, 7, 7);
	ok = poll_one(scq, &wc, TIMEOUT_MS) == 1;
	check(ok && wc.status == IBV_WC_SUCCESS &&
	      *(uint64_t *)rbuf == 42 && *(uint64_t *)(tbuf + 2048) == 7,
	      "CMP_AND_SWP: %s, orig %" PRIu64 ", now %" PRIu64,
	      ok ? st(wc.status) : "missing", *(uint64_t *)rbuf,
	      *(uint64_t *)(tbuf + 2048));

	/* SRQ limit: 3 WQEs, limit 2, two messages -> event on SRQ A */
	for (i = 0; i < 3; i++)
		post_recv(sa, rmr, rbuf, BUF, 0xc0 + i);
	sattr.srq_limit = 2;
	check(!ibv_modify_srq(sa, &sattr, IBV_SRQ_LIMIT), "arm SRQ A limit");
	ok = 1;
	for (i = 0; i < 2; i++) {
		post_send(ini, IBV_WR_SEND, na, smr, sbuf, 32, 0, 0, 0, 0, 10);
		ok = ok && poll_one(scq, &wc, TIMEOUT_MS) == 1 &&
		     wc.status == IBV_WC_SUCCESS &&
		     poll_one(rcq, &wc, TIMEOUT_MS) == 1 &&
		     wc.status == IBV_WC_SUCCESS;
	}
	check(ok, "two SENDs into SRQ A");
	pfd.fd = ctx->async_fd;
	pfd.events = POLLIN;
	ok = poll(&pfd, 1, TIMEOUT_MS) == 1 && !ibv_get_async_event(ctx, &ev);
	check(ok && ev.event_type == IBV_EVENT_SRQ_LIMIT_REACHED &&
	      ev.element.srq == sa,
	      "SRQ limit event on SRQ A: %s",
	      ok ? ibv_event_type_str(ev.event_type) : "missing");
	if (ok)
		ibv_ack_async_event(&ev);

	/* RNR: no WQE when the SEND comes, one posted 100 ms later */
	ini3 = ini_qp();
	tgt3 = tgt_qp(xa);
	check(ini3 && tgt3 && !connect_pair(ini3, tgt3, 7),
	      "third pair (infinite RNR retry)");
	if (ini3 && tgt3) {
		struct ibv_srq *sc;
		uint32_t nc;

		sc = xrc_srq(xa, &nc);
		post_send(ini3, IBV_WR_SEND, nc, smr, sbuf, 2000, 0, 0, 0, 0,
			  11);
		usleep(100000);
		check(poll_one(scq, &wc, 0) == 0,
		      "SEND to an empty SRQ waits (RNR NAK)");
		post_recv(sc, rmr, rbuf, BUF, 0xd1);
		ok = poll_one(scq, &wc, TIMEOUT_MS) == 1;
		check(ok && wc.wr_id == 11 && wc.status == IBV_WC_SUCCESS,
		      "SEND after RNR retries: %s",
		      ok ? st(wc.status) : "missing");
		ok = poll_one(rcq, &wc, TIMEOUT_MS) == 1;
		check(ok && wc.wr_id == 0xd1 && wc.byte_len == 2000,
		      "SEND after RNR retries: received");
		check(!ibv_destroy_qp(ini3) && !ibv_destroy_qp(tgt3) &&
		      !ibv_destroy_srq(sc), "third pair torn down");
	}

	/* 3. SRQ B belongs to another XRC domain than the target QP */
	post_recv(sb, rmr, rbuf, BUF, 0xb1);
	post_send(ini, IBV_WR_SEND, nb, smr, sbuf, 64, 0, 0, 0, 0, 8);
	ok = poll_one(scq, &wc, TIMEOUT_MS) == 1;
	check(ok && wc.wr_id == 8 && wc.status == IBV_WC_REM_INV_REQ_ERR,
	      "SEND to SRQ of another XRCD: %s",
	      ok ? st(wc.status) : "missing");
	check(poll_one(rcq, &wc, 300) == 0,
	      "SEND to SRQ of another XRCD: nothing received");

	/* 4. a nonexistent SRQ number, on a fresh pair */
	ini2 = ini_qp();
	tgt2 = tgt_qp(xa);
	check(ini2 && tgt2 && !connect_pair(ini2, tgt2, 3), "second pair");
	if (ini2 && tgt2) {
		post_send(ini2, IBV_WR_SEND, 0xfffff0, smr, sbuf, 64, 0, 0, 0,
			  0, 9);
		ok = poll_one(scq, &wc, TIMEOUT_MS) == 1;
		check(ok && wc.wr_id == 9 &&
		      wc.status == IBV_WC_REM_INV_REQ_ERR,
		      "SEND to a nonexistent SRQ number: %s",
		      ok ? st(wc.status) : "missing");
	}
	/* flushes of the pairs in error, if any, go to scq: drain them */
	drain(scq);

	half_received(xa, smr, sbuf, rmr, rbuf);

	destroy_under_retries(xa, smr, sbuf);
	tgt_sqd(xa);
	provider_checks(xa, smr, sbuf, rmr, rbuf);
	open_qp_check(xa, smr, sbuf, rmr, rbuf);

	/* 7. teardown */
	ok = !ibv_destroy_qp(ini) && !ibv_destroy_qp(tgt);
	if (ini2)
		ok = ok && !ibv_destroy_qp(ini2);
	if (tgt2)
		ok = ok && !ibv_destroy_qp(tgt2);
	ok = ok && !ibv_destroy_srq(sa) && !ibv_destroy_srq(sb);
	ok = ok && !ibv_close_xrcd(xa) && !ibv_close_xrcd(xb);
	ok = ok && !ibv_dereg_mr(smr) && !ibv_dereg_mr(rmr) &&
	     !ibv_dereg_mr(tmr);
	ok = ok && !ibv_destroy_cq(scq) && !ibv_destroy_cq(rcq) &&
	     !ibv_dealloc_pd(pd);
	check(ok, "teardown");
	ibv_close_device(ctx);

	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
