// The libibverbs adapter's objects over the real device: an Xrcd holds a
// share of its Context, so dropping the Context first neither frees the
// ibv_context under the Xrcd (libibverbs frees it in ibv_close_device())
// nor closes the file while the XRCD is open.  /verbs only.
#include "verbs_peer.hpp"

#ifdef XRC_E2E_VERBS
#include <xrcrcv/ibverbs.hpp>

namespace xrc_e2e {
namespace {

class VerbsLifetime : public TransportTest {
 protected:
  static std::string device_name() { return verbs_peer::device_name(); }
};

TEST_P(VerbsLifetime, AnXrcdKeepsTheDeviceOpenAfterItsContextIsClosed) {
  REQUIRE_COUNTERS();
  const long xrcds = live_xrcds();
  const long qps = live_qps();
  auto ctx = MUST(ibverbs::Context::open(device_name()));
  auto x = MUST(ibverbs::Xrcd::open(ctx, xrcd_file_));
  EXPECT_EQ(ctx.close(), 0);  // the Xrcd still holds the device
  EXPECT_FALSE(ctx.is_open());
  EXPECT_EQ(live_xrcds(), xrcds + 1);

  const auto qpn = MUST(ibverbs::reg_xrc_rcv_qp(*x.get(), IBV_XRC_RCV_QPN_NEW));
  EXPECT_EQ(live_qps(), qps + 1);
  ASSERT_OK(ibverbs::unreg_xrc_rcv_qp(*x.get(), qpn));
  ASSERT_OK(x.close());  // and, as the last share, closes the device
  EXPECT_EQ(live_xrcds(), xrcds);
  EXPECT_EQ(wait_live_qps(qps), qps);
}

TEST_P(VerbsLifetime, AnXrcdDestroyedAfterItsContextClosesTheFileWithItsReferences) {
  REQUIRE_COUNTERS();
  const long xrcds = live_xrcds();
  const long qps = live_qps();
  {
    auto ctx = MUST(ibverbs::Context::open(device_name()));
    auto x = MUST(ibverbs::Xrcd::open(ctx, xrcd_file_));
    (void)MUST(ibverbs::reg_xrc_rcv_qp(*x.get(), IBV_XRC_RCV_QPN_NEW));
    EXPECT_EQ(ctx.close(), 0);
    // x goes here: its ibv_close_xrcd() fails with EBUSY (the reference),
    // then the last share of the context closes the file, which drops it.
  }
  EXPECT_EQ(wait_live_qps(qps), qps);
  EXPECT_EQ(live_xrcds(), xrcds);
}

TEST_P(VerbsLifetime, OpeningAnXrcdOnAClosedContextFailsEbadf) {
  auto ctx = MUST(ibverbs::Context::open(device_name()));
  ASSERT_EQ(ctx.close(), 0);
  EXPECT_ERRNO(ibverbs::Xrcd::open(ctx, xrcd_file_), EBADF);
}

INSTANTIATE_TEST_SUITE_P(, VerbsLifetime, ::testing::Values(Transport::verbs), TransportName());

}  // namespace
}  // namespace xrc_e2e
#endif
