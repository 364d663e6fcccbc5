// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A test-only libibverbs provider for the simulated XRC device xrc_sim
 * (../simdev): just enough for ibv_get_device_list(), ibv_open_device(),
 * ibv_devinfo and the XRC verbs. Built the way rdma-core's smallest
 * providers (rxe, siw) are: a match table, alloc_device and alloc_context,
 * and the generic ibv_cmd_*() commands. Not part of the rdma-core series.
 *
 * The device: ib_register_device(..., "xrc_sim%d"), driver_id
 * RDMA_DRIVER_UNKNOWN, uverbs_abi_ver 1, no driver data in any command.
 * It has XRC domains, XRC target QPs and PDs; no CQs, MRs or data path.
 * XRC receive QP registration needs no provider op at all: libibverbs
 * issues the ioctl methods itself.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/driver.h>
#include <infiniband/verbs.h>

struct xrc_sim_device {
	struct verbs_device ibv_dev;
};

struct xrc_sim_context {
	struct verbs_context ibv_ctx;
};

static const struct verbs_match_ent xrc_sim_table[] = {
	VERBS_NAME_MATCH("xrc_sim", NULL),
	{},
};

static int xrc_sim_query_device(struct ibv_context *context,
				const struct ibv_query_device_ex_input *input,
				struct ibv_device_attr_ex *attr,
				size_t attr_size)
{
	struct ib_uverbs_ex_query_device_resp resp;
	size_t resp_size = sizeof(resp);
	uint64_t fw = 0;
	int ret;

	ret = ibv_cmd_query_device_any(context, input, attr, attr_size, &resp,
				       &resp_size);
	if (ret)
		return ret;
	fw = resp.base.fw_ver;
	snprintf(attr->orig_attr.fw_ver, sizeof(attr->orig_attr.fw_ver),
		 "%u.%u.%u", (unsigned int)(fw >> 32) & 0xffff,
		 (unsigned int)(fw >> 16) & 0xffff, (unsigned int)fw & 0xffff);
	return 0;
}

static int xrc_sim_query_port(struct ibv_context *context, uint8_t port,
			      struct ibv_port_attr *attr)
{
	struct ibv_query_port cmd;

	return ibv_cmd_query_port(context, port, attr, &cmd, sizeof(cmd));
}

static struct ibv_pd *xrc_sim_alloc_pd(struct ibv_context *context)
{
	struct ibv_alloc_pd cmd;
	struct ib_uverbs_alloc_pd_resp resp;
	struct ibv_pd *pd;

	pd = calloc(1, sizeof(*pd));
	if (!pd)
		return NULL;
	if (ibv_cmd_alloc_pd(context, pd, &cmd, sizeof(cmd), &resp,
			     sizeof(resp))) {
		free(pd);
		return NULL;
	}
	return pd;
}

static int xrc_sim_dealloc_pd(struct ibv_pd *pd)
{
	int ret = ibv_cmd_dealloc_pd(pd);

	if (!ret)
		free(pd);
	return ret;
}

static struct ibv_xrcd *xrc_sim_open_xrcd(struct ibv_context *context,
					  struct ibv_xrcd_init_attr *attr)
{
	struct ib_uverbs_open_xrcd_resp resp;
	struct ibv_open_xrcd cmd;
	struct verbs_xrcd *xrcd;
	int ret;

	xrcd = calloc(1, sizeof(*xrcd));
	if (!xrcd)
		return NULL;
	ret = ibv_cmd_open_xrcd(context, xrcd, sizeof(*xrcd), attr, &cmd,
				sizeof(cmd), &resp, sizeof(resp));
	if (ret) {
		free(xrcd);
		errno = ret;
		return NULL;
	}
	return &xrcd->xrcd;
}

static int xrc_sim_close_xrcd(struct ibv_xrcd *ibxrcd)
{
	struct verbs_xrcd *xrcd = container_of(ibxrcd, struct verbs_xrcd, xrcd);
	int ret = ibv_cmd_close_xrcd(xrcd);

	if (!ret)
		free(xrcd);
	return ret;
}

/* Only XRC target QPs: the device has nothing else */
static struct ibv_qp *xrc_sim_create_qp_ex(struct ibv_context *context,
					   struct ibv_qp_init_attr_ex *attr)
{
	struct ib_uverbs_create_qp_resp resp;
	struct ibv_create_qp cmd;
	struct verbs_qp *qp;
	int ret;

	if (attr->qp_type != IBV_QPT_XRC_RECV) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	qp = calloc(1, sizeof(*qp));
	if (!qp)
		return NULL;
	ret = ibv_cmd_create_qp_ex(context, qp, attr, &cmd, sizeof(cmd), &resp,
				   sizeof(resp));
	if (ret) {
		free(qp);
		errno = ret;
		return NULL;
	}
	return &qp->qp;
}

static struct ibv_qp *xrc_sim_open_qp(struct ibv_context *context,
				      struct ibv_qp_open_attr *attr)
{
	struct ib_uverbs_create_qp_resp resp;
	struct ibv_open_qp cmd;
	struct verbs_qp *qp;
	int ret;

	qp = calloc(1, sizeof(*qp));
	if (!qp)
		return NULL;
	ret = ibv_cmd_open_qp(context, qp, sizeof(*qp), attr, &cmd, sizeof(cmd),
			      &resp, sizeof(resp));
	if (ret) {
		free(qp);
		errno = ret;
		return NULL;
	}
	return &qp->qp;
}

static int xrc_sim_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr,
			     int attr_mask)
{
	struct ibv_modify_qp cmd;

	return ibv_cmd_modify_qp(qp, attr, attr_mask, &cmd, sizeof(cmd));
}

static int xrc_sim_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr,
			    int attr_mask, struct ibv_qp_init_attr *init_attr)
{
	struct ibv_query_qp cmd;

	return ibv_cmd_query_qp(qp, attr, attr_mask, init_attr, &cmd,
				sizeof(cmd));
}

static int xrc_sim_destroy_qp(struct ibv_qp *ibqp)
{
	struct verbs_qp *qp = container_of(ibqp, struct verbs_qp, qp);
	int ret = ibv_cmd_destroy_qp(ibqp);

	if (!ret)
		free(qp);
	return ret;
}

static void xrc_sim_free_context(struct ibv_context *ibctx);

static const struct verbs_context_ops xrc_sim_ctx_ops = {
	.alloc_pd = xrc_sim_alloc_pd,
	.close_xrcd = xrc_sim_close_xrcd,
	.create_qp_ex = xrc_sim_create_qp_ex,
	.dealloc_pd = xrc_sim_dealloc_pd,
	.destroy_qp = xrc_sim_destroy_qp,
	.free_context = xrc_sim_free_context,
	.modify_qp = xrc_sim_modify_qp,
	.open_qp = xrc_sim_open_qp,
	.open_xrcd = xrc_sim_open_xrcd,
	.query_device_ex = xrc_sim_query_device,
	.query_port = xrc_sim_query_port,
	.query_qp = xrc_sim_query_qp,
};

static struct verbs_context *xrc_sim_alloc_context(struct ibv_device *ibdev,
						   int cmd_fd,
						   void *private_data)
{
	struct ib_uverbs_get_context_resp resp;
	struct xrc_sim_context *context;
	struct ibv_get_context cmd;

	context = verbs_init_and_alloc_context(ibdev, cmd_fd, context, ibv_ctx,
					       RDMA_DRIVER_UNKNOWN);
	if (!context)
		return NULL;
	if (ibv_cmd_get_context(&context->ibv_ctx, &cmd, sizeof(cmd), NULL,
				&resp, sizeof(resp))) {
		verbs_uninit_context(&context->ibv_ctx);
		free(context);
		return NULL;
	}
	verbs_set_ops(&context->ibv_ctx, &xrc_sim_ctx_ops);
	return &context->ibv_ctx;
}

static void xrc_sim_free_context(struct ibv_context *ibctx)
{
	struct xrc_sim_context *context =
		container_of(ibctx, struct xrc_sim_context, ibv_ctx.context);

	verbs_uninit_context(&context->ibv_ctx);
	free(context);
}

static struct verbs_device *xrc_sim_device_alloc(struct verbs_sysfs_dev *sysfs)
{
	struct xrc_sim_device *dev = calloc(1, sizeof(*dev));

	return dev ? &dev->ibv_dev : NULL;
}

static void xrc_sim_uninit_device(struct verbs_device *verbs_device)
{
	free(container_of(verbs_device, struct xrc_sim_device, ibv_dev));
}

static const struct verbs_device_ops xrc_sim_dev_ops = {
	.name = "xrc_sim",
	.match_min_abi_version = 1,	/* the module's uverbs_abi_ver */
	.match_max_abi_version = 1,
	.match_table = xrc_sim_table,
	.alloc_device = xrc_sim_device_alloc,
	.uninit_device = xrc_sim_uninit_device,
	.alloc_context = xrc_sim_alloc_context,
};
PROVIDER_DRIVER(xrc_sim, xrc_sim_dev_ops);
