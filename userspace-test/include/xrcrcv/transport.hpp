// How a command reaches the kernel: the legacy write() commands 41-44
// (struct ib_uverbs_cmd_hdr + command struct), the ioctl methods on
// UVERBS_OBJECT_XRCD (RDMA_VERBS_IOCTL, struct ib_uverbs_ioctl_hdr +
// struct ib_uverbs_attr[]), or the patched libibverbs' verbs
// (ibv_reg_xrc_rcv_qp() ... on an ibv_xrcd; ioctl first, write as its
// fallback).  Same semantics and the same references: a reference taken
// through one is dropped through another.
//
// The raw commands (commands.hpp) speak write and ioctl; verbs needs an
// ibv_xrcd, so it lives in the optional adapter (ibverbs.hpp), and cmd::
// refuses it.
#pragma once

#include <cstdint>
#include <string_view>

namespace xrcrcv {

enum class Transport : std::uint8_t { write, ioctl, verbs };

[[nodiscard]] constexpr std::string_view to_string(Transport t) {
  switch (t) {
    case Transport::write: return "write";
    case Transport::ioctl: return "ioctl";
    case Transport::verbs: return "verbs";
  }
  return "?";
}

// The other raw one (for cross-transport use); defined for write and
// ioctl only, the transports that can name a handle by number.
[[nodiscard]] constexpr Transport other(Transport t) {
  return t == Transport::ioctl ? Transport::write : Transport::ioctl;
}

}  // namespace xrcrcv
