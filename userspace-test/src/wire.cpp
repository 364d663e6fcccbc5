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

ib_uverbs_reg_xrc_rcv_qp make_reg(std::uint32_t xrcd_handle, std::uint32_t qp_num,
                                  ib_uverbs_reg_xrc_rcv_qp_resp* resp) {
  ib_uverbs_reg_xrc_rcv_qp c{};
  c.response = user_ptr(resp);
  c.xrcd_handle = xrcd_handle;
  c.qp_num = qp_num;
  return c;
}

ib_uverbs_unreg_xrc_rcv_qp make_unreg(std::uint32_t xrcd_handle, std::uint32_t qp_num) {
  ib_uverbs_unreg_xrc_rcv_qp c{};
  c.xrcd_handle = xrcd_handle;
  c.qp_num = qp_num;
  return c;
}

ib_uverbs_query_xrc_rcv_qp make_query(std::uint32_t xrcd_handle, std::uint32_t qp_num,
                                      std::uint32_t attr_mask, ib_uverbs_query_qp_resp* resp) {
  ib_uverbs_query_xrc_rcv_qp c{};
  c.response = user_ptr(resp);
  c.xrcd_handle = xrcd_handle;
  c.qp_num = qp_num;
  c.attr_mask = attr_mask;
  return c;
}

}  // namespace xrcrcv::wire
