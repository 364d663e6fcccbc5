// SPDX-License-Identifier: GPL-2.0
/*
 * xrc-smoke: one pass over xrc_sim through the mainline uverbs write()
 * ABI, to prove the guest, the device and the debugfs knobs work.
 *
 *   GET_CONTEXT, OPEN_XRCD (O_CREAT on a file), CREATE_QP(XRC_TGT),
 *   MODIFY_QP/QUERY_QP (valid and invalid transitions), an injected
 *   event read from the async fd, DESTROY_QP, CLOSE_XRCD; an event fanned
 *   out to the creator of a QP another context OPEN_QP'd; DESTROY_QP racing
 *   event injection; then rmmod of xrc_sim while a context is open, whose
 *   fd must then fail with EIO.
 *
 * Must run as root in the guest, with xrc_sim loaded and nothing else
 * using it.  Prints one "ok"/"not ok" line per check, then
 * "N passed, N failed"; exits 0 only if all passed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rdma/ib_user_verbs.h>

#define UVERBS_DEV	"/dev/infiniband/uverbs0"
#define SIM_DEBUGFS	"/sys/kernel/debug/xrc_sim/"
#define XRCD_FILE	"/tmp/xrc-smoke.xrcd"

/* enum ib_qp_type, enum ib_event_type, enum ib_qp_attr_mask (ib_verbs.h) */
#define QPT_XRC_TGT		10
#define EVENT_QP_FATAL		1
#define EVENT_COMM_EST		4
#define EVENT_DEVICE_FATAL	8
#define EVENT_PORT_ACTIVE	9
#define QP_STATE		(1 << 0)
#define QP_ACCESS_FLAGS		(1 << 3)
#define QP_PKEY_INDEX		(1 << 4)
#define QP_PORT			(1 << 5)
#define QP_AV			(1 << 7)
#define QP_PATH_MTU		(1 << 8)
#define QP_RQ_PSN		(1 << 12)
#define QP_MIN_RNR_TIMER	(1 << 15)
#define QP_MAX_DEST_RD_ATOMIC	(1 << 17)
#define QP_DEST_QPN		(1 << 20)
enum { QPS_RESET, QPS_INIT, QPS_RTR, QPS_RTS, QPS_SQD };
#define MTU_1024		3
#define ACCESS_REMOTE_WRITE	(1 << 1)
#define ACCESS_REMOTE_READ	(1 << 2)

#define QP_USER_HANDLE		0x5eed0000c0ffee01ULL
#define OPEN_QP_USER_HANDLE	0x5eed0000c0ffee02ULL

static int passed, failed;

static void check(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d - ", ok ? "ok" : "not ok", passed + failed + 1);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	if (ok)
		passed++;
	else
		failed++;
}

/*
 * One legacy write command: header, then the request.  A command with a
 * response has its user address as the request's first member.
 * Returns 0 or -errno.
 */
static int uverbs_cmd(int fd, uint32_t command, const void *req,
		      size_t req_len, size_t resp_len)
{
	struct ib_uverbs_cmd_hdr hdr = {
		.command = command,
		.in_words = (sizeof(hdr) + req_len) / 4,
		.out_words = resp_len / 4,
	};
	char buf[sizeof(hdr) + 256];

	memcpy(buf, &hdr, sizeof(hdr));
	memcpy(buf + sizeof(hdr), req, req_len);
	if (write(fd, buf, sizeof(hdr) + req_len) < 0)
		return -errno;
	return 0;
}

static long sim_counter(const char *name)
{
	char path[128], val[32] = "";
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), SIM_DEBUGFS "%s", name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, val, sizeof(val) - 1);
	close(fd);
	return n > 0 ? strtol(val, NULL, 0) : -1;
}

/* Returns 0 or -errno of the write. */
static int sim_set(const char *name, const char *val)
{
	char path[128];
	int fd, ret = 0;

	snprintf(path, sizeof(path), SIM_DEBUGFS "%s", name);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* Returns 0 or -errno of the write to inject_event. */
static int sim_inject(uint32_t qpn, uint32_t type)
{
	char cmd[64];
	int fd, ret = 0;

	fd = open(SIM_DEBUGFS "inject_event", O_WRONLY);
	if (fd < 0)
		return -errno;
	snprintf(cmd, sizeof(cmd), "%u %u\n", qpn, type);
	if (write(fd, cmd, strlen(cmd)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* Reads one event, waiting up to @timeout_ms.  Returns 0 or -errno. */
static int read_async_event_within(int async_fd,
				   struct ib_uverbs_async_event_desc *ev,
				   int timeout_ms)
{
	struct pollfd pfd = { .fd = async_fd, .events = POLLIN };
	ssize_t n;

	n = poll(&pfd, 1, timeout_ms);
	if (n < 0)
		return -errno;
	if (n == 0)
		return -ETIMEDOUT;
	n = read(async_fd, ev, sizeof(*ev));
	if (n < 0)
		return -errno;
	return n == sizeof(*ev) ? 0 : -EIO;
}

static int read_async_event(int async_fd, struct ib_uverbs_async_event_desc *ev)
{
	return read_async_event_within(async_fd, ev, 5000);
}

static int get_context(int fd, uint32_t *async_fd)
{
	struct ib_uverbs_get_context_resp resp = {};
	struct ib_uverbs_get_context req = { .response = (uintptr_t)&resp };
	int ret;

	ret = uverbs_cmd(fd, IB_USER_VERBS_CMD_GET_CONTEXT, &req, sizeof(req),
			 sizeof(resp));
	*async_fd = resp.async_fd;
	return ret;
}

static int open_xrcd(int fd, int file_fd, uint32_t *xrcd_handle)
{
	struct ib_uverbs_open_xrcd_resp resp = {};
	struct ib_uverbs_open_xrcd req = {
		.response = (uintptr_t)&resp,
		.fd = file_fd,
		.oflags = O_CREAT,
	};
	int ret;

	ret = uverbs_cmd(fd, IB_USER_VERBS_CMD_OPEN_XRCD, &req, sizeof(req),
			 sizeof(resp));
	*xrcd_handle = resp.xrcd_handle;
	return ret;
}

static int create_xrc_tgt_qp(int fd, uint32_t xrcd_handle,
			     struct ib_uverbs_create_qp_resp *resp)
{
	struct ib_uverbs_create_qp req = {
		.response = (uintptr_t)resp,
		.user_handle = QP_USER_HANDLE,
		.pd_handle = xrcd_handle,	/* the XRCD, for XRC_TGT */
		.qp_type = QPT_XRC_TGT,
	};

	return uverbs_cmd(fd, IB_USER_VERBS_CMD_CREATE_QP, &req, sizeof(req),
			  sizeof(*resp));
}

static int open_qp(int fd, uint32_t xrcd_handle, uint32_t qpn,
		   struct ib_uverbs_create_qp_resp *resp)
{
	struct ib_uverbs_open_qp req = {
		.response = (uintptr_t)resp,
		.user_handle = OPEN_QP_USER_HANDLE,
		.pd_handle = xrcd_handle,
		.qpn = qpn,
		.qp_type = QPT_XRC_TGT,
	};

	return uverbs_cmd(fd, IB_USER_VERBS_CMD_OPEN_QP, &req, sizeof(req),
			  sizeof(*resp));
}

static int destroy_qp(int fd, uint32_t qp_handle, uint32_t *events_reported)
{
	struct ib_uverbs_destroy_qp_resp resp = {};
	struct ib_uverbs_destroy_qp req = {
		.response = (uintptr_t)&resp,
		.qp_handle = qp_handle,
	};
	int ret;

	ret = uverbs_cmd(fd, IB_USER_VERBS_CMD_DESTROY_QP, &req, sizeof(req),
			 sizeof(resp));
	if (events_reported)
		*events_reported = resp.events_reported;
	return ret;
}

static int close_xrcd(int fd, uint32_t xrcd_handle)
{
	struct ib_uverbs_close_xrcd req = { .xrcd_handle = xrcd_handle };

	return uverbs_cmd(fd, IB_USER_VERBS_CMD_CLOSE_XRCD, &req, sizeof(req),
			  0);
}

static int modify_qp(int fd, struct ib_uverbs_modify_qp *req)
{
	return uverbs_cmd(fd, IB_USER_VERBS_CMD_MODIFY_QP, req, sizeof(*req), 0);
}

static int query_qp(int fd, uint32_t qp_handle,
		    struct ib_uverbs_query_qp_resp *resp)
{
	struct ib_uverbs_query_qp req = {
		.response = (uintptr_t)resp,
		.qp_handle = qp_handle,
		.attr_mask = ~0U,
	};

	memset(resp, 0, sizeof(*resp));
	return uverbs_cmd(fd, IB_USER_VERBS_CMD_QUERY_QP, &req, sizeof(req),
			  sizeof(*resp));
}

static void test_qp_state_machine(int fd, uint32_t qp_handle)
{
	struct ib_uverbs_query_qp_resp q;
	struct ib_uverbs_modify_qp m;
	int ret;

	ret = query_qp(fd, qp_handle, &q);
	check(ret == 0 && q.qp_state == QPS_RESET,
	      "a new QP is in RESET (ret %d, state %u)", ret, q.qp_state);

	memset(&m, 0, sizeof(m));
	m.qp_handle = qp_handle;
	m.attr_mask = QP_STATE | QP_PKEY_INDEX | QP_PORT | QP_ACCESS_FLAGS;
	m.qp_state = QPS_INIT;
	m.port_num = 1;
	m.qp_access_flags = ACCESS_REMOTE_WRITE | ACCESS_REMOTE_READ;
	ret = modify_qp(fd, &m);
	check(ret == 0, "RESET->INIT succeeds (ret %d)", ret);

	memset(&m, 0, sizeof(m));
	m.qp_handle = qp_handle;
	m.attr_mask = QP_STATE | QP_AV | QP_PATH_MTU | QP_DEST_QPN |
		      QP_RQ_PSN | QP_MAX_DEST_RD_ATOMIC | QP_MIN_RNR_TIMER;
	m.qp_state = QPS_RTR;
	m.dest.dlid = 0x17;
	m.dest.sl = 3;
	m.dest.port_num = 1;
	m.path_mtu = MTU_1024;
	m.dest_qp_num = 0x123456;
	m.rq_psn = 0x4242;
	m.max_dest_rd_atomic = 4;
	m.min_rnr_timer = 12;
	ret = modify_qp(fd, &m);
	check(ret == 0, "INIT->RTR succeeds (ret %d)", ret);

	ret = query_qp(fd, qp_handle, &q);
	check(ret == 0 && q.qp_state == QPS_RTR && q.port_num == 1 &&
	      q.pkey_index == 0 &&
	      q.qp_access_flags == (ACCESS_REMOTE_WRITE | ACCESS_REMOTE_READ) &&
	      q.path_mtu == MTU_1024 && q.dest_qp_num == 0x123456 &&
	      q.rq_psn == 0x4242 && q.max_dest_rd_atomic == 4 &&
	      q.min_rnr_timer == 12 && q.dest.dlid == 0x17 && q.dest.sl == 3,
	      "QUERY_QP returns what MODIFY_QP set (ret %d state %u port %u access %#x mtu %u dqpn %#x psn %#x rd_atom %u rnr %u dlid %#x sl %u)",
	      ret, q.qp_state, q.port_num, q.qp_access_flags, q.path_mtu,
	      q.dest_qp_num, q.rq_psn, q.max_dest_rd_atomic, q.min_rnr_timer,
	      q.dest.dlid, q.dest.sl);

	memset(&m, 0, sizeof(m));
	m.qp_handle = qp_handle;
	m.attr_mask = QP_STATE;
	m.qp_state = QPS_SQD;
	ret = modify_qp(fd, &m);
	check(ret == -EINVAL, "RTR->SQD is refused with EINVAL (ret %d)", ret);

	m.qp_state = QPS_RTS;
	ret = modify_qp(fd, &m);
	check(ret == -EINVAL,
	      "RTR->RTS without its required attributes is refused with EINVAL (ret %d)",
	      ret);

	ret = query_qp(fd, qp_handle, &q);
	check(ret == 0 && q.qp_state == QPS_RTR && q.rq_psn == 0x4242,
	      "a refused MODIFY_QP leaves the QP unchanged (state %u)",
	      q.qp_state);
}

static void test_events(int async_fd, uint32_t qpn)
{
	struct ib_uverbs_async_event_desc ev = {};
	int ret;

	ret = sim_inject(qpn, EVENT_COMM_EST);
	check(ret == 0, "inject_event accepts \"%u %d\" (ret %d)", qpn,
	      EVENT_COMM_EST, ret);
	ret = read_async_event(async_fd, &ev);
	check(ret == 0 && ev.element == QP_USER_HANDLE &&
	      ev.event_type == EVENT_COMM_EST,
	      "the async fd reports {element = user_handle, event_type = COMM_EST} (ret %d element %#llx type %u)",
	      ret, (unsigned long long)ev.element, ev.event_type);

	ret = sim_inject(1, EVENT_COMM_EST);
	check(ret == -ENOENT, "inject_event on an unknown QPN fails with ENOENT (ret %d)",
	      ret);
	ret = sim_inject(qpn, EVENT_PORT_ACTIVE);
	check(ret == -EINVAL, "inject_event of a non-QP event fails with EINVAL (ret %d)",
	      ret);
}

/* The first context: every object made and destroyed, then closed. */
static void test_lifecycle(void)
{
	struct ib_uverbs_create_qp_resp qp = {};
	uint32_t async_fd = 0, xrcd = 0, events = 0;
	int fd, file_fd, ret;

	fd = open(UVERBS_DEV, O_RDWR | O_CLOEXEC);
	check(fd >= 0, "open %s (errno %d)", UVERBS_DEV, fd < 0 ? errno : 0);
	if (fd < 0)
		return;

	ret = get_context(fd, &async_fd);
	check(ret == 0, "GET_CONTEXT succeeds (ret %d)", ret);
	check(sim_counter("live_ucontexts") == 1, "live_ucontexts == 1");

	file_fd = open(XRCD_FILE, O_RDWR | O_CREAT, 0600);
	ret = open_xrcd(fd, file_fd, &xrcd);
	check(ret == 0, "OPEN_XRCD with O_CREAT succeeds (ret %d)", ret);
	check(sim_counter("live_xrcds") == 1, "live_xrcds == 1");

	sim_set("max_qps", "0");
	ret = create_xrc_tgt_qp(fd, xrcd, &qp);
	check(ret == -ENOMEM && sim_counter("live_qps") == 0,
	      "CREATE_QP on a device at max_qps fails with ENOMEM (ret %d)",
	      ret);
	sim_set("max_qps", "65536");

	ret = create_xrc_tgt_qp(fd, xrcd, &qp);
	check(ret == 0, "CREATE_QP(XRC_TGT) succeeds (ret %d)", ret);
	check(qp.qpn >= 2 && qp.qpn < (1 << 24),
	      "the QPN %#x is 24-bit and not a special QP", qp.qpn);
	check(qp.max_send_wr == 0 && qp.max_recv_wr == 0,
	      "the receive QP has no queues (send %u recv %u)",
	      qp.max_send_wr, qp.max_recv_wr);
	check(sim_counter("live_qps") == 1, "live_qps == 1");

	test_qp_state_machine(fd, qp.qp_handle);
	test_events(async_fd, qp.qpn);

	ret = destroy_qp(fd, qp.qp_handle, &events);
	check(ret == 0 && events == 1,
	      "DESTROY_QP succeeds and counts 1 event reported (ret %d, %u)",
	      ret, events);
	check(sim_counter("live_qps") == 0, "live_qps == 0");
	ret = sim_inject(qp.qpn, EVENT_COMM_EST);
	check(ret == -ENOENT, "inject_event on the destroyed QP fails with ENOENT (ret %d)",
	      ret);

	ret = close_xrcd(fd, xrcd);
	check(ret == 0, "CLOSE_XRCD succeeds (ret %d)", ret);
	check(sim_counter("live_xrcds") == 0, "live_xrcds == 0");

	close(file_fd);
	close(async_fd);
	close(fd);
	check(sim_counter("live_ucontexts") == 0,
	      "closing the uverbs fd frees the context");
}

/*
 * Two contexts on one QP: A creates it, B opens it (OPEN_QP).  An
 * injected event reaches each under its own user_handle; the QP lives
 * until both handles are gone.
 */
static void test_shared_qp(void)
{
	struct ib_uverbs_create_qp_resp qa = {}, qb = {};
	struct ib_uverbs_async_event_desc ev = {};
	uint32_t async_a = 0, async_b = 0, xrcd_a = 0, xrcd_b = 0;
	int fa, fb, file_fd, ret;

	fa = open(UVERBS_DEV, O_RDWR | O_CLOEXEC);
	fb = open(UVERBS_DEV, O_RDWR | O_CLOEXEC);
	file_fd = open(XRCD_FILE, O_RDWR);
	if (fa < 0 || fb < 0 || file_fd < 0 || get_context(fa, &async_a) ||
	    get_context(fb, &async_b) || open_xrcd(fa, file_fd, &xrcd_a) ||
	    open_xrcd(fb, file_fd, &xrcd_b) ||
	    create_xrc_tgt_qp(fa, xrcd_a, &qa)) {
		check(0, "set up two contexts sharing an XRCD and a QP");
		return;
	}

	ret = open_qp(fb, xrcd_b, qa.qpn, &qb);
	check(ret == 0 && qb.qpn == qa.qpn,
	      "OPEN_QP from a second context opens the QP (ret %d)", ret);
	check(sim_counter("live_qps") == 1 && sim_counter("live_xrcds") == 1,
	      "one QP and one XRCD on the device");

	ret = sim_inject(qa.qpn, EVENT_COMM_EST);
	check(ret == 0, "inject_event on the shared QP (ret %d)", ret);
	ret = read_async_event(async_a, &ev);
	check(ret == 0 && ev.element == QP_USER_HANDLE,
	      "the creator's async fd gets it (ret %d element %#llx)", ret,
	      (unsigned long long)ev.element);
	/* Patch 1 of the series: OPEN_QP handles get their events too */
	memset(&ev, 0, sizeof(ev));
	ret = read_async_event_within(async_b, &ev, 500);
	check(ret == 0 && ev.element == OPEN_QP_USER_HANDLE,
	      "the opener's async fd gets it too (ret %d element %#llx)", ret,
	      (unsigned long long)ev.element);

	ret = destroy_qp(fa, qa.qp_handle, NULL);
	check(ret == 0 && sim_counter("live_qps") == 1,
	      "the creator's DESTROY_QP leaves the opened QP alive (ret %d)",
	      ret);
	ret = destroy_qp(fb, qb.qp_handle, NULL);
	check(ret == 0 && sim_counter("live_qps") == 0,
	      "the last handle's DESTROY_QP destroys it (ret %d)", ret);

	close(file_fd);
	close(async_a);
	close(async_b);
	close(fa);
	close(fb);
	check(sim_counter("live_ucontexts") == 0 &&
	      sim_counter("live_xrcds") == 0,
	      "closing both files frees the contexts and the XRCD");
}

/*
 * A child injects events on a QP in a loop while the parent destroys
 * it: destroy_qp must wait for an injection in flight (KASAN and lockdep
 * watch).  The child stops at the first ENOENT.
 */
static void test_destroy_during_injection(void)
{
	struct ib_uverbs_create_qp_resp qp = {};
	uint32_t async_fd = 0, xrcd = 0;
	int fd, file_fd, ret, status = -1;
	pid_t child;

	fd = open(UVERBS_DEV, O_RDWR | O_CLOEXEC);
	file_fd = open(XRCD_FILE, O_RDWR);
	if (fd < 0 || file_fd < 0 || get_context(fd, &async_fd) ||
	    open_xrcd(fd, file_fd, &xrcd) || create_xrc_tgt_qp(fd, xrcd, &qp)) {
		check(0, "set up a QP to destroy under injection");
		return;
	}

	child = fork();
	if (child == 0) {
		int n = 0;

		while ((ret = sim_inject(qp.qpn, EVENT_QP_FATAL)) == 0)
			n++;
		_exit(ret == -ENOENT && n > 0 ? 0 : 1);
	}
	usleep(200 * 1000);
	ret = destroy_qp(fd, qp.qp_handle, NULL);
	check(ret == 0, "DESTROY_QP while events are injected (ret %d)", ret);
	waitpid(child, &status, 0);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "the injector saw events delivered, then ENOENT");

	close(file_fd);
	close(async_fd);
	close(fd);
	check(sim_counter("live_qps") == 0 &&
	      sim_counter("live_ucontexts") == 0, "nothing left behind");
}

/* The second context: left open, with a QP, across rmmod xrc_sim. */
static void test_rmmod_disassociates(void)
{
	struct ib_uverbs_create_qp_resp qp = {};
	struct ib_uverbs_async_event_desc ev = {};
	struct ib_uverbs_alloc_pd_resp presp = {};
	struct ib_uverbs_alloc_pd preq = { .response = (uintptr_t)&presp };
	uint32_t async_fd = 0, xrcd = 0;
	int fd, file_fd, ret;

	fd = open(UVERBS_DEV, O_RDWR | O_CLOEXEC);
	check(fd >= 0, "open %s again (errno %d)", UVERBS_DEV,
	      fd < 0 ? errno : 0);
	if (fd < 0)
		return;
	ret = get_context(fd, &async_fd);
	check(ret == 0, "GET_CONTEXT on a second fd succeeds (ret %d)", ret);
	file_fd = open(XRCD_FILE, O_RDWR);
	ret = open_xrcd(fd, file_fd, &xrcd);
	check(ret == 0, "OPEN_XRCD succeeds (ret %d)", ret);
	ret = create_xrc_tgt_qp(fd, xrcd, &qp);
	check(ret == 0, "CREATE_QP(XRC_TGT) succeeds (ret %d)", ret);
	check(sim_counter("live_qps") == 1, "live_qps == 1");

	ret = syscall(SYS_delete_module, "xrc_sim", O_NONBLOCK);
	check(ret == 0, "rmmod xrc_sim with the fd open succeeds (errno %d)",
	      ret ? errno : 0);

	ret = uverbs_cmd(fd, IB_USER_VERBS_CMD_ALLOC_PD, &preq, sizeof(preq),
			 sizeof(presp));
	check(ret == -EIO, "the old fd now fails with EIO (ret %d)", ret);
	ret = read_async_event(async_fd, &ev);
	check(ret == 0 && ev.event_type == EVENT_DEVICE_FATAL,
	      "the old async fd reports DEVICE_FATAL (ret %d type %u)", ret,
	      ev.event_type);
	ret = open(UVERBS_DEV, O_RDWR);
	check(ret < 0, "%s is gone", UVERBS_DEV);

	close(file_fd);
	close(async_fd);
	close(fd);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_lifecycle();
	test_shared_qp();
	test_destroy_during_injection();
	test_rmmod_disassociates();
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
