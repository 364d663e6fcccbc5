#include <xrcrcv/commands.hpp>

#include "detail.hpp"

#include <cerrno>
#include <unistd.h>

namespace xrcrcv {
namespace detail {

Status execute(ContextRef ctx, std::uint32_t command, std::span<const std::byte> body,
               std::size_t resp_bytes, std::span<const std::byte> trailing) {
  const auto buf = wire::encode(command, body, resp_bytes, trailing);
  const ssize_t n = ::write(ctx.cmd_fd, buf.data(), buf.size());
  if (n < 0) return std::unexpected(command_error(command, errno));
  if (static_cast<std::size_t>(n) != buf.size())
    return std::unexpected(command_error(command, EIO));  // never seen from uverbs
  return {};
}

}  // namespace detail

namespace {
// The raw commands have no ibv_xrcd to hand libibverbs: Transport::verbs
// goes through xrcrcv::ibverbs (ibverbs.hpp), never silently over ioctl.
constexpr int kVerbsNeedAnIbvXrcd = EOPNOTSUPP;
// No QP has this number (>= 2^24): REG's answer before the kernel's.
constexpr std::uint32_t kNoAnswer = 0xffffffffU;
}  // namespace

namespace cmd {

Result<std::uint32_t> reg_xrc_rcv_qp(ContextRef ctx, std::uint32_t xrcd_handle,
                                     std::optional<std::uint32_t> qp_num, Transport t) {
  constexpr auto kCmd = kCmdRegXrcRcvQp;
  if (t == Transport::verbs) return std::unexpected(ioctl_error(kCmd, kVerbsNeedAnIbvXrcd));
  // A REG of a number answers that number; a create must overwrite the
  // prefilled number no QP has, or it is caught below.
  std::uint32_t answer = qp_num.value_or(kNoAnswer);
  if (auto st = raw::ioctl_reg_xrc_rcv_qp(ctx, xrcd_handle, qp_num, &answer); !st)
    return std::unexpected(st.error());
  if (!qp_num && answer == kNoAnswer) return std::unexpected(ioctl_error(kCmd, EPROTO));
  return answer;
}

Status unreg_xrc_rcv_qp(ContextRef ctx, std::uint32_t xrcd_handle, std::uint32_t qp_num,
                        Transport t) {
  constexpr auto kCmd = kCmdUnregXrcRcvQp;
  if (t == Transport::verbs) return std::unexpected(ioctl_error(kCmd, kVerbsNeedAnIbvXrcd));
  return detail::execute_ioctl(ctx, UVERBS_OBJECT_XRCD, UVERBS_METHOD_XRCD_UNREG_RCV_QP,
                               wire::unreg_rcv_qp_attrs(xrcd_handle, qp_num), kCmd);
}

Status modify_xrc_rcv_qp(ContextRef ctx, std::uint32_t xrcd_handle, std::uint32_t qp_num,
                         const QpAttr& attr, QpAttrMask mask, Transport t) {
  if (t == Transport::verbs)
    return std::unexpected(ioctl_error(kCmdModifyXrcRcvQp, kVerbsNeedAnIbvXrcd));
  // The attribute is MODIFY_QP's own struct; its qp_handle is unused (0).
  const auto m = encode_modify_qp(0, attr, mask);
  return raw::ioctl_modify_xrc_rcv_qp(ctx, xrcd_handle, qp_num, m);
}

Result<QpAttr> query_xrc_rcv_qp(ContextRef ctx, std::uint32_t xrcd_handle, std::uint32_t qp_num,
                                QpAttrMask mask, Transport t) {
  constexpr auto kCmd = kCmdQueryXrcRcvQp;
  if (t == Transport::verbs) return std::unexpected(ioctl_error(kCmd, kVerbsNeedAnIbvXrcd));
  ib_uverbs_query_qp_resp resp{};
  const auto attrs = wire::query_rcv_qp_attrs(xrcd_handle, qp_num, to_bits(mask), &resp);
  if (auto st = detail::execute_ioctl(ctx, UVERBS_OBJECT_XRCD, UVERBS_METHOD_XRCD_QUERY_RCV_QP,
                                      attrs, kCmd);
      !st)
    return std::unexpected(st.error());
  return decode_query_resp(resp);
}

Result<std::uint32_t> open_xrcd(ContextRef ctx, int fd, std::uint32_t oflags) {
  ib_uverbs_open_xrcd_resp resp{};
  ib_uverbs_open_xrcd c{};
  c.response = wire::user_ptr(&resp);
  c.fd = static_cast<__u32>(fd);
  c.oflags = oflags;
  if (auto st = detail::execute(ctx, IB_USER_VERBS_CMD_OPEN_XRCD, wire::as_bytes(c), sizeof resp);
      !st)
    return std::unexpected(st.error());
  return resp.xrcd_handle;
}

Status close_xrcd(ContextRef ctx, std::uint32_t xrcd_handle) {
  ib_uverbs_close_xrcd c{};
  c.xrcd_handle = xrcd_handle;
  return detail::execute(ctx, IB_USER_VERBS_CMD_CLOSE_XRCD, wire::as_bytes(c), 0);
}

Result<QpHandle> open_qp(ContextRef ctx, std::uint32_t xrcd_handle, std::uint32_t qp_num,
                         std::uint64_t user_handle) {
  ib_uverbs_create_qp_resp resp{};
  ib_uverbs_open_qp c{};
  c.response = wire::user_ptr(&resp);
  c.user_handle = user_handle;
  c.pd_handle = xrcd_handle;
  c.qpn = qp_num;
  c.qp_type = kQptXrcTgt;
  if (auto st = detail::execute(ctx, IB_USER_VERBS_CMD_OPEN_QP, wire::as_bytes(c), sizeof resp);
      !st)
    return std::unexpected(st.error());
  return QpHandle{resp.qp_handle, resp.qpn};
}

Result<QpHandle> create_qp_xrc_tgt(ContextRef ctx, std::uint32_t xrcd_handle,
                                   std::uint64_t user_handle) {
  ib_uverbs_create_qp_resp resp{};
  ib_uverbs_create_qp c{};
  c.response = wire::user_ptr(&resp);
  c.user_handle = user_handle;
  c.pd_handle = xrcd_handle;  // XRC TGT: the XRCD travels in pd_handle
  c.qp_type = kQptXrcTgt;     // no CQs, no SRQ, no queue sizes
  if (auto st = detail::execute(ctx, IB_USER_VERBS_CMD_CREATE_QP, wire::as_bytes(c), sizeof resp);
      !st)
    return std::unexpected(st.error());
  return QpHandle{resp.qp_handle, resp.qpn};
}

Result<std::uint32_t> destroy_qp(ContextRef ctx, std::uint32_t qp_handle) {
  ib_uverbs_destroy_qp_resp resp{};
  ib_uverbs_destroy_qp c{};
  c.response = wire::user_ptr(&resp);
  c.qp_handle = qp_handle;
  if (auto st = detail::execute(ctx, IB_USER_VERBS_CMD_DESTROY_QP, wire::as_bytes(c), sizeof resp);
      !st)
    return std::unexpected(st.error());
  return resp.events_reported;
}

Result<QpAttr> query_qp(ContextRef ctx, std::uint32_t qp_handle, QpAttrMask mask) {
  ib_uverbs_query_qp_resp resp{};
  ib_uverbs_query_qp c{};
  c.response = wire::user_ptr(&resp);
  c.qp_handle = qp_handle;
  c.attr_mask = to_bits(mask);
  if (auto st = detail::execute(ctx, IB_USER_VERBS_CMD_QUERY_QP, wire::as_bytes(c), sizeof resp);
      !st)
    return std::unexpected(st.error());
  return decode_query_resp(resp);
}

Status modify_qp(ContextRef ctx, std::uint32_t qp_handle, const QpAttr& attr, QpAttrMask mask) {
  const auto c = encode_modify_qp(qp_handle, attr, mask);
  return detail::execute(ctx, IB_USER_VERBS_CMD_MODIFY_QP, wire::as_bytes(c), 0);
}

}  // namespace cmd

namespace raw {

Status write_bytes(ContextRef ctx, std::span<const std::byte> bytes) {
  std::uint32_t command = kNotACommand;
  if (bytes.size() >= sizeof command) std::memcpy(&command, bytes.data(), sizeof command);
  const ssize_t n = ::write(ctx.cmd_fd, bytes.data(), bytes.size());
  if (n < 0) return std::unexpected(command_error(command, errno));
  if (static_cast<std::size_t>(n) != bytes.size())
    return std::unexpected(command_error(command, EIO));
  return {};
}

Status send(ContextRef ctx, std::uint32_t command, std::span<const std::byte> body,
            std::uint16_t out_words, std::span<const std::byte> trailing) {
  return detail::execute(ctx, command, body, std::size_t{out_words} * 4, trailing);
}

}  // namespace raw
}  // namespace xrcrcv
