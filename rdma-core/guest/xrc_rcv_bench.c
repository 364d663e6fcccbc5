// SPDX-License-Identifier: (GPL-2.0 OR Linux-OpenIB)
/*
 * REG + UNREG through the patched libibverbs, against the userspace
 * emulation MLNX_OFED once shipped for the legacy XRC verbs: a
 * process-global tree from QP number to an ibv_open_qp() handle, no
 * counting (a second registration is EEXIST), the handle destroyed on
 * unregister. Both take and drop one reference on a QP that another
 * context (another process, in real life) created and holds, which is
 * what every rank but the first does in MPI's XRC connection setup.
 *
 *   xrc_rcv_bench [--pairs N] [--trials T]
 *
 * Each trial times N pairs of each kind, in alternating order. Prints
 * per-pair medians and the ratio's median and quartiles over the trials:
 *   XRC-VERBS-BENCH pairs=N trials=T verbs_us=.. emul_us=.. ratio=..
 *       ratio_q1=.. ratio_q3=..
 * A benchmark, not a test: it fails only if a verb fails.
 */
#include <infiniband/verbs.h>

#include <errno.h>
#include <fcntl.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The emulation's process-global index: number -> opened handle */
struct emul_qp {
	uint32_t qp_num;
	struct ibv_qp *qp;
};

static void *emul_root;

static int emul_cmp(const void *a, const void *b)
{
	uint32_t x = ((const struct emul_qp *)a)->qp_num;
	uint32_t y = ((const struct emul_qp *)b)->qp_num;

	return x < y ? -1 : x > y;
}

static int emul_reg(struct ibv_context *ctx, struct ibv_xrcd *xrcd,
		    uint32_t qp_num)
{
	struct emul_qp key = { .qp_num = qp_num }, *e;
	struct ibv_qp_open_attr attr = {
		.comp_mask = IBV_QP_OPEN_ATTR_NUM | IBV_QP_OPEN_ATTR_XRCD |
			     IBV_QP_OPEN_ATTR_TYPE,
		.qp_num = qp_num,
		.xrcd = xrcd,
		.qp_type = IBV_QPT_XRC_RECV,
	};

	if (tfind(&key, &emul_root, emul_cmp))
		return EEXIST;
	e = malloc(sizeof(*e));
	if (!e)
		return ENOMEM;
	e->qp_num = qp_num;
	e->qp = ibv_open_qp(ctx, &attr);
	if (!e->qp) {
		free(e);
		return errno;
	}
	if (!tsearch(e, &emul_root, emul_cmp)) {
		ibv_destroy_qp(e->qp);
		free(e);
		return ENOMEM;
	}
	return 0;
}

static int emul_unreg(uint32_t qp_num)
{
	struct emul_qp key = { .qp_num = qp_num }, **found, *e;
	int ret;

	found = tfind(&key, &emul_root, emul_cmp);
	if (!found)
		return EINVAL;
	e = *found;
	ret = ibv_destroy_qp(e->qp);
	if (ret)
		return ret;
	tdelete(&key, &emul_root, emul_cmp);
	free(e);
	return 0;
}

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static void must(int ret, const char *what)
{
	if (ret) {
		fprintf(stderr, "xrc_rcv_bench: %s: %s\n", what, strerror(ret));
		exit(1);
	}
}

/* Microseconds per pair of REG + UNREG through the new verbs */
static double time_verbs(struct ibv_xrcd *xrcd, uint32_t qp_num, long pairs)
{
	double start = now_us();

	for (long i = 0; i < pairs; i++) {
		uint32_t q = qp_num;

		must(ibv_reg_xrc_rcv_qp(xrcd, &q), "ibv_reg_xrc_rcv_qp");
		must(ibv_unreg_xrc_rcv_qp(xrcd, q), "ibv_unreg_xrc_rcv_qp");
	}
	return (now_us() - start) / pairs;
}

/* The same through the emulation over ibv_open_qp() */
static double time_emul(struct ibv_context *ctx, struct ibv_xrcd *xrcd,
			uint32_t qp_num, long pairs)
{
	double start = now_us();

	for (long i = 0; i < pairs; i++) {
		must(emul_reg(ctx, xrcd, qp_num), "emulated reg (ibv_open_qp)");
		must(emul_unreg(qp_num), "emulated unreg (ibv_destroy_qp)");
	}
	return (now_us() - start) / pairs;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The q-quantile of n sorted values, by linear interpolation */
static double quantile(const double *v, int n, double q)
{
	double pos = q * (n - 1);
	int i = (int)pos;

	return i + 1 < n ? v[i] + (pos - i) * (v[i + 1] - v[i]) : v[i];
}

static struct ibv_xrcd *open_xrcd(struct ibv_context *ctx, int fd)
{
	struct ibv_xrcd_init_attr attr = {
		.comp_mask = IBV_XRCD_INIT_ATTR_FD | IBV_XRCD_INIT_ATTR_OFLAGS,
		.fd = fd,
		.oflags = O_CREAT,
	};
	struct ibv_xrcd *xrcd = ibv_open_xrcd(ctx, &attr);

	if (!xrcd)
		must(errno, "ibv_open_xrcd");
	return xrcd;
}

int main(int argc, char **argv)
{
	long pairs = 2000, trials = 21;
	struct ibv_context *owner_ctx, *ctx;
	struct ibv_xrcd *owner_xrcd, *xrcd;
	struct ibv_device **devs;
	double *verbs, *emul, *ratio;
	uint32_t qp_num = IBV_XRC_RCV_QPN_NEW;
	char path[] = "/tmp/xrc_rcv_bench.XXXXXX";
	int fd;

	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--pairs"))
			pairs = atol(argv[i + 1]);
		else if (!strcmp(argv[i], "--trials"))
			trials = atol(argv[i + 1]);
	}
	if (argc % 2 == 0 || pairs < 1 || trials < 1) {
		fprintf(stderr, "usage: xrc_rcv_bench [--pairs N] [--trials T]\n");
		return 2;
	}

	devs = ibv_get_device_list(NULL);
	if (!devs || !devs[0]) {
		fprintf(stderr, "xrc_rcv_bench: no RDMA device\n");
		return 1;
	}
	owner_ctx = ibv_open_device(devs[0]);
	ctx = ibv_open_device(devs[0]);
	if (!owner_ctx || !ctx)
		must(errno ? errno : ENODEV, "ibv_open_device");
	fd = mkstemp(path);
	if (fd < 0)
		must(errno, "mkstemp");
	owner_xrcd = open_xrcd(owner_ctx, fd);
	xrcd = open_xrcd(ctx, fd);

	/* The QP's creator holds it throughout, as the first rank would */
	must(ibv_reg_xrc_rcv_qp(owner_xrcd, &qp_num), "ibv_reg_xrc_rcv_qp(NEW)");

	verbs = calloc(trials, sizeof(double));
	emul = calloc(trials, sizeof(double));
	ratio = calloc(trials, sizeof(double));
	if (!verbs || !emul || !ratio)
		must(ENOMEM, "calloc");
	time_verbs(xrcd, qp_num, pairs / 10 + 1);	/* warm up both paths */
	time_emul(ctx, xrcd, qp_num, pairs / 10 + 1);
	for (long t = 0; t < trials; t++) {
		if (t % 2) {
			emul[t] = time_emul(ctx, xrcd, qp_num, pairs);
			verbs[t] = time_verbs(xrcd, qp_num, pairs);
		} else {
			verbs[t] = time_verbs(xrcd, qp_num, pairs);
			emul[t] = time_emul(ctx, xrcd, qp_num, pairs);
		}
		ratio[t] = verbs[t] / emul[t];
	}
	qsort(verbs, trials, sizeof(double), by_value);
	qsort(emul, trials, sizeof(double), by_value);
	qsort(ratio, trials, sizeof(double), by_value);
	printf("XRC-VERBS-BENCH pairs=%ld trials=%ld verbs_us=%.2f emul_us=%.2f ratio=%.2f ratio_q1=%.2f ratio_q3=%.2f\n",
	       pairs, trials, quantile(verbs, trials, 0.5),
	       quantile(emul, trials, 0.5), quantile(ratio, trials, 0.5),
	       quantile(ratio, trials, 0.25), quantile(ratio, trials, 0.75));

	must(ibv_unreg_xrc_rcv_qp(owner_xrcd, qp_num), "ibv_unreg_xrc_rcv_qp");
	must(ibv_close_xrcd(xrcd), "ibv_close_xrcd");
	must(ibv_close_xrcd(owner_xrcd), "ibv_close_xrcd");
	must(ibv_close_device(ctx), "ibv_close_device");
	must(ibv_close_device(owner_ctx), "ibv_close_device");
	ibv_free_device_list(devs);
	close(fd);
	unlink(path);
	free(verbs);
	free(emul);
	free(ratio);
	return 0;
}
