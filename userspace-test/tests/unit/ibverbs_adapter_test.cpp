// The libibverbs adapter reads handles out of libibverbs' own structs
// without owning anything.  No device: the structs are made by hand.
#include <xrcrcv/ibverbs.hpp>

#include <gtest/gtest.h>

#include <unistd.h>

namespace {

using namespace xrcrcv;

TEST(IbverbsAdapter, ContextViewUsesTheCommandAndAsyncDescriptors) {
  ibv_context ctx{};
  ctx.cmd_fd = 11;
  ctx.async_fd = 12;
  const auto ref = ibverbs::context_view(ctx);
  EXPECT_EQ(ref.cmd_fd, 11);
  EXPECT_EQ(ref.async_fd, 12);
}

TEST(IbverbsAdapter, XrcdHandleComesFromTheEnclosingVerbsXrcd) {
  ibv_context ctx{};
  ctx.cmd_fd = 3;
  ibverbs::VerbsXrcdLayout vx{};
  vx.xrcd.context = &ctx;
  vx.comp_mask = 0xffffffff;
  vx.handle = 0x1234;
  EXPECT_EQ(ibverbs::xrcd_handle(vx.xrcd), 0x1234U);
  const XrcdRef ref = ibverbs::xrcd_view(vx.xrcd);
  EXPECT_EQ(ref.handle, 0x1234U);
  EXPECT_EQ(ref.ctx.cmd_fd, 3);
}

TEST(IbverbsAdapter, ViewsDoNotCloseWhatLibibverbsOwns) {
  int p[2];
  ASSERT_EQ(::pipe(p), 0);
  ibv_context ctx{};
  ctx.cmd_fd = p[1];
  ctx.async_fd = p[0];
  {
    ibverbs::VerbsXrcdLayout vx{};
    vx.xrcd.context = &ctx;
    // A registration adopted on the view and released again touches nothing.
    auto r = RcvQpRegistration::adopt(ibverbs::xrcd_view(vx.xrcd), 5);
    r.release();
  }
  EXPECT_EQ(::write(p[1], "x", 1), 1);  // still open
  ::close(p[0]);
  ::close(p[1]);
}

}  // namespace
