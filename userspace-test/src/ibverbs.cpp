#include <xrcrcv/ibverbs.hpp>

#include <cstddef>

namespace xrcrcv::ibverbs {

static_assert(offsetof(VerbsXrcdLayout, xrcd) == 0, "ibv_xrcd must be the first member");
static_assert(offsetof(VerbsXrcdLayout, handle) == sizeof(ibv_xrcd) + 4,
              "verbs_xrcd: {ibv_xrcd, u32 comp_mask, u32 handle}");

// libibverbs owns the file: a bare view, no share.
ContextRef context_view(const ibv_context& ctx) { return {ctx.cmd_fd, ctx.async_fd, nullptr}; }

std::uint32_t xrcd_handle(const ibv_xrcd& xrcd) {
  // container_of(xrcd, struct verbs_xrcd, xrcd)
  const auto* outer = reinterpret_cast<const VerbsXrcdLayout*>(
      reinterpret_cast<const std::byte*>(&xrcd) - offsetof(VerbsXrcdLayout, xrcd));
  return outer->handle;
}

XrcdRef xrcd_view(const ibv_xrcd& xrcd) {
  return {context_view(*xrcd.context), xrcd_handle(xrcd)};
}

}  // namespace xrcrcv::ibverbs
