// SPDX-License-Identifier: GPL-2.0
/*
 * xrc_churn: the registration verbs' race fuzzer, with traffic.
 *
 * Initiators send without pause through XRC receive QPs while other
 * processes take and drop registrations on those QPs in every way a
 * process can: UNREG, exit without UNREG, ibv_close_device() without
 * UNREG, and kill -9 at any moment (in the middle of opening the device
 * or of a REG as well). What must hold:
 *
 *   - every message sent while its QP still has a registration arrives
 *     once, in order per sender, intact, at the SRQ it named, and its
 *     initiator sees it complete;
 *   - the last reference gone, the QP is: its initiator's next message
 *     ends in IBV_WC_RETRY_EXC_ERR, what arrived of the sender's stream
 *     is a prefix of it (nothing after a gap, nothing twice), `rdma
 *     resource` lists the QP no more and its number is no longer
 *     registrable;
 *   - each churner's own calls answer as the ABI says (REG of a live QP
 *     0, of a number >= 2^24 EINVAL, UNREG of a QP the file holds no
 *     reference on EINVAL, closing the XRCD that holds references EBUSY);
 *   - the device holds at the end what it held at the start.
 *
 * An epoch: NI initiators, each with an XRC send QP towards a receive
 * QP of its own that anchor A creates (REG of IBV_XRC_RCV_QPN_NEW) and
 * deputy D registers too. NS sinks, in the same XRC domain, receive on
 * their SRQs for the whole run; message k of a sender goes to sink
 * k % NS. While the initiators send, CHURNERS churners at a time
 * register both QPs and drop them; half way through, A drops its
 * registrations (UNREG, exit, close or kill -9, a different way each
 * epoch): the QPs must live on. Then the churners stop, D drops its own
 * (again one of the four ways) and the QPs must die.
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

#include "common.h"
#include "agent.h"

#define NI		2	/* initiators (senders), each its receive QP */
#define NS		3	/* sinks: SRQs in the shared domain */
#define CHURNERS	4	/* churners alive at a time */
#define MAX_EPOCHS	16
#define WINDOW		4	/* sends outstanding per initiator */
#define RECVS		64	/* receives posted per sink */
#define MSG_LEN		2500	/* three packets at a 1024-byte MTU */
#define BUF_MSGS	RECVS	/* >= WINDOW */
#define DRAIN_QUIET_MS	1500
#define STOP_MS		30000	/* a dead QP's sender must fail by then */
#define NO_ERROR	(-1)
#define MAX_FLUSHES	16

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
static struct ibv_qp *ini;
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
	ini = create_xrc_send_qp(ctx, pd, cq, WINDOW);
	if (!ini)
		return errno;
	*qpn = ini->qp_num;
	return 0;
}

/* The payload after the header: a function of the sequence and offset */
static char pattern(uint32_t seq, unsigned int i)
{
	return (char)(seq * 131 + i * 7);
}

static void fill(char *p, const struct hdr *h)
{
	unsigned int i;

	memcpy(p, h, sizeof(*h));
	for (i = sizeof(*h); i < MSG_LEN; i++)
		p[i] = pattern(h->seq, i);
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
	int err = NO_ERROR, stopping = 0;
	long stop_by = 0;
	char cmd[64];
	ssize_t r;

	for (;;) {
		struct ibv_wc wc;
		int n;

		while (err == NO_ERROR && posted - done < WINDOW &&
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
			if (ibv_post_send(ini, &wr, &bad)) {
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
		if (stopping && done == posted &&
		    (err != NO_ERROR || now_ms() > stop_by)) {
			dprintf(sock, "ok %u %u %d", acked, posted, err);
			stopping = 0;
		}
		if (n > 0 || !command_ready(sock, n ? 0 : 1))
			continue;
		r = read(sock, cmd, sizeof(cmd) - 1);
		if (r <= 0)
			_exit(0);
		cmd[r] = 0;
		if (!strcmp(cmd, "status")) {
			dprintf(sock, "ok %u %u %d", acked, posted, err);
		} else if (!strcmp(cmd, "stop")) {
			stopping = 1;
			stop_by = now_ms() + STOP_MS;
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
	const char *p = buf + wc->wr_id * MSG_LEN;
	unsigned int i;
	struct hdr h;

	memcpy(&h, p, sizeof(h));
	for (i = sizeof(h); i < MSG_LEN; i++)
		if (p[i] != pattern(h.seq, i))
			break;
	if (k->fault[0]) {
		/* the first fault is the one to report */
	} else if (wc->status == IBV_WC_WR_FLUSH_ERR) {
		if (k->flushed < MAX_FLUSHES)
			k->flushed_qpn[k->flushed] = wc->qp_num;
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
	for (f = k->reported; f < k->flushed && f < MAX_FLUSHES; f++)
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
		} else {
			_exit(0);	/* "exit" */
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
			     xrc_ini_connect(ini, u, &peer, gidx);
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
 * A churner's life: the device, the domain, a REG of each receive QP, a
 * moment with them held while traffic flows, then the registrations
 * dropped as told (DROP_KILL: held until the parent's SIGKILL, which
 * may come at any point of this). Exit status 0 if every call answered
 * as the ABI says.
 */
static int churn(const char *dev, const char *xrcd_path, const uint32_t *qpn,
		 enum drop how, unsigned int hold_ms)
{
	unsigned int i;
	uint32_t num;
	int err;

	ctx = open_named_device(dev);
	if (!ctx)
		return churn_fail("open the device", errno);
	xrcd = open_shared_xrcd(ctx, xrcd_path);
	if (!xrcd)
		return churn_fail("open the XRCD", errno);
	if (how == DROP_UNREG) {
		err = ibv_unreg_xrc_rcv_qp(xrcd, qpn[0]);
		if (err != EINVAL)
			return churn_fail("UNREG before REG, not EINVAL", err);
		num = 1u << 24;
		err = ibv_reg_xrc_rcv_qp(xrcd, &num);
		if (err != EINVAL)
			return churn_fail("REG of 2^24, not EINVAL", err);
	}
	for (i = 0; i < NI; i++) {
		num = qpn[i];
		err = ibv_reg_xrc_rcv_qp(xrcd, &num);
		if (err || num != qpn[i])
			return churn_fail("REG of a live receive QP", err ?: EIO);
	}
	usleep(hold_ms * 1000);
	switch (how) {
	case DROP_UNREG:
		err = ibv_close_xrcd(xrcd);
		if (err != EBUSY)
			return churn_fail("close of the XRCD it holds QPs of, not EBUSY",
					  err);
		for (i = 0; i < NI; i++) {
			err = ibv_unreg_xrc_rcv_qp(xrcd, qpn[i]);
			if (err)
				return churn_fail("UNREG", err);
			err = ibv_unreg_xrc_rcv_qp(xrcd, qpn[i]);
			if (err != EINVAL)
				return churn_fail("a second UNREG, not EINVAL", err);
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

static unsigned int churned[DROPS], churn_failed;

static void churner_start(struct churner *c, const char *dev,
			  const char *xrcd_path, const uint32_t *qpn)
{
	unsigned int hold = 20 + rnd(200);

	c->how = rnd(DROPS);
	c->kill_at = now_ms() + rnd(400);
	fflush(stdout);
	c->pid = fork();
	if (c->pid < 0) {
		perror("fork");
		exit(2);
	}
	if (!c->pid)
		_exit(churn(dev, xrcd_path, qpn, c->how, hold));
}

/* Reap a churner that ended (wait: also one that has not); 1 if reaped */
static int churner_reap(struct churner *c, int wait)
{
	int status;
	pid_t r;

	if (!c->pid)
		return 0;
	if (c->how == DROP_KILL && (wait || now_ms() >= c->kill_at))
		kill(c->pid, SIGKILL);
	r = waitpid(c->pid, &status, wait ? 0 : WNOHANG);
	if (r != c->pid)
		return 0;
	if (c->how == DROP_KILL ?
	    !(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) :
	    !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
		churn_failed++;
	churned[c->how]++;
	c->pid = 0;
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
	a->pid = 0;
	check(rc == (how == DROP_KILL ? 128 + SIGKILL : 0), "%s: %s (status %d)",
	      a->name, drop_name[how], rc);
}

static void agent_end(struct agent *a)
{
	if (!a->pid)
		return;
	ask(a, NULL, "exit");
	reap(a->pid);
	a->pid = 0;
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
	unsigned int epochs, churn_ms;
	uint64_t delivered;
};

/* The churn phase: CHURNERS churners at a time for ms milliseconds */
static void churn_for(struct run *run, const uint32_t *qpn, unsigned int ms,
		      struct churner *pool)
{
	long end = now_ms() + ms;
	unsigned int i;

	while (now_ms() < end) {
		for (i = 0; i < CHURNERS; i++) {
			churner_reap(&pool[i], 0);
			if (!pool[i].pid)
				churner_start(&pool[i], run->dev,
					      run->xrcd_path, qpn);
		}
		usleep(5000);
	}
}

static void epoch(struct run *run, unsigned int e)
{
	struct agent ini[NI] = {}, anchor = {}, deputy = {};
	struct churner pool[CHURNERS] = {};
	uint32_t qpn[NI], iqpn[NI], acked[NI], posted[NI], got[NS][NI];
	unsigned int i, s, d, ok_sends = 1, flushes = 0, flushes_ok = 1;
	unsigned int flushed[NI] = {};
	enum drop a_how = e % DROPS, d_how = (e + 2) % DROPS;
	char igid[40];
	int err[NI];

	printf("# epoch %u: A drops by %s half way, D by %s at the end\n", e,
	       drop_name[a_how], drop_name[d_how]);
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
	churn_for(run, qpn, run->churn_ms / 2, pool);
	drop(&anchor, qpn, a_how);
	churn_for(run, qpn, run->churn_ms / 2, pool);
	for (i = 0; i < CHURNERS; i++)
		churner_reap(&pool[i], 1);

	/* so far, with D's registrations there throughout, no send failed */
	for (s = 0; s < NI; s++) {
		if (must(&ini[s], NULL, "status", "status") ||
		    sscanf(ini[s].reply, "ok %u %u %d", &acked[s], &posted[s],
			   &err[s]) != 3)
			goto out;
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

		must(&run->sink[d], &n, "flushes", "flushes");
		check(!n, "epoch %u: S%u: no receive flushed while the QPs lived (%u)",
		      e, d, n);
	}

	/* D's registrations were the last: the QPs die under traffic */
	drop(&deputy, qpn, d_how);
	for (s = 0; s < NI; s++) {
		uint32_t before = acked[s];

		if (must(&ini[s], NULL, "stop", "stop") ||
		    sscanf(ini[s].reply, "ok %u %u %d", &acked[s], &posted[s],
			   &err[s]) != 3)
			goto out;
		check(err[s] == IBV_WC_RETRY_EXC_ERR && acked[s] >= before,
		      "epoch %u: I%u's sends to the dead QP %#x end in IBV_WC_RETRY_EXC_ERR (%s) after %u completed",
		      e, s, qpn[s], err[s] == NO_ERROR ? "no error" :
		      ibv_wc_status_str(err[s]), acked[s]);
	}
	for (d = 0; d < NS; d++) {
		unsigned int f, n, q[NI + 1] = {};

		if (must(&run->sink[d], NULL, "report", "report %u", e) ||
		    sscanf(run->sink[d].reply, "ok %u %u %u %x %x %x",
			   &got[d][0], &got[d][1], &n, &q[0], &q[1], &q[2]) < NI + 1)
			goto out;
		/* at most the one message each dying QP had begun */
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
	for (s = 0; s < NI; s++) {
		struct agent probe;
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
out:
	for (i = 0; i < CHURNERS; i++)
		churner_reap(&pool[i], 1);
	for (s = 0; s < NI; s++)
		agent_end(&ini[s]);
	agent_end(&anchor);
	agent_end(&deputy);
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
			run.epochs = strtoul(optarg, NULL, 0);
		else if (opt == 't')
			run.churn_ms = strtoul(optarg, NULL, 0);
		else if (opt == 's')
			seed = strtoull(optarg, NULL, 0);
		else
			optind = argc + 1;
	}
	if (optind >= argc || argc - optind > 2 || !run.epochs ||
	    run.epochs > MAX_EPOCHS) {
		fprintf(stderr, "usage: %s [-e epochs (1-%d)] [-t churn ms] [-s seed] <ibdev> [<initiators' ibdev>]\n",
			argv[0], MAX_EPOCHS);
		return 2;
	}
	run.dev = argv[optind];
	run.ini_dev = argc - optind > 1 ? argv[optind + 1] : run.dev;
	rng = seed | 1;
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
	check(!churn_failed, "%u churners, each call of each as the ABI says (%u not)",
	      total, churn_failed);
out:
	for (d = 0; d < NS; d++)
		agent_end(&run.sink[d]);
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
