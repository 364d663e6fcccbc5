// How the four XRC receive-QP verbs reach the kernel: the ioctl methods on
// UVERBS_OBJECT_XRCD (RDMA_VERBS_IOCTL, struct ib_uverbs_ioctl_hdr +
// struct ib_uverbs_attr[]), sent by this library, or the patched
// libibverbs' verbs (ibv_reg_xrc_rcv_qp() ... on an ibv_xrcd), which send
// the same methods.  Same semantics and the same references: a reference
// taken through one is dropped through the other.  (Series v3 also had
// write commands 41-44 for them; v4 removed them, so there is no write
// transport: the mainline commands this library still sends by write(2),
// OPEN_XRCD, CREATE_QP ..., are not a choice.)
//
// The raw commands (commands.hpp) speak ioctl; verbs needs an ibv_xrcd,
// so it lives in the optional adapter (ibverbs.hpp), and cmd:: refuses it.
#pragma once

#include <cstdint>
#include <string_view>

namespace xrcrcv {

enum class Transport : std::uint8_t { ioctl, verbs };

[[nodiscard]] constexpr std::string_view to_string(Transport t) {
  switch (t) {
    case Transport::ioctl: return "ioctl";
    case Transport::verbs: return "verbs";
  }
  return "?";
}

}  // namespace xrcrcv
