/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xrc_sim: a simulated XRC-capable RDMA device, so that the uverbs XRC
 * receive-QP commands can be tested end to end without hardware.
 *
 * One IB port, always ACTIVE, one GID and one P_Key.  Only XRC target
 * QPs exist; the data path (CQs, MRs, posting work) is not simulated.
 * Counters and knobs live in debugfs under xrc_sim/ (see debugfs.c).
 */
#ifndef _XRC_SIM_H
#define _XRC_SIM_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/completion.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/version.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>

#define XRC_SIM_PORT		1

/*
 * QP numbers are 24 bits.  Hardware reserves the low numbers (0 and 1 are
 * the special QPs, more are kept for firmware); hand out the rest
 * cyclically, so a destroyed QP's number is not reused right away.  With
 * mlx4_qpn (the default) the numbers are mlx4's for XRC target QPs: its
 * 23-bit QP index with bit 23 set (mlx4_ib's create_qp sets it), so every
 * number is at least 0x800000 and a number without bit 23 is never one.
 */
#define XRC_SIM_QPN_FIRST	0x40
#define XRC_SIM_QPN_LAST	0xffffff
#define XRC_SIM_QPN_MLX4_XRC	BIT(23)

#define XRC_SIM_MAX_QP		(1 << 16)
#define XRC_SIM_MAX_PD		(1 << 16)
#define XRC_SIM_MAX_RD_ATOM	16

struct xrc_sim_dev {
	struct ib_device ibdev;		/* must be first: ib_alloc_device() */

	struct xarray qps;		/* qpn -> struct xrc_sim_qp */
	u32 next_qpn;			/* xa_alloc_cyclic() cursor */
	u32 qpn_first;			/* numbers handed out: qpn_first.. */

	/* debugfs: read-only counters */
	atomic_t live_qps;
	atomic_t live_xrcds;
	atomic_t live_ucontexts;
	atomic_t irq_events;		/* events raised from hard irq */

	/* debugfs: knobs */
	u32 max_qps;			/* create_qp fails with -ENOMEM beyond */

	/* debugfs: what modify_qp last got as udata (modify_qp_udata) */
	spinlock_t udata_lock;
	struct {
		u64 calls;
		bool null;
		size_t inlen;
		size_t outlen;
	} modify_udata;

	bool xrc;			/* module parameter: offer XRC */
	bool mlx4_qpn;			/* module parameter: bit 23 set */

	struct dentry *ddir;
};

struct xrc_sim_ucontext {
	struct ib_ucontext ibuc;
};

struct xrc_sim_pd {
	struct ib_pd ibpd;
};

struct xrc_sim_xrcd {
	struct ib_xrcd ibxrcd;
};

struct xrc_sim_cq {
	struct ib_cq ibcq;
};

struct xrc_sim_qp {
	struct ib_qp ibqp;

	struct mutex lock;		/* protects attr */
	struct ib_qp_attr attr;		/* the QP context, as modify_qp set it */

	/*
	 * One reference is held by sdev->qps; event injection takes more
	 * (under the xarray lock) while it calls into the core.  destroy_qp
	 * drops the xarray's and waits for the others, like a hardware
	 * driver waiting out its event interrupt.
	 */
	refcount_t users;
	struct completion released;
};

static inline struct xrc_sim_dev *to_sim_dev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct xrc_sim_dev, ibdev);
}

static inline struct xrc_sim_qp *to_sim_qp(struct ib_qp *ibqp)
{
	return container_of(ibqp, struct xrc_sim_qp, ibqp);
}

/* device.c: device and port attributes */
int xrc_sim_query_device(struct ib_device *ibdev, struct ib_device_attr *attr,
			 struct ib_udata *udata);
int xrc_sim_query_port(struct ib_device *ibdev, u32 port,
		       struct ib_port_attr *attr);
int xrc_sim_get_port_immutable(struct ib_device *ibdev, u32 port,
			       struct ib_port_immutable *immutable);
int xrc_sim_query_gid(struct ib_device *ibdev, u32 port, int index,
		      union ib_gid *gid);
int xrc_sim_query_pkey(struct ib_device *ibdev, u32 port, u16 index,
		       u16 *pkey);
void xrc_sim_device_init(struct xrc_sim_dev *sdev);

/* context.c: user contexts and protection domains */
int xrc_sim_alloc_ucontext(struct ib_ucontext *ibuc, struct ib_udata *udata);
void xrc_sim_dealloc_ucontext(struct ib_ucontext *ibuc);
void xrc_sim_disassociate_ucontext(struct ib_ucontext *ibuc);
int xrc_sim_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata);
int xrc_sim_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata);

/* xrcd.c: XRC domains */
int xrc_sim_alloc_xrcd(struct ib_xrcd *ibxrcd, struct ib_udata *udata);
int xrc_sim_dealloc_xrcd(struct ib_xrcd *ibxrcd, struct ib_udata *udata);

/* qp.c: XRC target QPs */
void xrc_sim_record_modify_udata(struct xrc_sim_dev *sdev,
				 const struct ib_udata *udata);
int xrc_sim_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
		      struct ib_udata *udata);
int xrc_sim_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata);
int xrc_sim_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
		      int mask, struct ib_udata *udata);
int xrc_sim_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		     struct ib_qp_init_attr *init);
struct xrc_sim_qp *xrc_sim_qp_get(struct xrc_sim_dev *sdev, u32 qpn);
void xrc_sim_qp_put(struct xrc_sim_qp *qp);

/* event.c: asynchronous events */
int xrc_sim_inject_qp_event(struct xrc_sim_dev *sdev, u32 qpn, u32 type);

/* debugfs.c */
void xrc_sim_debugfs_init(struct xrc_sim_dev *sdev);
void xrc_sim_debugfs_exit(struct xrc_sim_dev *sdev);

/* unsupported.c: the data path, which is not simulated */
int xrc_sim_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		      const struct ib_send_wr **bad_wr);
int xrc_sim_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		      const struct ib_recv_wr **bad_wr);
int xrc_sim_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		      struct uverbs_attr_bundle *attrs);
int xrc_sim_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata);
int xrc_sim_poll_cq(struct ib_cq *ibcq, int num_entries, struct ib_wc *wc);
int xrc_sim_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags);
struct ib_mr *xrc_sim_get_dma_mr(struct ib_pd *ibpd, int access);
/* reg_user_mr() takes a DMA handle since Linux 6.17 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 17, 0)
#define XRC_SIM_DMAH_ARG struct ib_dmah *dmah,
#else
#define XRC_SIM_DMAH_ARG
#endif
struct ib_mr *xrc_sim_reg_user_mr(struct ib_pd *ibpd, u64 start, u64 length,
				  u64 virt_addr, int access, XRC_SIM_DMAH_ARG
				  struct ib_udata *udata);
int xrc_sim_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata);

#endif /* _XRC_SIM_H */
