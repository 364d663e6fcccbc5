// SPDX-License-Identifier: GPL-2.0
/*
 * xrc_churn: the registration verbs' race fuzzer, with traffic.
 *
 * Initiators send without pause through XRC receive QPs while other
 * processes take and drop registrations on those QPs in every way a
 * process can: UNREG, exit without UNREG, ibv_close_device() without
 * UNREG, and kill -9 at a random moment (while opening the device, or
 * between or right after its REGs: a kill cannot stop an ioctl half
 * way, the file is released once it returns; mostly while holding).
 * What must hold:
 *
 *   - every message sent while its QP still has a registration arrives
 *     once, in order per sender, intact, at the SRQ it named, and its
 *     initiator sees it complete;
 *   - the last reference gone, the QP is: its initiator's next message
 *     ends in IBV_WC_RETRY_EXC_ERR, what arrived of the sender's stream
 *     is a prefix of it (nothing after a gap, nothing twice), `rdma
 *     resource` lists the QP no more and its number is no longer
 *     registrable;
 *   - once a REG of a QP's number was refused, no later REG of it
 *     succeeds (the last reference may be dropped by any process, in any
 *     of the four ways, while others REG the number);
 *   - each churner's own calls answer as the ABI says (REG of a live QP
 *     0, twice as well, of a number >= 2^24 EINVAL, UNREG of a QP the
 *     file holds no reference on EINVAL, closing the XRCD that holds
 *     references EBUSY);
 *   - the devices hold at the end what they held at the start, and the
 *     run's XRC domain is gone (its file opens with O_EXCL again).
 *
 * An epoch: NI initiators, each with an XRC send QP towards a receive
 * QP of its own that anchor A creates (REG of IBV_XRC_RCV_QPN_NEW) and
 * deputy D registers too. NS sinks, in the same XRC domain, receive on
 * their SRQs for the whole run; message k of a sender goes to sink
 * k % NS. While the initiators send, CHURNERS churners at a time
 * register both QPs and drop them; half way through, A drops its
 * registrations (UNREG, exit, close or kill -9, a different way each
 * epoch): the QPs must live on. Then D drops its own, again in one of
 * the four ways: in even epochs after the churners stopped, so that D's
 * is the last reference; in odd ones while they go on, so that the last
 * is a churner's. The QPs must die.
 *
 *   xrc_churn [-e epochs] [-t ms] [-s seed] <ibdev> [<initiators' ibdev>]
 *
 * Prints "ok"/"not ok" lines; exits 0 only if every check passed. The
 * seed is printed: the same seed makes the same choices, though not the
 * same interleavings.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <poll.h>
#include <sys/mman.h>

#include "common.h"
#include "agent.h"

#define NI		2	/* initiators (senders), each its receive QP */
#define NS		3	/* sinks: SRQs in the shared domain */
#define CHURNERS	4	/* churners alive at a time */
#define MAX_EPOCHS	16
#define WINDOW		4	/* sends outstanding per initiator */
#define RECVS		64	/* receives posted per sink */
#define MSG_LEN		6000	/* six packets at a 1024-byte MTU: a QP
				 * often dies in the middle of one */
#define BUF_MSGS	RECVS	/* >= WINDOW */
#define DRAIN_QUIET_MS	1500
#define STOP_MS		30000	/* a dead QP's sender must fail by then */
#define NO_ERROR	(-1)
#define MAX_FLUSHES	16	/* flushes between two reports */
#define ACK_TIMEOUT	17	/* 537 ms: 3.8 s without an ACK to fail */

/* The command formats below name each sink and sender */
_Static_assert(NS == 3 && NI == 2, "commands carry 3 SRQs and 2 senders");

/* What opens every message: who sent it, through which QP, where to */
struct hdr {
	uint32_t epoch, sender, seq, sink, tgt_qpn;
};

/* ---- an agent: one process, one device context, driven by commands ---- */

static struct ibv_context *ctx;
static struct ibv_pd *pd;
static struct ibv_cq *cq;
static struct ibv_mr *mr;
static struct ibv_xrcd *xrcd;
static struct ibv_srq *srq;
static struct ibv_qp *send_qp;
static union ibv_gid gid;
static int gidx = -1;
static char buf[BUF_MSGS * MSG_LEN];

/*
 * The device and its IPv4 GID; with queues, a PD, a CQ and the buffer's
 * MR too. Without: nothing of the device mapped into this process, so
 * that ibv_close_device() is the uverbs file's last close (rxe maps every
 * queue, and a mapping keeps the file open).
 */
static int open_dev(const char *name, int queues)
{
	ctx = open_named_device(name);
	if (!ctx)
		return ENODEV;
	gidx = find_ipv4_gid(ctx, 1, &gid);
	if (!queues)
		return gidx < 0 ? EIO : 0;
	pd = ibv_alloc_pd(ctx);
	cq = ibv_create_cq(ctx, 2 * RECVS, NULL, NULL, 0);
	mr = pd ? ibv_reg_mr(pd, buf, sizeof(buf), IBV_ACCESS_LOCAL_WRITE) :
		  NULL;
	return gidx < 0 || !pd || !cq || !mr ? EIO : 0;
}

static int post_slot(unsigned int slot)
{
	struct ibv_sge sge = { (uintptr_t)buf + slot * MSG_LEN, MSG_LEN,
			       mr->lkey };
	struct ibv_recv_wr wr = { .wr_id = slot, .sg_list = &sge,
				  .num_sge = 1 }, *bad;

	return ibv_post_srq_recv(srq, &wr, &bad);
}

static int make_srq(uint32_t *num)
{
	unsigned int i;

	srq = create_xrc_srq(ctx, pd, xrcd, cq, RECVS);
	if (!srq)
		return errno;
	for (i = 0; i < RECVS; i++)
		if (post_slot(i))
			return EIO;
	return ibv_get_srq_num(srq, num);
}

static int make_ini(uint32_t *qpn)
{
	send_qp = create_xrc_send_qp(ctx, pd, cq, WINDOW);
	if (!send_qp)
		return errno;
	*qpn = send_qp->qp_num;
	return 0;
}

/* The payload after the header: a function of the message and offset */
static char pattern(const struct hdr *h, unsigned int i)
{
	return (char)(h->seq * 131 + h->sender * 17 + h->epoch * 5 + i * 7);
}

static void fill(char *p, const struct hdr *h)
{
	unsigned int i;

	memcpy(p, h, sizeof(*h));
	for (i = sizeof(*h); i < MSG_LEN; i++)
		p[i] = pattern(h, i);
}

/* A command waiting on the socket? (without blocking) */
static int command_ready(int sock, int ms)
{
	struct pollfd p = { .fd = sock, .events = POLLIN };

	return poll(&p, 1, ms) > 0;
}

/*
 * The sender: messages back to back, WINDOW outstanding, message k to
 * sink k % NS, until an error completion or, once "stop" came, STOP_MS.
 * "status" answers "ok <acked> <posted> <first error status or -1>";
 * "stop" answers the same once nothing is outstanding any more.
 */
static void send_loop(int sock, const struct hdr *first, const uint32_t *srqn)
{
	struct hdr h = *first;
	uint32_t posted = 0, acked = 0, done = 0;
	int err = NO_ERROR, stopping = 0, stopped = 0;
	long stop_by = 0;
	char cmd[64];
	ssize_t r;

	for (;;) {
		struct ibv_wc wc;
		int n;

		while (err == NO_ERROR && posted - done < WINDOW && !stopped &&
		       !(stopping && now_ms() > stop_by)) {
			struct ibv_sge sge = {
				(uintptr_t)buf + (posted % BUF_MSGS) * MSG_LEN,
				MSG_LEN, mr->lkey };
			struct ibv_send_wr wr = {
				.wr_id = posted, .sg_list = &sge, .num_sge = 1,
				.opcode = IBV_WR_SEND,
				.send_flags = IBV_SEND_SIGNALED,
			}, *bad;

			h.seq = posted;
			h.sink = posted % NS;
			fill((char *)(uintptr_t)sge.addr, &h);
			wr.qp_type.xrc.remote_srqn = srqn[h.sink];
			if (ibv_post_send(send_qp, &wr, &bad)) {
				err = IBV_WC_GENERAL_ERR;
				break;
			}
			posted++;
		}
		n = ibv_poll_cq(cq, 1, &wc);
		if (n < 0)
			err = IBV_WC_GENERAL_ERR;
		if (n > 0) {
			done++;
			if (wc.status == IBV_WC_SUCCESS && err == NO_ERROR &&
			    wc.wr_id == acked)
				acked++;
			else if (err == NO_ERROR)
				err = wc.status == IBV_WC_SUCCESS ?
				      IBV_WC_GENERAL_ERR : (int)wc.status;
		}
		/* a CQ that fails has nothing more to give: stop waiting */
		if (stopping && (done == posted || n < 0) &&
		    (err != NO_ERROR || now_ms() > stop_by)) {
			dprintf(sock, "ok %u %u %d", acked, posted, err);
			stopping = 0;
			stopped = 1;
		}
		if (n > 0 || !command_ready(sock, n ? 0 : 1))
			continue;
		r = read(sock, cmd, sizeof(cmd) - 1);
		if (r <= 0)
			_exit(0);
		cmd[r] = 0;
		if (!strcmp(cmd, "status")) {
			dprintf(sock, "ok %u %u %d", acked, posted, err);
		} else if (!strcmp(cmd, "stop") && !stopped) {
			stopping = 1;
			stop_by = now_ms() + STOP_MS;
		} else if (!strcmp(cmd, "stop")) {
			dprintf(sock, "ok %u %u %d", acked, posted, err);
		} else {
			_exit(0);	/* "exit" */
		}
	}
}

/* What a sink has seen: messages per epoch and sender, flushed WQEs */
struct sink {
	uint32_t me;
	uint32_t count[MAX_EPOCHS][NI];
	uint32_t next[MAX_EPOCHS][NI];	/* the sequence number due */
	uint32_t flushed_qpn[MAX_FLUSHES];
	unsigned int flushed, reported;	/* flushes, those reported */
	char fault[256];		/* the first, if any */
};

/*
 * One completion at a sink. A message must arrive whole, through the QP
 * it names, at this sink, as its sender's next for this sink. A WQE may
 * also come back flushed: the one a receive QP had taken for a message
 * when the QP died under it (the SRQ's WQE is consumed at the message's
 * first packet); the parent checks that only dying QPs did that.
 */
static void sink_take(struct sink *k, const struct ibv_wc *wc)
{
	char *p = buf + (wc->wr_id % BUF_MSGS) * MSG_LEN;
	unsigned int i;
	struct hdr h;

	memcpy(&h, p, sizeof(h));
	for (i = sizeof(h); i < MSG_LEN; i++)
		if (p[i] != pattern(&h, i))
			break;
	if (k->fault[0]) {
		/* the first fault is the one to report */
	} else if (wc->wr_id >= BUF_MSGS) {
		snprintf(k->fault, sizeof(k->fault), "a completion of wr_id %llu",
			 (unsigned long long)wc->wr_id);
		return;
	} else if (wc->status == IBV_WC_WR_FLUSH_ERR) {
		if (k->flushed - k->reported < MAX_FLUSHES)
			k->flushed_qpn[k->flushed - k->reported] = wc->qp_num;
		k->flushed++;
	} else if (wc->status != IBV_WC_SUCCESS || wc->opcode != IBV_WC_RECV ||
		   wc->byte_len != MSG_LEN) {
		snprintf(k->fault, sizeof(k->fault),
			 "completion %s, opcode %d, %u bytes",
			 ibv_wc_status_str(wc->status), wc->opcode,
			 wc->byte_len);
	} else if (h.epoch >= MAX_EPOCHS || h.sender >= NI || h.sink != k->me ||
		   i != MSG_LEN || wc->qp_num != h.tgt_qpn) {
		snprintf(k->fault, sizeof(k->fault),
			 "message e%u s%u #%u for sink %u via QP %#x, received via %#x, payload %s",
			 h.epoch, h.sender, h.seq, h.sink, h.tgt_qpn,
			 wc->qp_num, i == MSG_LEN ? "intact" : "corrupt");
	} else if (h.seq != k->next[h.epoch][h.sender]) {
		snprintf(k->fault, sizeof(k->fault),
			 "epoch %u sender %u: message #%u, expected #%u (%s)",
			 h.epoch, h.sender, h.seq, k->next[h.epoch][h.sender],
			 h.seq < k->next[h.epoch][h.sender] ?
			 "again or out of order" : "a gap");
	} else {
		k->count[h.epoch][h.sender]++;
		k->next[h.epoch][h.sender] += NS;
	}
	/* no byte of this message may pass for a later one's */
	memset(p, 0xa5, MSG_LEN);
	if (post_slot(wc->wr_id) && !k->fault[0])
		snprintf(k->fault, sizeof(k->fault), "repost failed");
}

/*
 * "ok <messages of sender 0 in epoch e> <of sender 1> <flushes since the
 * last report> <their QP numbers>", or "err <errno> <the first fault>"
 */
static void sink_report(int sock, struct sink *k, unsigned int e)
{
	char out[256];
	unsigned int s, f;
	int len;

	if (k->fault[0]) {
		dprintf(sock, "err %d %s", EIO, k->fault);
		return;
	}
	len = snprintf(out, sizeof(out), "ok");
	for (s = 0; s < NI; s++)
		len += snprintf(out + len, sizeof(out) - len, " %u",
				k->count[e][s]);
	len += snprintf(out + len, sizeof(out) - len, " %u",
			k->flushed - k->reported);
	for (f = 0; f < k->flushed - k->reported && f < MAX_FLUSHES; f++)
		len += snprintf(out + len, sizeof(out) - len, " %x",
				k->flushed_qpn[f]);
	k->reported = k->flushed;
	dprintf(sock, "%s", out);
}

/*
 * A sink: takes each completion as it comes and gives the buffer back.
 * "report <epoch>" waits until nothing came for DRAIN_QUIET_MS, then
 * answers with sink_report(); "flushes" answers at once "ok <flushes
 * since the last report>".
 */
static void sink_loop(int sock, uint32_t me)
{
	static struct sink k;
	long quiet_until = 0;
	int reporting = -1;
	unsigned int e, s;
	char cmd[64];
	ssize_t r;

	k.me = me;
	for (e = 0; e < MAX_EPOCHS; e++)
		for (s = 0; s < NI; s++)
			k.next[e][s] = me;
	for (;;) {
		struct ibv_wc wc;
		int n = ibv_poll_cq(cq, 1, &wc);

		if (n < 0 && !k.fault[0])
			snprintf(k.fault, sizeof(k.fault), "ibv_poll_cq failed");
		if (n > 0) {
			quiet_until = now_ms() + DRAIN_QUIET_MS;
			sink_take(&k, &wc);
			continue;
		}
		if (reporting >= 0 && now_ms() > quiet_until) {
			sink_report(sock, &k, reporting);
			reporting = -1;
		}
		if (!command_ready(sock, 1))
			continue;
		r = read(sock, cmd, sizeof(cmd) - 1);
		if (r <= 0)
			_exit(0);
		cmd[r] = 0;
		if (sscanf(cmd, "report %u", &e) == 1 && e < MAX_EPOCHS) {
			reporting = e;
			quiet_until = now_ms() + DRAIN_QUIET_MS;
		} else if (!strcmp(cmd, "flushes")) {
			dprintf(sock, "ok %x", k.flushed - k.reported);
		} else if (!strcmp(cmd, "exit")) {
			_exit(0);
		} else {
			dprintf(sock, "err %d unknown command", EINVAL);
		}
	}
}

/* One command, one reply: "ok [value]" or "err <errno> <why>" */
static void serve(int sock)
{
	char cmd[256], arg[64];
	uint32_t srqn[NS];
	union ibv_gid peer;
	unsigned int u, v;
	struct hdr h = {};
	uint32_t num;
	ssize_t r;
	int rc;

	while ((r = read(sock, cmd, sizeof(cmd) - 1)) > 0) {
		cmd[r] = 0;
		num = 0;
		rc = 0;
		if (!strcmp(cmd, "exit")) {
			_exit(0);	/* no UNREG: the kernel releases it all */
		} else if (sscanf(cmd, "open %63s", arg) == 1) {
			rc = open_dev(arg, 1);
		} else if (sscanf(cmd, "ctx %63s", arg) == 1) {
			rc = open_dev(arg, 0);
		} else if (!strcmp(cmd, "gid")) {
			char hex[33];

			gid_to_hex(&gid, hex);
			dprintf(sock, "ok 0 %s", hex);
			continue;
		} else if (sscanf(cmd, "xrcd %63s", arg) == 1) {
			xrcd = open_shared_xrcd(ctx, arg);
			rc = xrcd ? 0 : errno;
		} else if (sscanf(cmd, "xrcd-excl %63s", arg) == 1) {
			/* O_EXCL: uverbs refuses a file whose inode has a domain */
			xrcd = open_file_xrcd(ctx, arg, 0, O_CREAT | O_EXCL);
			rc = xrcd ? 0 : errno;
		} else if (sscanf(cmd, "reg %x", &u) == 1) {
			num = u;
			rc = ibv_reg_xrc_rcv_qp(xrcd, &num);
		} else if (sscanf(cmd, "unreg %x", &u) == 1) {
			rc = ibv_unreg_xrc_rcv_qp(xrcd, u);
		} else if (!strcmp(cmd, "close")) {
			/* the device closed under its registrations */
			rc = ibv_close_device(ctx);
			ctx = NULL;
		} else if (sscanf(cmd, "rtr %x %x %63s", &u, &v, arg) == 3) {
			rc = gid_from_hex(arg, &peer) ?:
			     xrc_rcv_to_rtr(xrcd, u, v, &peer, gidx);
		} else if (!strcmp(cmd, "srq")) {
			rc = make_srq(&num);
		} else if (sscanf(cmd, "sink %u", &u) == 1) {
			dprintf(sock, "ok 0");
			sink_loop(sock, u);
		} else if (!strcmp(cmd, "ini")) {
			rc = make_ini(&num);
		} else if (sscanf(cmd, "connect %x %63s", &u, arg) == 2) {
			h.tgt_qpn = u;
			rc = gid_from_hex(arg, &peer) ?:
			     xrc_ini_connect(send_qp, u, &peer, gidx,
					     ACK_TIMEOUT);
		} else if (sscanf(cmd, "send %u %u %x %x %x", &h.epoch,
				  &h.sender, &srqn[0], &srqn[1], &srqn[2]) == 2 + NS) {
			dprintf(sock, "ok 0");
			send_loop(sock, &h, srqn);
		} else {
			rc = EINVAL;
		}
		if (rc)
			dprintf(sock, "err %d %s", rc, strerror(rc));
		else
			dprintf(sock, "ok %x", num);
	}
	_exit(0);
}

/* ---- churners ---- */

/* How a registration ends (churners, and A and D in turn) */
enum drop { DROP_UNREG, DROP_EXIT, DROP_CLOSE, DROP_KILL, DROPS };
static const char *const drop_name[DROPS] = {
	"UNREG", "exit without UNREG", "ibv_close_device without UNREG",
	"kill -9",
};

/* Where a churner is: what a kill -9 interrupted */
enum phase { PH_OPEN, PH_XRCD, PH_REG, PH_HOLD, PHASES };
static const char *const phase_name[PHASES] = {
	"opening the device", "between XRCD open and REG",
	"between or right after its REGs", "holding its registrations",
};

/*
 * Shared with the churners (MAP_SHARED): the phase of each, and every REG
 * of an epoch with its result and time, to check that a QP's number,
 * once refused, is never registered again
 */
#define MAX_REGS	4096
struct reg_event {
	long start_us, end_us;
	uint32_t qpn;
	int rc;
};
struct churn_log {
	unsigned char phase[CHURNERS];
	unsigned int regs;
	struct reg_event reg[MAX_REGS];
};
static struct churn_log *ledger;

static long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* A REG of qpn, logged */
static int logged_reg(uint32_t qpn)
{
	unsigned int k = __atomic_fetch_add(&ledger->regs, 1, __ATOMIC_RELAXED);
	long start = now_us();
	uint32_t num = qpn;
	int rc = ibv_reg_xrc_rcv_qp(xrcd, &num);

	if (!rc && num != qpn)
		rc = EIO;
	if (k < MAX_REGS)
		ledger->reg[k] = (struct reg_event){ start, now_us(), qpn, rc };
	return rc;
}

static uint64_t rng;

static unsigned int rnd(unsigned int n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned int)(rng % n);
}

static int churn_fail(const char *what, int err)
{
	printf("not ok - churner %d: %s: %s\n", (int)getpid(), what,
	       strerror(err));
	fflush(stdout);
	return 1;
}

/*
 * A churner's life: the device, the domain, a REG of each receive QP (two
 * for DROP_UNREG: the file's count of references), a moment with them
 * held while traffic flows, then the registrations dropped as told
 * (DROP_KILL: held until the parent's SIGKILL, which may come at any
 * point of this). Unless may_die, D holds the QPs throughout and every
 * REG must succeed; otherwise a QP may have died already (EINVAL), and
 * is then left alone. Exit status 0 if every call answered as the ABI
 * says.
 */
static int churn(unsigned int slot, const char *dev, const char *xrcd_path,
		 const uint32_t *qpn, enum drop how, unsigned int hold_ms,
		 int may_die)
{
	unsigned int i, refs = how == DROP_UNREG ? 2 : 1, held = 0;
	int alive[NI], err, r;
	uint32_t num;

	ledger->phase[slot] = PH_OPEN;
	ctx = open_named_device(dev);
	if (!ctx)
		return churn_fail("open the device", errno);
	xrcd = open_shared_xrcd(ctx, xrcd_path);
	if (!xrcd)
		return churn_fail("open the XRCD", errno);
	ledger->phase[slot] = PH_XRCD;
	if (how == DROP_UNREG) {
		err = ibv_unreg_xrc_rcv_qp(xrcd, qpn[0]);
		if (err != EINVAL)
			return churn_fail("UNREG before REG, not EINVAL", err);
		num = 1u << 24;
		err = ibv_reg_xrc_rcv_qp(xrcd, &num);
		if (err != EINVAL)
			return churn_fail("REG of 2^24, not EINVAL", err);
	}
	ledger->phase[slot] = PH_REG;
	for (i = 0; i < NI; i++) {
		err = logged_reg(qpn[i]);
		alive[i] = !err;
		if (err && !(may_die && err == EINVAL))
			return churn_fail("REG of a live receive QP", err);
		/* a second REG, with a reference held, cannot fail */
		for (r = 1; alive[i] && r < (int)refs; r++) {
			err = logged_reg(qpn[i]);
			if (err)
				return churn_fail("REG of a QP it holds", err);
		}
		held += alive[i];
	}
	ledger->phase[slot] = PH_HOLD;
	usleep(hold_ms * 1000);
	switch (how) {
	case DROP_UNREG:
		err = ibv_close_xrcd(xrcd);
		if (held && err != EBUSY)
			return churn_fail("close of the XRCD it holds QPs of, not EBUSY",
					  err);
		if (!held)
			return err ? churn_fail("close the XRCD", err) : 0;
		for (i = 0; i < NI; i++) {
			for (r = 0; alive[i] && r < (int)refs; r++) {
				err = ibv_unreg_xrc_rcv_qp(xrcd, qpn[i]);
				if (err)
					return churn_fail("UNREG", err);
			}
			err = ibv_unreg_xrc_rcv_qp(xrcd, qpn[i]);
			if (err != EINVAL)
				return churn_fail("UNREG once more than REG, not EINVAL",
						  err);
		}
		err = ibv_close_xrcd(xrcd);
		return err ? churn_fail("close the XRCD", err) : 0;
	case DROP_CLOSE:
		err = ibv_close_device(ctx);
		if (err)
			return churn_fail("ibv_close_device", err);
		usleep(hold_ms * 1000);	/* alive, the registrations gone */
		return 0;
	case DROP_KILL:
		for (;;)
			pause();
	default:
		return 0;	/* DROP_EXIT */
	}
}

struct churner {
	pid_t pid;
	enum drop how;
	long kill_at;
};

static unsigned int churned[DROPS], churn_failed, killed_in[PHASES];

static void churner_start(struct churner *c, unsigned int slot,
			  const char *dev, const char *xrcd_path,
			  const uint32_t *qpn, int may_die)
{
	unsigned int hold = 20 + rnd(200);

	c->how = rnd(DROPS);
	c->kill_at = now_ms() + rnd(400);
	ledger->phase[slot] = PH_OPEN;
	fflush(stdout);
	c->pid = fork();
	if (c->pid < 0) {
		perror("fork");
		exit(2);
	}
	if (!c->pid) {
		close_range(3, ~0U, 0);	/* none of the agents' sockets */
		_exit(churn(slot, dev, xrcd_path, qpn, c->how, hold, may_die));
	}
}

/* Reap a churner that ended (wait: also one that has not); 1 if reaped */
static int churner_reap(struct churner *c, unsigned int slot, int wait)
{
	int status;
	pid_t r;

	if (!c->pid)
		return 0;
	if (c->how == DROP_KILL && (wait || now_ms() >= c->kill_at)) {
		killed_in[ledger->phase[slot]]++;
		kill(c->pid, SIGKILL);
		wait = 1;
	}
	if (wait) {
		status = reap(c->pid);
	} else {
		r = waitpid(c->pid, &status, WNOHANG);
		if (r != c->pid)
			return 0;
		status = exit_code(status);
	}
	if (status != (c->how == DROP_KILL ? 128 + SIGKILL : 0)) {
		printf("# churner %d (%s) ended with status %d\n", (int)c->pid,
		       drop_name[c->how], status);
		churn_failed++;
	}
	churned[c->how]++;
	c->pid = 0;
	return 1;
}

/*
 * Whether a QP's number, once refused, was never registered again: no
 * REG that began after a REG of it returned EINVAL succeeded. *refused:
 * how many REGs of it were refused.
 */
static int never_revived(uint32_t qpn, unsigned int *refused)
{
	unsigned int k, n = ledger->regs < MAX_REGS ? ledger->regs : MAX_REGS;
	long first_refusal = -1;

	*refused = 0;
	for (k = 0; k < n; k++)
		if (ledger->reg[k].qpn == qpn && ledger->reg[k].rc == EINVAL) {
			(*refused)++;
			if (first_refusal < 0 || ledger->reg[k].end_us < first_refusal)
				first_refusal = ledger->reg[k].end_us;
		}
	for (k = 0; k < n && first_refusal >= 0; k++)
		if (ledger->reg[k].qpn == qpn && !ledger->reg[k].rc &&
		    ledger->reg[k].start_us > first_refusal)
			return 0;
	return 1;
}

/* ---- the parent ---- */

/* The device's line of `rdma resource show`: its object counts */
static void resources(const char *dev, char *line, size_t len)
{
	char l[256], want[32];
	FILE *p;

	line[0] = 0;
	snprintf(want, sizeof(want), " %s: ", dev);
	p = popen("rdma resource show 2>&1", "r");
	if (!p)
		return;
	while (fgets(l, sizeof(l), p))
		if (strstr(l, want)) {
			l[strcspn(l, "\n")] = 0;
			snprintf(line, len, "%s;", strchr(l, ':') + 1);
		}
	pclose(p);
}

/* A registration dropped the way told; for DROP_KILL a SIGKILL */
static void drop(struct agent *a, const uint32_t *qpn, enum drop how)
{
	unsigned int i;
	int rc;

	switch (how) {
	case DROP_UNREG:
		for (i = 0; i < NI; i++)
			must(a, NULL, "UNREG", "unreg %x", qpn[i]);
		return;
	case DROP_CLOSE:
		must(a, NULL, "ibv_close_device", "close");
		return;
	case DROP_EXIT:
		ask(a, NULL, "exit");
		break;
	default:
		kill(a->pid, SIGKILL);
	}
	rc = reap(a->pid);
	agent_forget(a);
	check(rc == (how == DROP_KILL ? 128 + SIGKILL : 0), "%s: %s (status %d)",
	      a->name, drop_name[how], rc);
}

static void agent_end(struct agent *a)
{
	if (!a->pid)
		return;
	ask(a, NULL, "exit");
	reap(a->pid);
	agent_forget(a);
}

/* Counts of a sender's messages at sink d if R of them arrived, a prefix */
static uint32_t prefix_share(uint32_t r, unsigned int d)
{
	return r > d ? (r - d + NS - 1) / NS : 0;
}

struct run {
	const char *dev, *ini_dev;
	char xrcd_path[64], rgid[40];
	struct agent sink[NS];
	uint32_t srqn[NS];
	unsigned int epochs, churn_ms, flushes;
	uint64_t delivered;
};

/* The churn phase: CHURNERS churners at a time for ms milliseconds */
static void churn_for(struct run *run, const uint32_t *qpn, unsigned int ms,
		      struct churner *pool, int may_die)
{
	long end = now_ms() + ms;
	unsigned int i;

	while (now_ms() < end) {
		for (i = 0; i < CHURNERS; i++) {
			churner_reap(&pool[i], i, 0);
			if (!pool[i].pid)
				churner_start(&pool[i], i, run->dev,
					      run->xrcd_path, qpn, may_die);
		}
		usleep(5000);
	}
}

/* Every sender's counters: "status" now, or "stop" once it has stopped */
static int senders(struct agent *ini, const char *cmd, uint32_t *acked,
		   uint32_t *posted, int *err)
{
	unsigned int s;

	for (s = 0; s < NI; s++)
		if (must(&ini[s], NULL, cmd, "%s", cmd) ||
		    sscanf(ini[s].reply, "ok %u %u %d", &acked[s], &posted[s],
			   &err[s]) != 3)
			return -1;
	return 0;
}

/*
 * Everything received in epoch e, once the senders stopped: each sender's
 * stream a prefix of what it sent, holding every send that completed;
 * the flushed receives, one per dying QP at most
 */
static int deliveries(struct run *run, unsigned int e, const uint32_t *qpn,
		      const uint32_t *acked, const uint32_t *posted)
{
	unsigned int s, d, f, flushes = 0, flushes_ok = 1, flushed[NI] = {};
	uint32_t got[NS][NI];

	for (d = 0; d < NS; d++) {
		unsigned int n, q[NI + 1] = {};

		if (must(&run->sink[d], NULL, "report", "report %u", e) ||
		    sscanf(run->sink[d].reply, "ok %u %u %u %x %x %x",
			   &got[d][0], &got[d][1], &n, &q[0], &q[1],
			   &q[2]) < NI + 1)
			return -1;
		flushes += n;
		for (f = 0; f < n && f <= NI; f++) {
			for (s = 0; s < NI && q[f] != qpn[s]; s++)
				;
			if (s == NI || flushed[s]++)
				flushes_ok = 0;
		}
	}
	check(flushes_ok && flushes <= NI,
	      "epoch %u: %u receives flushed, by the dying QPs, one each at most",
	      e, flushes);
	run->flushes += flushes;
	for (s = 0; s < NI; s++) {
		uint32_t r = 0, prefix = 1;

		for (d = 0; d < NS; d++)
			r += got[d][s];
		for (d = 0; d < NS; d++)
			prefix &= got[d][s] == prefix_share(r, d);
		check(prefix && r >= acked[s] && r <= posted[s],
		      "epoch %u: sender %u: %u arrived, each once and in order, a prefix of the %u sent, all %u completed among them",
		      e, s, r, posted[s], acked[s]);
		run->delivered += r;
	}
	return 0;
}

/* The QPs are gone: not listed, their numbers no longer registrable */
static void dead(struct run *run, unsigned int e, const uint32_t *qpn)
{
	unsigned int s;

	for (s = 0; s < NI; s++) {
		struct agent probe = {};
		uint32_t num;
		int rc;

		check(qp_listed(run->dev, qpn[s]) == 0,
		      "epoch %u: rdma resource lists QP %#x no more", e, qpn[s]);
		start(&probe, serve, "P%u.%u", e, s);
		if (!must(&probe, NULL, "open the device", "ctx %s", run->dev) &&
		    !must(&probe, NULL, "open the XRCD", "xrcd %s", run->xrcd_path)) {
			rc = ask(&probe, &num, "reg %x", qpn[s]);
			check(rc == EINVAL, "epoch %u: REG of the dead QP %#x: EINVAL (%s)",
			      e, qpn[s], probe.reply);
		}
		agent_end(&probe);
	}
}

/*
 * One epoch. Even epochs: D's registrations are the last, dropped once
 * the churners are gone. Odd ones: D drops its own three quarters of the
 * way while the churners go on, so that the last reference is a
 * churner's (or D's, if no churner held one then), dropped in any of the
 * four ways, with REGs of the number racing it.
 */
static void epoch(struct run *run, unsigned int e)
{
	struct agent ini[NI] = {}, anchor = {}, deputy = {};
	struct churner pool[CHURNERS] = {};
	uint32_t qpn[NI], iqpn[NI], acked[NI], posted[NI];
	enum drop a_how = e % DROPS, d_how = (e + 1 + e / DROPS) % DROPS;
	int err[NI], churner_last = e % 2;
	unsigned int i, s, d, ok_sends = 1, refused;
	char igid[40];

	printf("# epoch %u: A drops by %s half way, D by %s %s\n", e,
	       drop_name[a_how], drop_name[d_how],
	       churner_last ? "while churners go on" : "last");
	ledger->regs = 0;
	for (s = 0; s < NI; s++) {
		start(&ini[s], serve, "I%u.%u", e, s);
		if (must(&ini[s], NULL, "open the device", "open %s", run->ini_dev) ||
		    must(&ini[s], NULL, "its GID", "gid") ||
		    sscanf(ini[s].reply, "ok %*x %39s", igid) != 1 ||
		    must(&ini[s], &iqpn[s], "XRC send QP", "ini"))
			goto out;
	}
	start(&anchor, serve, "A%u", e);
	start(&deputy, serve, "D%u", e);
	if (must(&anchor, NULL, "open the device", "ctx %s", run->dev) ||
	    must(&anchor, NULL, "open the XRCD", "xrcd %s", run->xrcd_path) ||
	    must(&deputy, NULL, "open the device", "ctx %s", run->dev) ||
	    must(&deputy, NULL, "open the XRCD", "xrcd %s", run->xrcd_path))
		goto out;
	for (s = 0; s < NI; s++)
		if (must(&anchor, &qpn[s], "REG of IBV_XRC_RCV_QPN_NEW", "reg ffffffff") ||
		    must(&deputy, NULL, "REG of A's QP", "reg %x", qpn[s]) ||
		    must(&anchor, NULL, "receive QP to RTR", "rtr %x %x %s",
			 qpn[s], iqpn[s], igid) ||
		    must(&ini[s], NULL, "send QP to RTS", "connect %x %s", qpn[s],
			 run->rgid) ||
		    must(&ini[s], NULL, "start sending", "send %u %u %x %x %x", e,
			 s, run->srqn[0], run->srqn[1], run->srqn[2]))
			goto out;

	/* registrations come and go; A's go half way */
	churn_for(run, qpn, run->churn_ms / 2, pool, 0);
	drop(&anchor, qpn, a_how);
	churn_for(run, qpn, run->churn_ms / (churner_last ? 4 : 2), pool, 0);
	for (i = 0; i < CHURNERS && !churner_last; i++)
		churner_reap(&pool[i], i, 1);

	/* so far, with D's registrations there throughout, no send failed */
	if (senders(ini, "status", acked, posted, err))
		goto out;
	for (s = 0; s < NI; s++) {
		ok_sends &= err[s] == NO_ERROR && acked[s] > 0;
		if (err[s] != NO_ERROR)
			printf("# I%u.%u: %s after %u of %u completed\n", e, s,
			       ibv_wc_status_str(err[s]), acked[s], posted[s]);
	}
	check(ok_sends, "epoch %u: while registered, %u and %u sends completed, none failed",
	      e, acked[0], acked[1]);
	for (s = 0; s < NI; s++)
		check(qp_listed(run->dev, qpn[s]) == 1,
		      "epoch %u: rdma resource lists QP %#x", e, qpn[s]);
	for (d = 0; d < NS; d++) {
		uint32_t n = 0;

		if (must(&run->sink[d], &n, "flushes", "flushes"))
			goto out;
		check(!n, "epoch %u: S%u: no receive flushed while the QPs lived (%u)",
		      e, d, n);
	}

	/* D's go: the QPs die, now or when the last churner lets go */
	drop(&deputy, qpn, d_how);
	if (churner_last)
		churn_for(run, qpn, run->churn_ms / 4, pool, 1);
	for (i = 0; i < CHURNERS; i++)
		churner_reap(&pool[i], i, 1);
	if (senders(ini, "stop", acked, posted, err))
		goto out;
	for (s = 0; s < NI; s++)
		check(err[s] == IBV_WC_RETRY_EXC_ERR && posted[s] - acked[s] <= WINDOW,
		      "epoch %u: I%u's sends to the dead QP %#x end in IBV_WC_RETRY_EXC_ERR (%s) after %u of %u completed",
		      e, s, qpn[s], err[s] == NO_ERROR ? "no error" :
		      ibv_wc_status_str(err[s]), acked[s], posted[s]);
	if (deliveries(run, e, qpn, acked, posted))
		goto out;
	for (s = 0; s < NI; s++) {
		int ok = never_revived(qpn[s], &refused);

		if (churner_last)
			printf("# QP %#x: %u REGs of churners refused after it died\n",
			       qpn[s], refused);
		check(ok, "epoch %u: no REG of QP %#x succeeded once one was refused",
		      e, qpn[s]);
	}
	dead(run, e, qpn);
out:
	for (i = 0; i < CHURNERS; i++)
		churner_reap(&pool[i], i, 1);
	for (s = 0; s < NI; s++)
		agent_end(&ini[s]);
	agent_end(&anchor);
	agent_end(&deputy);
}

/* The XRC domain of the file is gone once all its users are: no leak */
static void domain_gone(struct run *run)
{
	struct agent probe = {};

	start(&probe, serve, "X");
	if (!must(&probe, NULL, "open the device", "ctx %s", run->dev))
		check(ask(&probe, NULL, "xrcd-excl %s", run->xrcd_path) == 0,
		      "the run's XRC domain is gone: opening its file with O_EXCL succeeds (%s)",
		      probe.reply);
	agent_end(&probe);
}

static unsigned int number(const char *arg, unsigned int max)
{
	char *end;
	unsigned long v = strtoul(arg, &end, 0);

	return *end || v > max ? 0 : (unsigned int)v;
}

int main(int argc, char **argv)
{
	struct run run = { .epochs = DROPS, .churn_ms = 6000 };
	char before[512], after[512];
	uint64_t seed = (uint64_t)time(NULL);
	unsigned int d, e, total = 0;
	int opt;

	while ((opt = getopt(argc, argv, "e:t:s:")) != -1) {
		if (opt == 'e')
			run.epochs = number(optarg, MAX_EPOCHS);
		else if (opt == 't')
			run.churn_ms = number(optarg, 600000);
		else if (opt == 's')
			seed = strtoull(optarg, NULL, 0);
		else
			optind = argc + 1;
	}
	if (optind >= argc || argc - optind > 2 || !run.epochs ||
	    run.churn_ms < 400) {
		fprintf(stderr, "usage: %s [-e epochs (1-%d)] [-t churn ms (>= 400)] [-s seed] <ibdev> [<initiators' ibdev>]\n",
			argv[0], MAX_EPOCHS);
		return 2;
	}
	run.dev = argv[optind];
	run.ini_dev = argc - optind > 1 ? argv[optind + 1] : run.dev;
	rng = seed | 1;
	ledger = mmap(NULL, sizeof(*ledger), PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (ledger == MAP_FAILED) {
		perror("mmap");
		return 2;
	}
	printf("xrc_churn: receive QPs on %s, initiators on %s, %u epochs of %u ms, seed %" PRIu64 "\n",
	       run.dev, run.ini_dev, run.epochs, run.churn_ms, seed);
	signal(SIGPIPE, SIG_IGN);
	must_quiet = 1;
	resources(run.dev, before, sizeof(before));
	if (strcmp(run.ini_dev, run.dev))
		resources(run.ini_dev, before + strlen(before),
			  sizeof(before) - strlen(before));
	snprintf(run.xrcd_path, sizeof(run.xrcd_path), "/tmp/xrc_churn.%d",
		 (int)getpid());

	for (d = 0; d < NS; d++) {
		start(&run.sink[d], serve, "S%u", d);
		if (must(&run.sink[d], NULL, "open the device", "open %s", run.dev) ||
		    must(&run.sink[d], NULL, "open the XRCD", "xrcd %s", run.xrcd_path) ||
		    must(&run.sink[d], &run.srqn[d], "XRC SRQ", "srq"))
			goto out;
	}
	if (must(&run.sink[0], NULL, "its GID", "gid") ||
	    sscanf(run.sink[0].reply, "ok %*x %39s", run.rgid) != 1)
		goto out;
	for (d = 0; d < NS; d++)
		if (must(&run.sink[d], NULL, "start receiving", "sink %u", d))
			goto out;

	for (e = 0; e < run.epochs && !failed; e++)
		epoch(&run, e);

	for (d = 0; d < DROPS; d++) {
		printf("# churners that dropped by %s: %u\n", drop_name[d],
		       churned[d]);
		total += churned[d];
	}
	for (d = 0; d < PHASES; d++)
		printf("# kill -9 of a churner %s: %u\n", phase_name[d],
		       killed_in[d]);
	printf("# receives flushed by dying QPs: %u\n", run.flushes);
	check(!churn_failed && churned[DROP_UNREG] && churned[DROP_EXIT] &&
	      churned[DROP_CLOSE] && churned[DROP_KILL] && killed_in[PH_HOLD],
	      "%u churners, of each way, killed while holding too; each call of each as the ABI says (%u not)",
	      total, churn_failed);
out:
	for (d = 0; d < NS; d++)
		agent_end(&run.sink[d]);
	domain_gone(&run);
	unlink(run.xrcd_path);
	resources(run.dev, after, sizeof(after));
	if (strcmp(run.ini_dev, run.dev))
		resources(run.ini_dev, after + strlen(after),
			  sizeof(after) - strlen(after));
	/* one line per device, each ended by ';' */
	for (d = 0, total = 0; before[d]; d++)
		total += before[d] == ';';
	check(total == 1u + !!strcmp(run.ini_dev, run.dev) &&
	      !strcmp(before, after),
	      "the devices hold what they held before:%s", after);
	printf("xrc_churn: %d passed, %d failed; %" PRIu64 " messages delivered\n",
	       passed, failed, run.delivered);
	return failed || !passed;
}
