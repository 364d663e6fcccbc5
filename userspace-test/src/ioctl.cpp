// The ioctl transport: RDMA_VERBS_IOCTL with struct ib_uverbs_ioctl_hdr
// and struct ib_uverbs_attr[], exactly as rdma-core's execute_ioctl().
#include <xrcrcv/commands.hpp>

#include "detail.hpp"

#include <cerrno>
#include <sys/ioctl.h>

namespace xrcrcv {
namespace detail {

namespace {
Status do_ioctl(ContextRef ctx, std::span<std::uint64_t> buf, std::uint32_t command) {
  if (::ioctl(ctx.cmd_fd, RDMA_VERBS_IOCTL, buf.data()) != 0)
    return std::unexpected(ioctl_error(command, errno));
  return {};
}
}  // namespace

Status execute_ioctl(ContextRef ctx, std::uint16_t object_id, std::uint16_t method_id,
                     std::span<const ib_uverbs_attr> attrs, std::uint32_t command,
                     std::uint32_t driver_id) {
  auto buf = wire::encode_ioctl(object_id, method_id, attrs, driver_id);
  return do_ioctl(ctx, buf, command);
}

Status execute_ioctl_buffer(ContextRef ctx, std::span<std::uint64_t> buf, std::uint32_t command) {
  return do_ioctl(ctx, buf, command);
}

}  // namespace detail

namespace raw {

Status ioctl(ContextRef ctx, std::uint16_t object_id, std::uint16_t method_id,
             std::span<const ib_uverbs_attr> attrs, std::uint32_t command,
             std::uint32_t driver_id) {
  return detail::execute_ioctl(ctx, object_id, method_id, attrs, command, driver_id);
}

Status ioctl_buffer(ContextRef ctx, std::span<std::uint64_t> buffer, std::uint32_t command) {
  return detail::execute_ioctl_buffer(ctx, buffer, command);
}

Status xrcd_method(ContextRef ctx, std::uint16_t method_id, std::span<const ib_uverbs_attr> attrs) {
  return detail::execute_ioctl(ctx, UVERBS_OBJECT_XRCD, method_id, attrs,
                               ioctl_method_command(UVERBS_OBJECT_XRCD, method_id));
}

Status ioctl_reg_xrc_rcv_qp(ContextRef ctx, std::uint32_t xrcd_handle,
                            std::optional<std::uint32_t> qp_num, std::uint32_t* resp_num) {
  return xrcd_method(ctx, UVERBS_METHOD_XRCD_REG_RCV_QP,
                     wire::reg_rcv_qp_attrs(xrcd_handle, qp_num, resp_num));
}

Status ioctl_modify_xrc_rcv_qp(ContextRef ctx, std::uint32_t xrcd_handle, std::uint32_t qp_num,
                               const ib_uverbs_modify_qp& m) {
  return xrcd_method(ctx, UVERBS_METHOD_XRCD_MODIFY_RCV_QP,
                     wire::modify_rcv_qp_attrs(xrcd_handle, qp_num, &m));
}

}  // namespace raw
}  // namespace xrcrcv
