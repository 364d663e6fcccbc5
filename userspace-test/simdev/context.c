// SPDX-License-Identifier: GPL-2.0
/*
 * xrc_sim: user contexts and protection domains.
 *
 * Nothing is mapped into user space (no doorbells, no queues), so a
 * context holds no resource of its own.  It is counted in live_ucontexts.
 */

#include <rdma/ib_verbs.h>

#include "xrc_sim.h"

int xrc_sim_alloc_ucontext(struct ib_ucontext *ibuc, struct ib_udata *udata)
{
	struct xrc_sim_dev *sdev = to_sim_dev(ibuc->device);

	atomic_inc(&sdev->live_ucontexts);
	return 0;
}

void xrc_sim_dealloc_ucontext(struct ib_ucontext *ibuc)
{
	struct xrc_sim_dev *sdev = to_sim_dev(ibuc->device);

	atomic_dec(&sdev->live_ucontexts);
}

/*
 * Called on device removal with the file still open, after the core has
 * destroyed the context's objects and before dealloc_ucontext.  A device
 * with mmap()ed doorbells would cut them off here; this one has none.
 * Providing the op is what lets ib_unregister_device() (and so rmmod)
 * disassociate open files instead of waiting for them to close.
 */
void xrc_sim_disassociate_ucontext(struct ib_ucontext *ibuc)
{
}

int xrc_sim_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	return 0;
}

int xrc_sim_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	return 0;
}
