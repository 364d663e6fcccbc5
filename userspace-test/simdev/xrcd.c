// SPDX-License-Identifier: GPL-2.0
/*
 * xrc_sim: XRC domains.
 *
 * The core keeps an XRCD's target QPs (xrcd->tgt_qps) and its sharing
 * across files; the device only counts them, in live_xrcds.
 */

#include <rdma/ib_verbs.h>

#include "xrc_sim.h"

int xrc_sim_alloc_xrcd(struct ib_xrcd *ibxrcd, struct ib_udata *udata)
{
	struct xrc_sim_dev *sdev = to_sim_dev(ibxrcd->device);

	atomic_inc(&sdev->live_xrcds);
	return 0;
}

int xrc_sim_dealloc_xrcd(struct ib_xrcd *ibxrcd, struct ib_udata *udata)
{
	struct xrc_sim_dev *sdev = to_sim_dev(ibxrcd->device);

	atomic_dec(&sdev->live_xrcds);
	return 0;
}
