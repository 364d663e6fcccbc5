// SPDX-License-Identifier: GPL-2.0
/*
 * xrc_sim: module entry, the verbs table and device registration.
 *
 * Loading the module registers one device, xrc_sim0, which uverbs
 * exposes as /dev/infiniband/uverbsN.  Unloading it unregisters the
 * device; open uverbs files are disassociated (their objects destroyed,
 * later calls fail with -EIO), so rmmod never waits for user space.
 *
 * Module parameter xrc (default Y): with xrc=0 the device leaves XRC out
 * (no alloc_xrcd/dealloc_xrcd, no IB_DEVICE_XRC), as a device without
 * XRC support does, so the uverbs core's answer to the XRC verbs on such
 * a device can be tested.
 */

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <rdma/ib_verbs.h>

#include "xrc_sim.h"

static const struct ib_device_ops xrc_sim_dev_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_UNKNOWN,
	.uverbs_abi_ver = 1,

	.query_device = xrc_sim_query_device,
	.query_port = xrc_sim_query_port,
	.get_port_immutable = xrc_sim_get_port_immutable,
	.query_gid = xrc_sim_query_gid,
	.query_pkey = xrc_sim_query_pkey,

	.alloc_ucontext = xrc_sim_alloc_ucontext,
	.dealloc_ucontext = xrc_sim_dealloc_ucontext,
	.disassociate_ucontext = xrc_sim_disassociate_ucontext,
	.alloc_pd = xrc_sim_alloc_pd,
	.dealloc_pd = xrc_sim_dealloc_pd,

	.create_qp = xrc_sim_create_qp,
	.destroy_qp = xrc_sim_destroy_qp,
	.modify_qp = xrc_sim_modify_qp,
	.query_qp = xrc_sim_query_qp,

	.post_send = xrc_sim_post_send,
	.post_recv = xrc_sim_post_recv,
	.create_cq = xrc_sim_create_cq,
	.destroy_cq = xrc_sim_destroy_cq,
	.poll_cq = xrc_sim_poll_cq,
	.req_notify_cq = xrc_sim_req_notify_cq,
	.get_dma_mr = xrc_sim_get_dma_mr,
	.reg_user_mr = xrc_sim_reg_user_mr,
	.dereg_mr = xrc_sim_dereg_mr,

	INIT_RDMA_OBJ_SIZE(ib_cq, xrc_sim_cq, ibcq),
	INIT_RDMA_OBJ_SIZE(ib_pd, xrc_sim_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_qp, xrc_sim_qp, ibqp),
	INIT_RDMA_OBJ_SIZE(ib_ucontext, xrc_sim_ucontext, ibuc),
};

/* XRC domains: only with xrc=1 */
static const struct ib_device_ops xrc_sim_xrc_ops = {
	.alloc_xrcd = xrc_sim_alloc_xrcd,
	.dealloc_xrcd = xrc_sim_dealloc_xrcd,

	INIT_RDMA_OBJ_SIZE(ib_xrcd, xrc_sim_xrcd, ibxrcd),
};

static bool xrc = true;
module_param(xrc, bool, 0444);
MODULE_PARM_DESC(xrc, "Offer XRC (XRC domains and XRC target QPs); default Y");

static bool mlx4_qpn = true;
module_param(mlx4_qpn, bool, 0444);
MODULE_PARM_DESC(mlx4_qpn,
		 "Number XRC target QPs as mlx4 does, with bit 23 set; default Y");

static struct xrc_sim_dev *xrc_sim;

static int __init xrc_sim_init(void)
{
	struct xrc_sim_dev *sdev;
	int err;

	sdev = ib_alloc_device(xrc_sim_dev, ibdev);
	if (!sdev)
		return -ENOMEM;

	xa_init_flags(&sdev->qps, XA_FLAGS_ALLOC);
	sdev->mlx4_qpn = mlx4_qpn;
	sdev->qpn_first = XRC_SIM_QPN_FIRST;
	if (sdev->mlx4_qpn)
		sdev->qpn_first |= XRC_SIM_QPN_MLX4_XRC;
	sdev->next_qpn = sdev->qpn_first;
	sdev->max_qps = XRC_SIM_MAX_QP;
	spin_lock_init(&sdev->udata_lock);
	sdev->modify_udata.null = true;
	sdev->xrc = xrc;
	xrc_sim_device_init(sdev);
	ib_set_device_ops(&sdev->ibdev, &xrc_sim_dev_ops);
	if (sdev->xrc)
		ib_set_device_ops(&sdev->ibdev, &xrc_sim_xrc_ops);

	xrc_sim_debugfs_init(sdev);

	/* No DMA device: nothing is ever transferred. */
	err = ib_register_device(&sdev->ibdev, "xrc_sim%d", NULL);
	if (err)
		goto err_debugfs;

	xrc_sim = sdev;
	return 0;

err_debugfs:
	xrc_sim_debugfs_exit(sdev);
	xa_destroy(&sdev->qps);
	ib_dealloc_device(&sdev->ibdev);
	return err;
}

static void __exit xrc_sim_exit(void)
{
	struct xrc_sim_dev *sdev = xrc_sim;

	/* Waits for debugfs writers, so no event injection runs past here. */
	xrc_sim_debugfs_exit(sdev);

	/* Disassociates open uverbs files: their QPs and XRCDs go now. */
	ib_unregister_device(&sdev->ibdev);

	WARN_ON(!xa_empty(&sdev->qps));
	WARN_ON(atomic_read(&sdev->live_qps));
	WARN_ON(atomic_read(&sdev->live_xrcds));
	WARN_ON(atomic_read(&sdev->live_ucontexts));
	xa_destroy(&sdev->qps);
	ib_dealloc_device(&sdev->ibdev);
}

module_init(xrc_sim_init);
module_exit(xrc_sim_exit);

MODULE_DESCRIPTION("Simulated XRC-capable RDMA device for uverbs testing");
MODULE_LICENSE("GPL");
