// Encoding of uverbs write commands (the mainline ones this library
// sends: OPEN_XRCD, CREATE_QP, ...): ib_uverbs_cmd_hdr + struct (+
// trailing bytes), and of ioctl calls: ib_uverbs_ioctl_hdr +
// ib_uverbs_attr[] (the XRCD methods).  Pure functions, no system calls,
// so the host unit tests can check every byte.
#pragma once

#include <xrcrcv/uapi.h>

#include <cstddef>
#include <cstdint>
#include <array>
#include <cstring>
#include <optional>
#include <span>
#include <type_traits>
#include <vector>

namespace xrcrcv::wire {

using Bytes = std::vector<std::byte>;

// Pointer as the kernel wants it in a `response` field.
inline std::uint64_t user_ptr(const void* p) {
  return static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(p));
}

// hdr.in_words = (8 + body bytes) / 4, hdr.out_words = response bytes / 4.
// Sizes that are not multiples of 4 are rounded down, which is exactly the
// kind of malformed header the bad-input tests want to be able to send.
[[nodiscard]] ib_uverbs_cmd_hdr make_hdr(std::uint32_t command, std::size_t body_bytes,
                                         std::size_t resp_bytes);

// Header + body bytes.
[[nodiscard]] Bytes encode(const ib_uverbs_cmd_hdr& hdr, std::span<const std::byte> body);
// Header computed from the sizes + body (+ trailing bytes appended to body).
[[nodiscard]] Bytes encode(std::uint32_t command, std::span<const std::byte> body,
                           std::size_t resp_bytes, std::span<const std::byte> trailing = {});

template <class T>
[[nodiscard]] std::span<const std::byte> as_bytes(const T& v) {
  static_assert(std::is_trivially_copyable_v<T>);
  return {reinterpret_cast<const std::byte*>(&v), sizeof(T)};
}

template <class T>
[[nodiscard]] Bytes encode_struct(std::uint32_t command, const T& cmd, std::size_t resp_bytes,
                                  std::span<const std::byte> trailing = {}) {
  return encode(command, as_bytes(cmd), resp_bytes, trailing);
}

// Reads a header back (for tests and the raw CLI path).
[[nodiscard]] ib_uverbs_cmd_hdr decode_hdr(std::span<const std::byte> buf);

// ------------------------------------------------------------- ioctl
// One attribute each, as rdma-core's fill_attr_*() makes them.  Every
// attribute is sent with UVERBS_ATTR_F_MANDATORY: a kernel that does not
// know it must refuse the call instead of ignoring it.  (The flag says
// "refuse me if unknown", not "the method needs me": REG's optional
// number carries it too.)
namespace ioctl_attr {
// IDR attribute: an object handle in data, len 0.
[[nodiscard]] ib_uverbs_attr idr(std::uint16_t id, std::uint32_t handle);
// PTR_IN of up to 8 bytes travels inline in data.
[[nodiscard]] ib_uverbs_attr in_u32(std::uint16_t id, std::uint32_t value);
// PTR_IN of any size by pointer (the kernel copies > 8 bytes from it).
[[nodiscard]] ib_uverbs_attr in_ptr(std::uint16_t id, const void* p, std::size_t len);
// PTR_OUT: the kernel writes up to len bytes at p.
[[nodiscard]] ib_uverbs_attr out_ptr(std::uint16_t id, void* p, std::size_t len);
// The same attribute without UVERBS_ATTR_F_MANDATORY (a kernel that does
// not know its id ignores it).
[[nodiscard]] ib_uverbs_attr not_mandatory(ib_uverbs_attr a);
}  // namespace ioctl_attr

// Attribute lists for the bad-input cases: `attrs` without the attribute
// of id `id` (all of them, if repeated), or with `extra` appended.
[[nodiscard]] std::vector<ib_uverbs_attr> without_attr(std::span<const ib_uverbs_attr> attrs,
                                                       std::uint16_t id);
[[nodiscard]] std::vector<ib_uverbs_attr> with_attr(std::span<const ib_uverbs_attr> attrs,
                                                    const ib_uverbs_attr& extra);

// Header (length, object, method, num_attrs, driver_id; reserved 0) and
// attributes, in an 8-aligned buffer ready for RDMA_VERBS_IOCTL.
[[nodiscard]] std::vector<std::uint64_t> encode_ioctl(std::uint16_t object_id,
                                                      std::uint16_t method_id,
                                                      std::span<const ib_uverbs_attr> attrs,
                                                      std::uint32_t driver_id = 0);
[[nodiscard]] ib_uverbs_ioctl_hdr decode_ioctl_hdr(std::span<const std::uint64_t> buf);
[[nodiscard]] std::vector<ib_uverbs_attr> decode_ioctl_attrs(std::span<const std::uint64_t> buf);

// The attributes of the four XRCD methods, in attribute id order.
// REG of the QP `qp_num`: XRCD, NUM, RESP_NUM.
[[nodiscard]] std::array<ib_uverbs_attr, 3> reg_rcv_qp_attrs(std::uint32_t xrcd_handle,
                                                            std::uint32_t qp_num,
                                                            std::uint32_t* resp_num);
// REG that creates: XRCD and RESP_NUM, no NUM.
[[nodiscard]] std::array<ib_uverbs_attr, 2> create_rcv_qp_attrs(std::uint32_t xrcd_handle,
                                                               std::uint32_t* resp_num);
// Either, by qp_num (std::nullopt: create).
[[nodiscard]] std::vector<ib_uverbs_attr> reg_rcv_qp_attrs(std::uint32_t xrcd_handle,
                                                          std::optional<std::uint32_t> qp_num,
                                                          std::uint32_t* resp_num);
[[nodiscard]] std::array<ib_uverbs_attr, 2> unreg_rcv_qp_attrs(std::uint32_t xrcd_handle,
                                                              std::uint32_t qp_num);
[[nodiscard]] std::array<ib_uverbs_attr, 3> modify_rcv_qp_attrs(std::uint32_t xrcd_handle,
                                                               std::uint32_t qp_num,
                                                               const ib_uverbs_modify_qp* m);
[[nodiscard]] std::array<ib_uverbs_attr, 4> query_rcv_qp_attrs(std::uint32_t xrcd_handle,
                                                              std::uint32_t qp_num,
                                                              std::uint32_t attr_mask,
                                                              ib_uverbs_query_qp_resp* resp);

}  // namespace xrcrcv::wire
