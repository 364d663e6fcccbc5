// One function per uverbs command used here.  Each builds the exact wire
// struct, writes it on the command fd and decodes the response.  The four
// XRC receive-QP verbs go over either transport (transport.hpp): write()
// of commands 41-44, or RDMA_VERBS_IOCTL with the XRCD methods 1-4.
#pragma once

#include <xrcrcv/context.hpp>
#include <xrcrcv/error.hpp>
#include <xrcrcv/qp_attr.hpp>
#include <xrcrcv/transport.hpp>
#include <xrcrcv/uapi.h>
#include <xrcrcv/wire.hpp>

#include <cstdint>
#include <span>

namespace xrcrcv {

// A QP handle from CREATE_QP or OPEN_QP, with the QP's number.
struct QpHandle {
  std::uint32_t handle = 0;
  std::uint32_t qp_num = 0;
};

namespace cmd {

// --- the four XRC receive-QP commands ---------------------------------
// REG: qp_num == IB_UVERBS_XRC_RCV_QPN_NEW creates; returns the QP number
// (EPROTO if a create "succeeded" without answering a number).
[[nodiscard]] Result<std::uint32_t> reg_xrc_rcv_qp(ContextRef ctx, std::uint32_t xrcd_handle,
                                                   std::uint32_t qp_num,
                                                   Transport t = Transport::write);
[[nodiscard]] Status unreg_xrc_rcv_qp(ContextRef ctx, std::uint32_t xrcd_handle,
                                      std::uint32_t qp_num, Transport t = Transport::write);
[[nodiscard]] Status modify_xrc_rcv_qp(ContextRef ctx, std::uint32_t xrcd_handle,
                                       std::uint32_t qp_num, const QpAttr& attr,
                                       QpAttrMask mask, Transport t = Transport::write);
[[nodiscard]] Result<QpAttr> query_xrc_rcv_qp(ContextRef ctx, std::uint32_t xrcd_handle,
                                              std::uint32_t qp_num,
                                              QpAttrMask mask = QpAttrMask::AllStandard,
                                              Transport t = Transport::write);

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
// first 4 bytes (if there are that many).
[[nodiscard]] Status write_bytes(ContextRef ctx, std::span<const std::byte> bytes);

// Header with consistent in_words for body+trailing, the given out_words.
[[nodiscard]] Status send(ContextRef ctx, std::uint32_t command, std::span<const std::byte> body,
                          std::uint16_t out_words, std::span<const std::byte> trailing = {});

template <class T>
[[nodiscard]] Status send_struct(ContextRef ctx, std::uint32_t command, const T& body, std::uint16_t out_words,
                   std::span<const std::byte> trailing = {}) {
  return send(ctx, command, wire::as_bytes(body), out_words, trailing);
}

// The four commands with a caller-made struct (garbage allowed) and
// optional trailing bytes; responses land where the struct points.
[[nodiscard]] Status reg_xrc_rcv_qp(ContextRef ctx, const ib_uverbs_reg_xrc_rcv_qp& c,
                                    std::span<const std::byte> trailing = {},
                                    std::uint16_t out_words = sizeof(ib_uverbs_reg_xrc_rcv_qp_resp) / 4);
[[nodiscard]] Status unreg_xrc_rcv_qp(ContextRef ctx, const ib_uverbs_unreg_xrc_rcv_qp& c,
                                      std::span<const std::byte> trailing = {});
[[nodiscard]] Status modify_xrc_rcv_qp(ContextRef ctx, const ib_uverbs_modify_xrc_rcv_qp& c,
                                       std::span<const std::byte> trailing = {});
[[nodiscard]] Status query_xrc_rcv_qp(ContextRef ctx, const ib_uverbs_query_xrc_rcv_qp& c,
                                      std::span<const std::byte> trailing = {},
                                      std::uint16_t out_words = sizeof(ib_uverbs_query_qp_resp) / 4);

// --- ioctl ------------------------------------------------------------
// RDMA_VERBS_IOCTL of `object_id`/`method_id` with these attributes
// (wire::ioctl_attr::* makes them), header made consistent (length,
// num_attrs).  Errors carry `command` (the write command doing the same,
// or kNotACommand) and Transport::ioctl.  The attributes are copied; the
// kernel's output flags are not reported back.
[[nodiscard]] Status ioctl(ContextRef ctx, std::uint16_t object_id, std::uint16_t method_id,
                           std::span<const ib_uverbs_attr> attrs,
                           std::uint32_t command = kNotACommand, std::uint32_t driver_id = 0);
// RDMA_VERBS_IOCTL of a caller-made buffer (header + attributes), as is.
[[nodiscard]] Status ioctl_buffer(ContextRef ctx, std::span<std::uint64_t> buffer,
                                  std::uint32_t command = kNotACommand);
// MODIFY_RCV_QP with a caller-made ib_uverbs_modify_qp (garbage allowed:
// a non-zero qp_handle or reserved[]).
[[nodiscard]] Status ioctl_modify_xrc_rcv_qp(ContextRef ctx, std::uint32_t xrcd_handle,
                                             std::uint32_t qp_num, const ib_uverbs_modify_qp& m);

}  // namespace raw
}  // namespace xrcrcv
