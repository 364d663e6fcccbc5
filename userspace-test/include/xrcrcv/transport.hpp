// How a command reaches the kernel: the legacy write() commands 41-44
// (struct ib_uverbs_cmd_hdr + command struct) or the ioctl methods on
// UVERBS_OBJECT_XRCD (RDMA_VERBS_IOCTL, struct ib_uverbs_ioctl_hdr +
// struct ib_uverbs_attr[]).  Same semantics and the same references: a
// reference taken through one is dropped through the other.
#pragma once

#include <cstdint>
#include <string_view>

namespace xrcrcv {

enum class Transport : std::uint8_t { write, ioctl };

[[nodiscard]] constexpr std::string_view to_string(Transport t) {
  return t == Transport::ioctl ? "ioctl" : "write";
}

// The other one (for cross-transport use).
[[nodiscard]] constexpr Transport other(Transport t) {
  return t == Transport::ioctl ? Transport::write : Transport::ioctl;
}

}  // namespace xrcrcv
