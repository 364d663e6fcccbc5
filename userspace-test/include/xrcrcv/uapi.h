/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-2-Clause) */
/*
 * uverbs ABI for XRC receive QPs, as the contract (Documentation/abi.md
 * at the repository top) and series v3 give it: the write commands 41-44
 * and the ioctl methods on UVERBS_OBJECT_XRCD.
 *
 * The installed <rdma/ib_user_verbs.h> and <rdma/ib_user_ioctl_cmds.h>
 * (linux-libc-dev 6.1) predate the series.  Everything below steps aside
 * when the kernel headers already have it: the two macros are tested
 * directly, the command numbers, structs and ioctl enums through the
 * build-time probes recorded in <xrcrcv/config.h> (or a -D of the same
 * name).  Usable from C (C11) and C++.
 */
#ifndef XRCRCV_UAPI_H
#define XRCRCV_UAPI_H

#include <linux/types.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/rdma_user_ioctl_cmds.h>

#include <xrcrcv/config.h>

#ifndef IB_UVERBS_XRC_RCV_QPN_NEW
/* qp_num that asks REG_XRC_RCV_QP to create a new receive QP */
#define IB_UVERBS_XRC_RCV_QPN_NEW 0xffffffffU
#endif

#ifndef IB_UVERBS_XRC_QP_EVENT_FLAG
/* set in event_type of async events on receive QPs; element = qp_num */
#define IB_UVERBS_XRC_QP_EVENT_FLAG 0x80000000U
#endif

#ifndef XRCRCV_HAVE_UAPI_XRC_RCV_CMDS
/* These continue enum ib_uverbs_write_cmds after OPEN_QP (40). */
enum {
	IB_USER_VERBS_CMD_REG_XRC_RCV_QP = 41,
	IB_USER_VERBS_CMD_UNREG_XRC_RCV_QP = 42,
	IB_USER_VERBS_CMD_MODIFY_XRC_RCV_QP = 43,
	IB_USER_VERBS_CMD_QUERY_XRC_RCV_QP = 44,
};
#endif

#ifndef XRCRCV_HAVE_UAPI_XRC_RCV_STRUCTS
struct ib_uverbs_reg_xrc_rcv_qp {
	__aligned_u64 response;	/* struct ib_uverbs_reg_xrc_rcv_qp_resp */
	__u32 xrcd_handle;
	__u32 qp_num;		/* IB_UVERBS_XRC_RCV_QPN_NEW: create */
	__aligned_u64 driver_data[];
};

struct ib_uverbs_reg_xrc_rcv_qp_resp {
	__u32 qp_num;
	__u32 reserved;
};

struct ib_uverbs_unreg_xrc_rcv_qp {
	__u32 xrcd_handle;
	__u32 qp_num;
	__aligned_u64 driver_data[];
};

/*
 * xrcd_handle and qp_num, then the fields of struct ib_uverbs_modify_qp
 * without its qp_handle, in the same order.
 */
struct ib_uverbs_modify_xrc_rcv_qp {
	__u32 xrcd_handle;
	__u32 qp_num;
	struct ib_uverbs_qp_dest dest;
	struct ib_uverbs_qp_dest alt_dest;
	__u32 attr_mask;
	__u32 qkey;
	__u32 rq_psn;
	__u32 sq_psn;
	__u32 dest_qp_num;
	__u32 qp_access_flags;
	__u16 pkey_index;
	__u16 alt_pkey_index;
	__u8  qp_state;
	__u8  cur_qp_state;
	__u8  path_mtu;
	__u8  path_mig_state;
	__u8  en_sqd_async_notify;
	__u8  max_rd_atomic;
	__u8  max_dest_rd_atomic;
	__u8  min_rnr_timer;
	__u8  port_num;
	__u8  timeout;
	__u8  retry_cnt;
	__u8  rnr_retry;
	__u8  alt_port_num;
	__u8  alt_timeout;
	__u8  reserved[2];
	__u32 reserved2;	/* v3: explicit, no hidden hole; must be 0 */
	__aligned_u64 driver_data[];
};

struct ib_uverbs_query_xrc_rcv_qp {
	__aligned_u64 response;	/* struct ib_uverbs_query_qp_resp */
	__u32 xrcd_handle;
	__u32 qp_num;
	__u32 attr_mask;
	__u32 reserved;
	__aligned_u64 driver_data[];
};
#endif /* XRCRCV_HAVE_UAPI_XRC_RCV_STRUCTS */

#ifndef XRCRCV_HAVE_UAPI_XRCD_RCV_QP_METHODS
/*
 * These continue enum uverbs_methods_xrcd after UVERBS_METHOD_XRCD_DESTROY
 * (0).  The ids are per object: they are sent with object_id
 * UVERBS_OBJECT_XRCD in struct ib_uverbs_ioctl_hdr.
 */
enum {
	UVERBS_METHOD_XRCD_REG_RCV_QP = 1,
	UVERBS_METHOD_XRCD_UNREG_RCV_QP = 2,
	UVERBS_METHOD_XRCD_MODIFY_RCV_QP = 3,
	UVERBS_METHOD_XRCD_QUERY_RCV_QP = 4,
};

enum uverbs_attrs_xrcd_reg_rcv_qp_ids {
	UVERBS_ATTR_REG_RCV_QP_XRCD_HANDLE,	/* IDR, XRCD, READ */
	UVERBS_ATTR_REG_RCV_QP_NUM,		/* PTR_IN u32 (QPN_NEW: create) */
	UVERBS_ATTR_REG_RCV_QP_RESP_NUM,	/* PTR_OUT u32 */
};

enum uverbs_attrs_xrcd_unreg_rcv_qp_ids {
	UVERBS_ATTR_UNREG_RCV_QP_XRCD_HANDLE,	/* IDR, XRCD, READ */
	UVERBS_ATTR_UNREG_RCV_QP_NUM,		/* PTR_IN u32 */
};

enum uverbs_attrs_xrcd_modify_rcv_qp_ids {
	UVERBS_ATTR_MODIFY_RCV_QP_XRCD_HANDLE,	/* IDR, XRCD, READ */
	UVERBS_ATTR_MODIFY_RCV_QP_NUM,		/* PTR_IN u32 */
	UVERBS_ATTR_MODIFY_RCV_QP_ATTR,		/* PTR_IN struct ib_uverbs_modify_qp,
						   qp_handle and reserved[2] 0 */
};

enum uverbs_attrs_xrcd_query_rcv_qp_ids {
	UVERBS_ATTR_QUERY_RCV_QP_XRCD_HANDLE,	/* IDR, XRCD, READ */
	UVERBS_ATTR_QUERY_RCV_QP_NUM,		/* PTR_IN u32 */
	UVERBS_ATTR_QUERY_RCV_QP_ATTR_MASK,	/* PTR_IN u32 */
	UVERBS_ATTR_QUERY_RCV_QP_RESP,		/* PTR_OUT struct ib_uverbs_query_qp_resp */
};
#endif /* XRCRCV_HAVE_UAPI_XRCD_RCV_QP_METHODS */

/* Layout checks: they hold for our definitions and a patched header alike. */
#ifdef __cplusplus
#include <cstddef>
#define XRCRCV_UAPI_ASSERT(cond, msg) static_assert(cond, msg)
#else
#include <stddef.h>
#define XRCRCV_UAPI_ASSERT(cond, msg) _Static_assert(cond, msg)
#endif

XRCRCV_UAPI_ASSERT(IB_USER_VERBS_CMD_OPEN_QP == 40, "OPEN_QP is 40");
XRCRCV_UAPI_ASSERT(IB_USER_VERBS_CMD_REG_XRC_RCV_QP == 41, "REG is 41");
XRCRCV_UAPI_ASSERT(IB_USER_VERBS_CMD_UNREG_XRC_RCV_QP == 42, "UNREG is 42");
XRCRCV_UAPI_ASSERT(IB_USER_VERBS_CMD_MODIFY_XRC_RCV_QP == 43, "MODIFY is 43");
XRCRCV_UAPI_ASSERT(IB_USER_VERBS_CMD_QUERY_XRC_RCV_QP == 44, "QUERY is 44");

XRCRCV_UAPI_ASSERT(sizeof(struct ib_uverbs_cmd_hdr) == 8, "cmd hdr");
XRCRCV_UAPI_ASSERT(sizeof(struct ib_uverbs_reg_xrc_rcv_qp) == 16, "reg size");
XRCRCV_UAPI_ASSERT(offsetof(struct ib_uverbs_reg_xrc_rcv_qp, response) == 0, "reg.response");
XRCRCV_UAPI_ASSERT(offsetof(struct ib_uverbs_reg_xrc_rcv_qp, xrcd_handle) == 8, "reg.xrcd_handle");
XRCRCV_UAPI_ASSERT(offsetof(struct ib_uverbs_reg_xrc_rcv_qp, qp_num) == 12, "reg.qp_num");
XRCRCV_UAPI_ASSERT(sizeof(struct ib_uverbs_reg_xrc_rcv_qp_resp) == 8, "reg resp size");
XRCRCV_UAPI_ASSERT(offsetof(struct ib_uverbs_reg_xrc_rcv_qp_resp, reserved) == 4, "reg_resp.reserved");
XRCRCV_UAPI_ASSERT(sizeof(struct ib_uverbs_unreg_xrc_rcv_qp) == 8, "unreg size");
XRCRCV_UAPI_ASSERT(offsetof(struct ib_uverbs_unreg_xrc_rcv_qp, qp_num) == 4, "unreg.qp_num");
XRCRCV_UAPI_ASSERT(sizeof(struct ib_uverbs_query_xrc_rcv_qp) == 24, "query size");
XRCRCV_UAPI_ASSERT(offsetof(struct ib_uverbs_query_xrc_rcv_qp, xrcd_handle) == 8, "query.xrcd_handle");
XRCRCV_UAPI_ASSERT(offsetof(struct ib_uverbs_query_xrc_rcv_qp, qp_num) == 12, "query.qp_num");
XRCRCV_UAPI_ASSERT(offsetof(struct ib_uverbs_query_xrc_rcv_qp, attr_mask) == 16, "query.attr_mask");
XRCRCV_UAPI_ASSERT(offsetof(struct ib_uverbs_query_xrc_rcv_qp, reserved) == 20, "query.reserved");

/*
 * MODIFY: {xrcd_handle, qp_num} then ib_uverbs_modify_qp minus qp_handle.
 * In ib_uverbs_modify_qp, dest/alt_dest (64 bytes) come first, then
 * qp_handle (4), then attr_mask...reserved[2].  Here the 8-byte prefix
 * takes the place of qp_handle before dest, so dest and alt_dest sit 8
 * bytes later and every field from attr_mask on sits 4 bytes later.
 */
XRCRCV_UAPI_ASSERT(offsetof(struct ib_uverbs_modify_xrc_rcv_qp, qp_num) == 4, "modify.qp_num");
XRCRCV_UAPI_ASSERT(offsetof(struct ib_uverbs_modify_xrc_rcv_qp, dest) == 8, "modify.dest");
XRCRCV_UAPI_ASSERT(offsetof(struct ib_uverbs_modify_xrc_rcv_qp, alt_dest) ==
		   offsetof(struct ib_uverbs_modify_qp, alt_dest) + 8, "modify.alt_dest");
XRCRCV_UAPI_ASSERT(offsetof(struct ib_uverbs_modify_xrc_rcv_qp, attr_mask) ==
		   offsetof(struct ib_uverbs_modify_qp, attr_mask) + 4, "modify.attr_mask");
XRCRCV_UAPI_ASSERT(offsetof(struct ib_uverbs_modify_xrc_rcv_qp, qp_state) ==
		   offsetof(struct ib_uverbs_modify_qp, qp_state) + 4, "modify.qp_state");
XRCRCV_UAPI_ASSERT(offsetof(struct ib_uverbs_modify_xrc_rcv_qp, alt_timeout) ==
		   offsetof(struct ib_uverbs_modify_qp, alt_timeout) + 4, "modify.alt_timeout");
XRCRCV_UAPI_ASSERT(offsetof(struct ib_uverbs_modify_xrc_rcv_qp, reserved) ==
		   offsetof(struct ib_uverbs_modify_qp, reserved) + 4, "modify.reserved");
XRCRCV_UAPI_ASSERT(offsetof(struct ib_uverbs_modify_xrc_rcv_qp, reserved) + 2 == 116,
		   "modify's fields of modify_qp end at 116 bytes");
/* v3: the 4 bytes up to the 8-aligned driver_data[] are reserved2 */
XRCRCV_UAPI_ASSERT(offsetof(struct ib_uverbs_modify_xrc_rcv_qp, reserved2) == 116,
		   "modify.reserved2");
XRCRCV_UAPI_ASSERT(sizeof(struct ib_uverbs_modify_xrc_rcv_qp) == 120, "modify size");

/* The ioctl interface (v3) */
XRCRCV_UAPI_ASSERT(UVERBS_METHOD_XRCD_DESTROY == 0, "XRCD_DESTROY is 0");
XRCRCV_UAPI_ASSERT(UVERBS_METHOD_XRCD_REG_RCV_QP == 1, "REG_RCV_QP is 1");
XRCRCV_UAPI_ASSERT(UVERBS_METHOD_XRCD_UNREG_RCV_QP == 2, "UNREG_RCV_QP is 2");
XRCRCV_UAPI_ASSERT(UVERBS_METHOD_XRCD_MODIFY_RCV_QP == 3, "MODIFY_RCV_QP is 3");
XRCRCV_UAPI_ASSERT(UVERBS_METHOD_XRCD_QUERY_RCV_QP == 4, "QUERY_RCV_QP is 4");
XRCRCV_UAPI_ASSERT(UVERBS_ATTR_REG_RCV_QP_RESP_NUM == 2, "reg attrs");
XRCRCV_UAPI_ASSERT(UVERBS_ATTR_UNREG_RCV_QP_NUM == 1, "unreg attrs");
XRCRCV_UAPI_ASSERT(UVERBS_ATTR_MODIFY_RCV_QP_ATTR == 2, "modify attrs");
XRCRCV_UAPI_ASSERT(UVERBS_ATTR_QUERY_RCV_QP_RESP == 3, "query attrs");
XRCRCV_UAPI_ASSERT(sizeof(struct ib_uverbs_ioctl_hdr) == 24, "ioctl hdr");
XRCRCV_UAPI_ASSERT(sizeof(struct ib_uverbs_attr) == 16, "ioctl attr");
XRCRCV_UAPI_ASSERT(sizeof(struct ib_uverbs_modify_qp) == 112, "modify_qp size");

XRCRCV_UAPI_ASSERT(sizeof(struct ib_uverbs_query_qp_resp) == 128, "query_qp_resp size");
XRCRCV_UAPI_ASSERT(sizeof(struct ib_uverbs_async_event_desc) == 16, "event size");

#undef XRCRCV_UAPI_ASSERT

#endif /* XRCRCV_UAPI_H */
