// SPDX-License-Identifier: GPL-2.0
/*
 * xrc_sim: device and port attributes.
 *
 * An InfiniBand CA with one port that is always up.  The port advertises
 * the IB protocol but no MAD, SMI, CM or SA capability, so the core's
 * management clients leave the device alone and create no special QPs.
 */

#include <linux/string.h>
#include <rdma/ib_verbs.h>

#include "xrc_sim.h"

/* EUI-64 with the locally administered bit set: not a real vendor's. */
#define XRC_SIM_NODE_GUID	0x020000fffe00a1c0ULL
#define XRC_SIM_GID_PREFIX	0xfe80000000000000ULL
#define XRC_SIM_DEFAULT_PKEY	0xffff
#define XRC_SIM_LID		1

void xrc_sim_device_init(struct xrc_sim_dev *sdev)
{
	struct ib_device *ibdev = &sdev->ibdev;

	ibdev->node_type = RDMA_NODE_IB_CA;
	ibdev->phys_port_cnt = 1;
	ibdev->num_comp_vectors = 1;
	ibdev->node_guid = cpu_to_be64(XRC_SIM_NODE_GUID);
	strscpy(ibdev->node_desc, "xrc_sim", sizeof(ibdev->node_desc));
}

int xrc_sim_query_device(struct ib_device *ibdev, struct ib_device_attr *attr,
			 struct ib_udata *udata)
{
	/* The core queries the device at registration without a udata */
	if (udata && (udata->inlen || udata->outlen))
		return -EINVAL;

	memset(attr, 0, sizeof(*attr));
	attr->sys_image_guid = cpu_to_be64(XRC_SIM_NODE_GUID);
	attr->max_mr_size = ~0ULL;
	attr->page_size_cap = PAGE_SIZE;
	attr->device_cap_flags = to_sim_dev(ibdev)->xrc ? IB_DEVICE_XRC : 0;
	attr->kernel_cap_flags = IBK_LOCAL_DMA_LKEY;
	attr->max_qp = XRC_SIM_MAX_QP;
	attr->max_pd = XRC_SIM_MAX_PD;
	attr->max_qp_rd_atom = XRC_SIM_MAX_RD_ATOM;
	attr->max_qp_init_rd_atom = XRC_SIM_MAX_RD_ATOM;
	attr->max_res_rd_atom = XRC_SIM_MAX_QP * XRC_SIM_MAX_RD_ATOM;
	attr->atomic_cap = IB_ATOMIC_NONE;
	attr->max_pkeys = 1;
	return 0;
}

int xrc_sim_query_port(struct ib_device *ibdev, u32 port,
		       struct ib_port_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->state = IB_PORT_ACTIVE;
	attr->phys_state = IB_PORT_PHYS_STATE_LINK_UP;
	attr->max_mtu = IB_MTU_4096;
	attr->active_mtu = IB_MTU_4096;
	attr->gid_tbl_len = 1;
	attr->pkey_tbl_len = 1;
	attr->max_msg_sz = 0x80000000;
	attr->lid = XRC_SIM_LID;
	attr->sm_lid = XRC_SIM_LID;
	attr->max_vl_num = 1;
	attr->active_width = IB_WIDTH_4X;
	attr->active_speed = IB_SPEED_EDR;
	return 0;
}

int xrc_sim_get_port_immutable(struct ib_device *ibdev, u32 port,
			       struct ib_port_immutable *immutable)
{
	immutable->pkey_tbl_len = 1;
	immutable->gid_tbl_len = 1;
	immutable->core_cap_flags = RDMA_CORE_CAP_PROT_IB;
	immutable->max_mad_size = 0;
	return 0;
}

int xrc_sim_query_gid(struct ib_device *ibdev, u32 port, int index,
		      union ib_gid *gid)
{
	if (index != 0)
		return -EINVAL;

	gid->global.subnet_prefix = cpu_to_be64(XRC_SIM_GID_PREFIX);
	gid->global.interface_id = cpu_to_be64(XRC_SIM_NODE_GUID);
	return 0;
}

int xrc_sim_query_pkey(struct ib_device *ibdev, u32 port, u16 index,
		       u16 *pkey)
{
	if (index != 0)
		return -EINVAL;

	*pkey = XRC_SIM_DEFAULT_PKEY;
	return 0;
}
