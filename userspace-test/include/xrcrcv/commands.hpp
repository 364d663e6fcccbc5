// One function per uverbs command used here.  Each builds the exact wire
// struct or attributes, sends them on the command fd and decodes the
// response.  The four XRC receive-QP verbs are the XRCD ioctl methods 1-4
// (RDMA_VERBS_IOCTL); the mainline commands (OPEN_XRCD, CREATE_QP, ...)
// are write() commands, as libibverbs sends them.
#pragma once

#include <xrcrcv/context.hpp>
#include <xrcrcv/error.hpp>
#include <xrcrcv/qp_attr.hpp>
#include <xrcrcv/transport.hpp>
#include <xrcrcv/uapi.h>
#include <xrcrcv/wire.hpp>

#include <cstdint>
#include <optional>
#include <span>

namespace xrcrcv {

// A QP handle from CREATE_QP or OPEN_QP, with the QP's number.
struct QpHandle {
  std::uint32_t handle = 0;
  std::uint32_t qp_num = 0;
};

// REG's "create a new receive QP": no number (the method is sent without
// UVERBS_ATTR_REG_RCV_QP_NUM).  Any number, 0xffffffff included, is a
// number to register.  (libibverbs keeps IBV_XRC_RCV_QPN_NEW at its level.)
inline constexpr std::nullopt_t kNewRcvQp = std::nullopt;

namespace cmd {

// --- the four XRC receive-QP methods (ioctl) ----------------------------
// `t` is Transport::ioctl; Transport::verbs is refused with EOPNOTSUPP
// (libibverbs names an XRCD by its ibv_xrcd: see ibverbs.hpp).
// REG: qp_num == kNewRcvQp creates; returns the QP number (EPROTO if the
// kernel "succeeded" without answering one).
[[nodiscard]] Result<std::uint32_t> reg_xrc_rcv_qp(ContextRef ctx, std::uint32_t xrcd_handle,
                                                   std::optional<std::uint32_t> qp_num,
                                                   Transport t = Transport::ioctl);
[[nodiscard]] Status unreg_xrc_rcv_qp(ContextRef ctx, std::uint32_t xrcd_handle,
                                      std::uint32_t qp_num, Transport t = Transport::ioctl);
[[nodiscard]] Status modify_xrc_rcv_qp(ContextRef ctx, std::uint32_t xrcd_handle,
                                       std::uint32_t qp_num, const QpAttr& attr,
                                       QpAttrMask mask, Transport t = Transport::ioctl);
[[nodiscard]] Result<QpAttr> query_xrc_rcv_qp(ContextRef ctx, std::uint32_t xrcd_handle,
                                              std::uint32_t qp_num,
                                              QpAttrMask mask = QpAttrMask::AllStandard,
                                              Transport t = Transport::ioctl);

// --- existing commands (write) ----------------------------------------
// OPEN_XRCD with `fd` (-1: no inode) and oflags (O_CREAT, O_EXCL).
[[nodiscard]] Result<std::uint32_t> open_xrcd(ContextRef ctx, int fd, std::uint32_t oflags);
[[nodiscard]] Status close_xrcd(ContextRef ctx, std::uint32_t xrcd_handle);
// OPEN_QP of an XRC TGT QP: pd_handle carries the XRCD handle.
[[nodiscard]] Result<QpHandle> open_qp(ContextRef ctx, std::uint32_t xrcd_handle,
                                       std::uint32_t qp_num, std::uint64_t user_handle = 0);
// CREATE_QP(XRC_TGT): pd_handle = XRCD handle, qp_type 10, no CQs/SRQ.
[[nodiscard]] Result<QpHandle> create_qp_xrc_tgt(ContextRef ctx, std::uint32_t xrcd_handle,
                                                 std::uint64_t user_handle = 0);
// DESTROY_QP; returns events_reported.
[[nodiscard]] Result<std::uint32_t> destroy_qp(ContextRef ctx, std::uint32_t qp_handle);
[[nodiscard]] Result<QpAttr> query_qp(ContextRef ctx, std::uint32_t qp_handle,
                                      QpAttrMask mask = QpAttrMask::AllStandard);
[[nodiscard]] Status modify_qp(ContextRef ctx, std::uint32_t qp_handle, const QpAttr& attr,
                               QpAttrMask mask);

}  // namespace cmd

// Raw access for bad-input tests: nothing is checked or fixed up.
namespace raw {

// write(2) `bytes` on the command fd as they are.  Success means write()
// returned the full count; errors carry the command number read from the
// first 4 bytes (if there are that many).  (For the write commands the
// kernel no longer has, e.g. 41-44 of series v3, and malformed headers.)
[[nodiscard]] Status write_bytes(ContextRef ctx, std::span<const std::byte> bytes);

// Header with consistent in_words for body+trailing, the given out_words.
[[nodiscard]] Status send(ContextRef ctx, std::uint32_t command, std::span<const std::byte> body,
                          std::uint16_t out_words, std::span<const std::byte> trailing = {});

template <class T>
[[nodiscard]] Status send_struct(ContextRef ctx, std::uint32_t command, const T& body, std::uint16_t out_words,
                   std::span<const std::byte> trailing = {}) {
  return send(ctx, command, wire::as_bytes(body), out_words, trailing);
}

// --- ioctl ------------------------------------------------------------
// RDMA_VERBS_IOCTL of `object_id`/`method_id` with these attributes
// (wire::ioctl_attr::* makes them), header made consistent (length,
// num_attrs).  Errors carry `command` (ioctl_method_command() of the
// method, e.g. kCmdRegXrcRcvQp, or kNotACommand) and Transport::ioctl.
// The attributes are copied; the kernel's output flags are not reported
// back.
[[nodiscard]] Status ioctl(ContextRef ctx, std::uint16_t object_id, std::uint16_t method_id,
                           std::span<const ib_uverbs_attr> attrs,
                           std::uint32_t command = kNotACommand, std::uint32_t driver_id = 0);
// RDMA_VERBS_IOCTL of a caller-made buffer (header + attributes), as is.
[[nodiscard]] Status ioctl_buffer(ContextRef ctx, std::span<std::uint64_t> buffer,
                                  std::uint32_t command = kNotACommand);
// One of the four XRCD methods with caller-made attributes (garbage,
// missing, unknown or extra ones allowed: wire::without_attr/with_attr).
[[nodiscard]] Status xrcd_method(ContextRef ctx, std::uint16_t method_id,
                                 std::span<const ib_uverbs_attr> attrs);
// REG with the raw answer: `*resp_num` as the kernel left it (prefill it
// to see whether it wrote).  qp_num == kNewRcvQp sends no NUM attribute.
[[nodiscard]] Status ioctl_reg_xrc_rcv_qp(ContextRef ctx, std::uint32_t xrcd_handle,
                                          std::optional<std::uint32_t> qp_num,
                                          std::uint32_t* resp_num);
// MODIFY_RCV_QP with a caller-made ib_uverbs_modify_qp (garbage allowed:
// a non-zero qp_handle or reserved[]).
[[nodiscard]] Status ioctl_modify_xrc_rcv_qp(ContextRef ctx, std::uint32_t xrcd_handle,
                                             std::uint32_t qp_num, const ib_uverbs_modify_qp& m);

}  // namespace raw
}  // namespace xrcrcv
