// Optional adapter: use xrcrcv on a context and XRCD that libibverbs owns.
// Views only; nothing here closes or frees what libibverbs made.
// Target xrcrcv::ibverbs, built when <infiniband/verbs.h> is available.
#pragma once

#include <xrcrcv/context.hpp>
#include <xrcrcv/objects.hpp>

#include <infiniband/verbs.h>

#include <cstdint>

namespace xrcrcv::ibverbs {

// Mirror of rdma-core's struct verbs_xrcd (libibverbs/driver.h, not
// installed by libibverbs-dev): every struct ibv_xrcd from ibv_open_xrcd()
// is the first member of one.
struct VerbsXrcdLayout {
  struct ibv_xrcd xrcd;
  std::uint32_t comp_mask;
  std::uint32_t handle;
};

// {cmd_fd, async_fd} of the ibv_context.
[[nodiscard]] ContextRef context_view(const ibv_context& ctx);
// The kernel handle behind an ibv_xrcd.
[[nodiscard]] std::uint32_t xrcd_handle(const ibv_xrcd& xrcd);
// (context, handle) of an ibv_xrcd, for RcvQpRegistration::create/reg.
[[nodiscard]] XrcdRef xrcd_view(const ibv_xrcd& xrcd);

}  // namespace xrcrcv::ibverbs
