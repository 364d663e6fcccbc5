#include <xrcrcv/wire.hpp>

#include <algorithm>

namespace xrcrcv::wire {

ib_uverbs_cmd_hdr make_hdr(std::uint32_t command, std::size_t body_bytes,
                           std::size_t resp_bytes) {
  ib_uverbs_cmd_hdr h{};
  h.command = command;
  h.in_words = static_cast<__u16>((sizeof(ib_uverbs_cmd_hdr) + body_bytes) / 4);
  h.out_words = static_cast<__u16>(resp_bytes / 4);
  return h;
}

Bytes encode(const ib_uverbs_cmd_hdr& hdr, std::span<const std::byte> body) {
  Bytes out(sizeof hdr + body.size());
  std::memcpy(out.data(), &hdr, sizeof hdr);
  std::ranges::copy(body, out.begin() + sizeof hdr);
  return out;
}

Bytes encode(std::uint32_t command, std::span<const std::byte> body, std::size_t resp_bytes,
             std::span<const std::byte> trailing) {
  Bytes payload(body.begin(), body.end());
  payload.insert(payload.end(), trailing.begin(), trailing.end());
  return encode(make_hdr(command, payload.size(), resp_bytes), payload);
}

ib_uverbs_cmd_hdr decode_hdr(std::span<const std::byte> buf) {
  ib_uverbs_cmd_hdr h{};
  std::memcpy(&h, buf.data(), std::min(buf.size(), sizeof h));
  return h;
}

// ------------------------------------------------------------- ioctl
namespace ioctl_attr {

ib_uverbs_attr idr(std::uint16_t id, std::uint32_t handle) {
  ib_uverbs_attr a{};
  a.attr_id = id;
  a.flags = UVERBS_ATTR_F_MANDATORY;
  a.data = handle;
  return a;
}

ib_uverbs_attr in_u32(std::uint16_t id, std::uint32_t value) {
  ib_uverbs_attr a{};
  a.attr_id = id;
  a.len = sizeof value;
  a.flags = UVERBS_ATTR_F_MANDATORY;
  std::memcpy(&a.data, &value, sizeof value);  // inline, as rdma-core does
  return a;
}

ib_uverbs_attr in_ptr(std::uint16_t id, const void* p, std::size_t len) {
  ib_uverbs_attr a{};
  a.attr_id = id;
  a.len = static_cast<__u16>(len);
  a.flags = UVERBS_ATTR_F_MANDATORY;
  if (len <= sizeof a.data)
    std::memcpy(&a.data, p, len);
  else
    a.data = user_ptr(p);
  return a;
}

ib_uverbs_attr out_ptr(std::uint16_t id, void* p, std::size_t len) {
  ib_uverbs_attr a{};
  a.attr_id = id;
  a.len = static_cast<__u16>(len);
  a.flags = UVERBS_ATTR_F_MANDATORY;
  a.data = user_ptr(p);
  return a;
}

ib_uverbs_attr not_mandatory(ib_uverbs_attr a) {
  a.flags = static_cast<__u16>(a.flags & ~UVERBS_ATTR_F_MANDATORY);
  return a;
}

}  // namespace ioctl_attr

std::vector<ib_uverbs_attr> without_attr(std::span<const ib_uverbs_attr> attrs,
                                         std::uint16_t id) {
  std::vector<ib_uverbs_attr> out;
  for (const auto& a : attrs)
    if (a.attr_id != id) out.push_back(a);
  return out;
}

std::vector<ib_uverbs_attr> with_attr(std::span<const ib_uverbs_attr> attrs,
                                      const ib_uverbs_attr& extra) {
  std::vector<ib_uverbs_attr> out(attrs.begin(), attrs.end());
  out.push_back(extra);
  return out;
}

std::vector<std::uint64_t> encode_ioctl(std::uint16_t object_id, std::uint16_t method_id,
                                        std::span<const ib_uverbs_attr> attrs,
                                        std::uint32_t driver_id) {
  const std::size_t bytes = sizeof(ib_uverbs_ioctl_hdr) + attrs.size_bytes();
  std::vector<std::uint64_t> buf((bytes + 7) / 8, 0);
  ib_uverbs_ioctl_hdr h{};
  h.length = static_cast<__u16>(bytes);
  h.object_id = object_id;
  h.method_id = method_id;
  h.num_attrs = static_cast<__u16>(attrs.size());
  h.driver_id = driver_id;
  auto* out = reinterpret_cast<std::byte*>(buf.data());
  std::memcpy(out, &h, sizeof h);
  if (!attrs.empty()) std::memcpy(out + sizeof h, attrs.data(), attrs.size_bytes());
  return buf;
}

ib_uverbs_ioctl_hdr decode_ioctl_hdr(std::span<const std::uint64_t> buf) {
  ib_uverbs_ioctl_hdr h{};
  std::memcpy(&h, buf.data(), std::min(buf.size_bytes(), sizeof h));
  return h;
}

std::vector<ib_uverbs_attr> decode_ioctl_attrs(std::span<const std::uint64_t> buf) {
  const auto h = decode_ioctl_hdr(buf);
  const std::size_t room = buf.size_bytes() > sizeof h ? buf.size_bytes() - sizeof h : 0;
  const std::size_t n = std::min<std::size_t>(h.num_attrs, room / sizeof(ib_uverbs_attr));
  std::vector<ib_uverbs_attr> out(n);
  if (n) std::memcpy(out.data(), reinterpret_cast<const std::byte*>(buf.data()) + sizeof h,
                     n * sizeof(ib_uverbs_attr));
  return out;
}

std::array<ib_uverbs_attr, 3> reg_rcv_qp_attrs(std::uint32_t xrcd_handle, std::uint32_t qp_num,
                                              std::uint32_t* resp_num) {
  return {ioctl_attr::idr(UVERBS_ATTR_REG_RCV_QP_XRCD_HANDLE, xrcd_handle),
          ioctl_attr::in_u32(UVERBS_ATTR_REG_RCV_QP_NUM, qp_num),
          ioctl_attr::out_ptr(UVERBS_ATTR_REG_RCV_QP_RESP_NUM, resp_num, sizeof *resp_num)};
}

std::array<ib_uverbs_attr, 2> create_rcv_qp_attrs(std::uint32_t xrcd_handle,
                                                 std::uint32_t* resp_num) {
  return {ioctl_attr::idr(UVERBS_ATTR_REG_RCV_QP_XRCD_HANDLE, xrcd_handle),
          ioctl_attr::out_ptr(UVERBS_ATTR_REG_RCV_QP_RESP_NUM, resp_num, sizeof *resp_num)};
}

std::vector<ib_uverbs_attr> reg_rcv_qp_attrs(std::uint32_t xrcd_handle,
                                            std::optional<std::uint32_t> qp_num,
                                            std::uint32_t* resp_num) {
  if (!qp_num) {
    const auto a = create_rcv_qp_attrs(xrcd_handle, resp_num);
    return {a.begin(), a.end()};
  }
  const auto a = reg_rcv_qp_attrs(xrcd_handle, *qp_num, resp_num);
  return {a.begin(), a.end()};
}

std::array<ib_uverbs_attr, 2> unreg_rcv_qp_attrs(std::uint32_t xrcd_handle,
                                                std::uint32_t qp_num) {
  return {ioctl_attr::idr(UVERBS_ATTR_UNREG_RCV_QP_XRCD_HANDLE, xrcd_handle),
          ioctl_attr::in_u32(UVERBS_ATTR_UNREG_RCV_QP_NUM, qp_num)};
}

std::array<ib_uverbs_attr, 3> modify_rcv_qp_attrs(std::uint32_t xrcd_handle,
                                                 std::uint32_t qp_num,
                                                 const ib_uverbs_modify_qp* m) {
  return {ioctl_attr::idr(UVERBS_ATTR_MODIFY_RCV_QP_XRCD_HANDLE, xrcd_handle),
          ioctl_attr::in_u32(UVERBS_ATTR_MODIFY_RCV_QP_NUM, qp_num),
          ioctl_attr::in_ptr(UVERBS_ATTR_MODIFY_RCV_QP_ATTR, m, sizeof *m)};
}

std::array<ib_uverbs_attr, 4> query_rcv_qp_attrs(std::uint32_t xrcd_handle, std::uint32_t qp_num,
                                                std::uint32_t attr_mask,
                                                ib_uverbs_query_qp_resp* resp) {
  return {ioctl_attr::idr(UVERBS_ATTR_QUERY_RCV_QP_XRCD_HANDLE, xrcd_handle),
          ioctl_attr::in_u32(UVERBS_ATTR_QUERY_RCV_QP_NUM, qp_num),
          ioctl_attr::in_u32(UVERBS_ATTR_QUERY_RCV_QP_ATTR_MASK, attr_mask),
          ioctl_attr::out_ptr(UVERBS_ATTR_QUERY_RCV_QP_RESP, resp, sizeof *resp)};
}

}  // namespace xrcrcv::wire
