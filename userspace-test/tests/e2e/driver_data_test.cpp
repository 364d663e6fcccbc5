// The contract: no driver data reaches the driver through the four
// methods, and MODIFY still hands the driver a udata, an empty one
// (inlen = outlen = 0, never NULL: a NULL udata sends mlx4 down its
// kernel-QP path), exactly what MODIFY_QP gives it for an XRC TGT QP.
// xrc_sim records what its modify_qp last got (debugfs modify_qp_udata).
#include "support.hpp"

namespace xrc_e2e {
namespace {

class DriverData : public TransportTest {
 protected:
  void SetUp() override {
    TransportTest::SetUp();
    if (IsSkipped()) return;
    if (!sim().has_modify_udata())
      GTEST_SKIP() << "xrc_sim modify_qp_udata not found in " << sim().dir();
    ASSERT_OK(sim().clear_modify_udata());
  }
  static void expect_empty_udata(long calls) {
    auto u = sim().modify_udata();
    ASSERT_OK(u);
    EXPECT_EQ(u->calls, calls);
    EXPECT_FALSE(u->null) << "modify_qp got a NULL udata (the kernel-QP path)";
    EXPECT_EQ(u->inlen, 0) << "driver data reached the driver";
    EXPECT_EQ(u->outlen, 0);
  }
};

TEST_P(DriverData, ModifyHandsTheDriverAnEmptyNonNullUdata) {
  auto a = open();
  auto qpn = MUST(a.create());
  ASSERT_OK(a.modify(qpn, xrc_tgt_to_init()));
  expect_empty_udata(1);
}

TEST_P(DriverData, ZeroTrailingDriverDataDoesNotReachTheDriver) {
  auto a = open();
  auto qpn = MUST(a.create());
  const auto m = xrc_tgt_to_init();
  // The methods declare no driver attribute (UVERBS_ATTR_UHW): an
  // unknown, non-mandatory attribute is ignored by the framework.
  ib_uverbs_modify_qp body = encode_modify_qp(0, m.attr, m.mask);
  const std::array<std::uint64_t, 2> zeros{};
  const auto uhw = wire::ioctl_attr::not_mandatory(
      wire::ioctl_attr::in_ptr(UVERBS_ATTR_UHW_IN, zeros.data(), sizeof zeros));
  const auto r = raw::xrcd_method(a.ctx, UVERBS_METHOD_XRCD_MODIFY_RCV_QP,
                                  wire::with_attr(wire::modify_rcv_qp_attrs(a.h(), qpn, &body), uhw));
  if (!r) {
    // Refusing it is fine too: it must not reach the driver either way.
    EXPECT_EQ(r.error().errnum, EINVAL) << r.error().message();
    ASSERT_OK(a.modify(qpn, m));
  }
  expect_empty_udata(1);
}

TEST_P(DriverData, EveryModifyOfATransitionHandsAnEmptyUdata) {
  auto a = open();
  auto qpn = MUST(a.create());
  ASSERT_OK(a.modify(qpn, xrc_tgt_to_init()));
  ASSERT_OK(a.modify(qpn, xrc_tgt_to_rtr()));
  ASSERT_OK(a.modify(qpn, xrc_tgt_to_rts()));
  expect_empty_udata(3);
}

// The reference point: MODIFY_QP on an OPEN_QP handle of the same QP,
// what libibverbs' ibv_modify_qp() sends for an XRC TGT QP today.
TEST_P(DriverData, SameUdataAsModifyQpOnAnOpenQpHandle) {
  auto a = open();
  auto qpn = MUST(a.create());
  auto h = MUST(cmd::open_qp(a.ctx, a.h(), qpn));
  const auto m = xrc_tgt_to_init();
  ASSERT_OK(cmd::modify_qp(a.ctx, h.handle, m.attr, m.mask));
  auto via_open_qp = MUST(sim().modify_udata());
  ASSERT_OK(sim().clear_modify_udata());
  ASSERT_OK(a.modify(qpn, to_state_only(QpState::Reset)));
  auto via_rcv = MUST(sim().modify_udata());
  EXPECT_EQ(via_rcv.null, via_open_qp.null);
  EXPECT_EQ(via_rcv.inlen, via_open_qp.inlen);
  EXPECT_EQ(via_rcv.outlen, via_open_qp.outlen);
  EXPECT_OK(cmd::destroy_qp(a.ctx, h.handle));
}

// Raw only: the driver attribute is raw ioctl bytes.
XRC_RAW_TRANSPORTS(DriverData);

}  // namespace
}  // namespace xrc_e2e
