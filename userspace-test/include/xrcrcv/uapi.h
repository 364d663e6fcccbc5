/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-2-Clause) */
/*
 * uverbs ABI for XRC receive QPs, as the contract (Documentation/abi.md
 * at the repository top, v3) and the series from v4 on give it: four
 * ioctl methods on UVERBS_OBJECT_XRCD and the async event flag.  There
 * are no write commands for them (series v3 had 41-44; v4 removed them,
 * and a write of those numbers gets what any unknown command gets), and
 * no in-band "create" number: REG without UVERBS_ATTR_REG_RCV_QP_NUM
 * creates.
 *
 * The installed <rdma/ib_user_ioctl_cmds.h> (linux-libc-dev 6.1) predates
 * the series.  Everything below steps aside when the kernel headers
 * already have it: the event flag is tested directly, the ioctl enums
 * through the build-time probe recorded in <xrcrcv/config.h> (or a -D of
 * the same name).  Usable from C (C11) and C++.
 */
#ifndef XRCRCV_UAPI_H
#define XRCRCV_UAPI_H

#include <linux/types.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/rdma_user_ioctl_cmds.h>

#include <xrcrcv/config.h>

#ifndef IB_UVERBS_XRC_QP_EVENT_FLAG
/* set in event_type of async events on receive QPs; element = qp_num */
#define IB_UVERBS_XRC_QP_EVENT_FLAG 0x80000000U
#endif

#ifndef XRCRCV_HAVE_UAPI_XRCD_RCV_QP_METHODS
/*
 * These continue enum uverbs_methods_xrcd after UVERBS_METHOD_XRCD_DESTROY
 * (0).  The ids are per object: they are sent with object_id
 * UVERBS_OBJECT_XRCD in struct ib_uverbs_ioctl_hdr.  REG without
 * UVERBS_ATTR_REG_RCV_QP_NUM creates a receive QP; with it, it registers
 * the QP of that number (0xffffffff is a number like any other there, and
 * not one of a QP: -EINVAL).
 */
enum {
	UVERBS_METHOD_XRCD_REG_RCV_QP = 1,
	UVERBS_METHOD_XRCD_UNREG_RCV_QP = 2,
	UVERBS_METHOD_XRCD_MODIFY_RCV_QP = 3,
	UVERBS_METHOD_XRCD_QUERY_RCV_QP = 4,
};

enum uverbs_attrs_xrcd_reg_rcv_qp_ids {
	UVERBS_ATTR_REG_RCV_QP_XRCD_HANDLE,	/* IDR, XRCD, READ */
	UVERBS_ATTR_REG_RCV_QP_NUM,		/* PTR_IN u32, optional: absent creates */
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

/* The ioctl interface */
XRCRCV_UAPI_ASSERT(UVERBS_METHOD_XRCD_DESTROY == 0, "XRCD_DESTROY is 0");
XRCRCV_UAPI_ASSERT(UVERBS_METHOD_XRCD_REG_RCV_QP == 1, "REG_RCV_QP is 1");
XRCRCV_UAPI_ASSERT(UVERBS_METHOD_XRCD_UNREG_RCV_QP == 2, "UNREG_RCV_QP is 2");
XRCRCV_UAPI_ASSERT(UVERBS_METHOD_XRCD_MODIFY_RCV_QP == 3, "MODIFY_RCV_QP is 3");
XRCRCV_UAPI_ASSERT(UVERBS_METHOD_XRCD_QUERY_RCV_QP == 4, "QUERY_RCV_QP is 4");
XRCRCV_UAPI_ASSERT(UVERBS_ATTR_REG_RCV_QP_RESP_NUM == 2, "reg attrs");
XRCRCV_UAPI_ASSERT(UVERBS_ATTR_UNREG_RCV_QP_NUM == 1, "unreg attrs");
XRCRCV_UAPI_ASSERT(UVERBS_ATTR_MODIFY_RCV_QP_ATTR == 2, "modify attrs");
XRCRCV_UAPI_ASSERT(UVERBS_ATTR_QUERY_RCV_QP_RESP == 3, "query attrs");
XRCRCV_UAPI_ASSERT(sizeof(struct ib_uverbs_cmd_hdr) == 8, "cmd hdr");
XRCRCV_UAPI_ASSERT(sizeof(struct ib_uverbs_ioctl_hdr) == 24, "ioctl hdr");
XRCRCV_UAPI_ASSERT(sizeof(struct ib_uverbs_attr) == 16, "ioctl attr");
XRCRCV_UAPI_ASSERT(sizeof(struct ib_uverbs_modify_qp) == 112, "modify_qp size");

XRCRCV_UAPI_ASSERT(sizeof(struct ib_uverbs_query_qp_resp) == 128, "query_qp_resp size");
XRCRCV_UAPI_ASSERT(sizeof(struct ib_uverbs_async_event_desc) == 16, "event size");

#undef XRCRCV_UAPI_ASSERT

#endif /* XRCRCV_UAPI_H */
