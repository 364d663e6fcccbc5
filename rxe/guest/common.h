/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the rxe guest's programs share: TAP-like checks, a clock, one
 * completion polled with a deadline, the device by name, its IPv4 GID,
 * an XRC domain shared through a file, and GIDs as hex text for the
 * parent that passes them between processes.
 *
 * Each program is one translation unit, so everything here is static.
 */
#ifndef RXE_GUEST_COMMON_H
#define RXE_GUEST_COMMON_H

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <infiniband/verbs.h>

static int passed, failed;

static void check(int ok, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), unused));
static void check(int ok, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("%s - ", ok ? "ok" : "not ok");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
	if (ok)
		passed++;
	else
		failed++;
	fflush(stdout);
}

static inline long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* 1: a completion in *wc; 0: none within ms; -1: the CQ failed */
static inline int poll_one(struct ibv_cq *cq, struct ibv_wc *wc, int ms)
{
	long end = now_ms() + ms;
	int n;

	do {
		n = ibv_poll_cq(cq, 1, wc);
		if (n)
			return n > 0 ? 1 : -1;
		usleep(1000);
	} while (now_ms() < end);
	return 0;
}

/* The device called name, opened; NULL (errno ENODEV) if there is none */
static inline struct ibv_context *open_named_device(const char *name)
{
	struct ibv_context *ctx = NULL;
	struct ibv_device **list;
	int i, n;

	list = ibv_get_device_list(&n);
	for (i = 0; list && i < n && !ctx; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name))
			ctx = ibv_open_device(list[i]);
	if (list)
		ibv_free_device_list(list);
	if (!ctx)
		errno = ENODEV;
	return ctx;
}

/*
 * The index of the port's IPv4 GID (::ffff:a.b.c.d, RoCE v2 over an
 * IPv4 address), and the GID in *gid; -1 if the port has none
 */
static inline int find_ipv4_gid(struct ibv_context *ctx, uint8_t port,
				union ibv_gid *gid)
{
	struct ibv_port_attr pa;
	int i;

	if (ibv_query_port(ctx, port, &pa))
		return -1;
	for (i = 0; i < pa.gid_tbl_len; i++) {
		union ibv_gid g;

		if (ibv_query_gid(ctx, port, i, &g))
			continue;
		if (!g.raw[0] && g.raw[10] == 0xff && g.raw[11] == 0xff) {
			*gid = g;
			return i;
		}
	}
	return -1;
}

/*
 * The XRC domain named by a file, the file opened read-only with
 * file_flags (O_CREAT: made if missing), the domain with oflags (O_CREAT,
 * O_EXCL as ibv_open_xrcd() takes them). NULL with errno set on failure.
 */
static inline struct ibv_xrcd *open_file_xrcd(struct ibv_context *ctx,
					      const char *path, int file_flags,
					      int oflags)
{
	struct ibv_xrcd_init_attr a = {
		.comp_mask = IBV_XRCD_INIT_ATTR_FD | IBV_XRCD_INIT_ATTR_OFLAGS,
		.oflags = oflags,
	};
	struct ibv_xrcd *x;
	int err;

	a.fd = open(path, O_RDONLY | file_flags, 0600);
	if (a.fd < 0)
		return NULL;
	x = ibv_open_xrcd(ctx, &a);
	err = errno;
	close(a.fd);
	errno = err;
	return x;
}

/* The domain of a file: the processes that open the same file share it */
static inline struct ibv_xrcd *open_shared_xrcd(struct ibv_context *ctx,
						const char *path)
{
	return open_file_xrcd(ctx, path, O_CREAT, O_CREAT);
}

/*
 * An XRC SRQ of max_wr one-SGE receives in xrcd, completing on cq; NULL
 * with errno set on failure
 */
static inline struct ibv_srq *create_xrc_srq(struct ibv_context *ctx,
					     struct ibv_pd *pd,
					     struct ibv_xrcd *xrcd,
					     struct ibv_cq *cq, uint32_t max_wr)
{
	struct ibv_srq_init_attr_ex a = {
		.attr = { .max_wr = max_wr, .max_sge = 1 },
		.comp_mask = IBV_SRQ_INIT_ATTR_TYPE | IBV_SRQ_INIT_ATTR_PD |
			     IBV_SRQ_INIT_ATTR_XRCD | IBV_SRQ_INIT_ATTR_CQ,
		.srq_type = IBV_SRQT_XRC,
		.pd = pd,
		.xrcd = xrcd,
		.cq = cq,
	};

	return ibv_create_srq_ex(ctx, &a);
}

/* The address of a peer of the given GID, from port 1's GID sgid_index */
static inline struct ibv_ah_attr av_to(const union ibv_gid *peer,
				       int sgid_index)
{
	struct ibv_ah_attr av = {
		.is_global = 1,
		.port_num = 1,
		.grh = { .dgid = *peer, .sgid_index = sgid_index,
			 .hop_limit = 64 },
	};

	return av;
}

/* A GID as 32 hex digits, and back (0, or EINVAL) */
static inline void gid_to_hex(const union ibv_gid *g, char hex[33])
{
	unsigned int i;

	for (i = 0; i < sizeof(g->raw); i++)
		snprintf(hex + 2 * i, 3, "%02x", g->raw[i]);
}

static inline int gid_from_hex(const char *hex, union ibv_gid *g)
{
	unsigned int i, b;

	if (strlen(hex) != 2 * sizeof(g->raw))
		return EINVAL;
	for (i = 0; i < sizeof(g->raw); i++) {
		if (sscanf(hex + 2 * i, "%2x", &b) != 1)
			return EINVAL;
		g->raw[i] = b;
	}
	return 0;
}

/*
 * A receive QP to INIT and RTR towards an initiator's send QP, through
 * the registration verbs' modify (the caller holds a registration)
 */
static inline int xrc_rcv_to_rtr(struct ibv_xrcd *xrcd, uint32_t qpn,
				 uint32_t ini_qpn, const union ibv_gid *peer,
				 int sgid_index)
{
	struct ibv_qp_attr init = { .qp_state = IBV_QPS_INIT, .port_num = 1 };
	struct ibv_qp_attr rtr = {
		.qp_state = IBV_QPS_RTR,
		.path_mtu = IBV_MTU_1024,
		.dest_qp_num = ini_qpn,
		.rq_psn = 0,
		.max_dest_rd_atomic = 1,
		.min_rnr_timer = 12,
		.ah_attr = av_to(peer, sgid_index),
	};

	return ibv_modify_xrc_rcv_qp(xrcd, qpn, &init, IBV_QP_STATE |
				     IBV_QP_PKEY_INDEX | IBV_QP_PORT |
				     IBV_QP_ACCESS_FLAGS) ?:
	       ibv_modify_xrc_rcv_qp(xrcd, qpn, &rtr, IBV_QP_STATE | IBV_QP_AV |
				     IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
				     IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
				     IBV_QP_MIN_RNR_TIMER);
}

/*
 * An XRC send QP to RTS towards a receive QP. The retry budget is for a
 * guest under TCG on a loaded host, where an ACK can be late by tens of
 * milliseconds: a local ACK timeout of 4.096 us * 2^timeout (15: 134 ms,
 * 17: 537 ms), 6 retries (rxe takes 7 for "retry for ever"), so a send
 * to a QP that no longer exists fails after 7 timeouts; RNR NAKs are
 * retried for ever (a receiver may fall behind).
 */
static inline int xrc_ini_connect(struct ibv_qp *qp, uint32_t tgt_qpn,
				  const union ibv_gid *peer, int sgid_index,
				  uint8_t timeout)
{
	struct ibv_qp_attr init = { .qp_state = IBV_QPS_INIT, .port_num = 1 };
	struct ibv_qp_attr rtr = {
		.qp_state = IBV_QPS_RTR,
		.path_mtu = IBV_MTU_1024,
		.dest_qp_num = tgt_qpn,
		.ah_attr = av_to(peer, sgid_index),
	};
	struct ibv_qp_attr rts = {
		.qp_state = IBV_QPS_RTS,
		.timeout = timeout,
		.retry_cnt = 6,
		.rnr_retry = 7,
		.max_rd_atomic = 1,
	};

	return ibv_modify_qp(qp, &init, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			     IBV_QP_PORT | IBV_QP_ACCESS_FLAGS) ?:
	       ibv_modify_qp(qp, &rtr, IBV_QP_STATE | IBV_QP_AV |
			     IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
			     IBV_QP_RQ_PSN) ?:
	       ibv_modify_qp(qp, &rts, IBV_QP_STATE | IBV_QP_SQ_PSN |
			     IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
			     IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC);
}

/* An XRC send QP on its own CQ, max_send_wr deep */
static inline struct ibv_qp *create_xrc_send_qp(struct ibv_context *ctx,
						struct ibv_pd *pd,
						struct ibv_cq *cq,
						uint32_t max_send_wr)
{
	struct ibv_qp_init_attr_ex a = {
		.qp_type = IBV_QPT_XRC_SEND,
		.send_cq = cq,
		.cap = { .max_send_wr = max_send_wr, .max_send_sge = 1 },
		.comp_mask = IBV_QP_INIT_ATTR_PD,
		.pd = pd,
	};

	return ibv_create_qp_ex(ctx, &a);
}

#endif /* RXE_GUEST_COMMON_H */
