// Series v3: one implementation behind the write commands and the ioctl
// methods, and the same references: a reference taken through one
// interface is dropped through the other.  The parameter is the transport
// of the REG; the other calls go over the other one.
#include "support.hpp"

namespace xrc_e2e {
namespace {

constexpr std::uint32_t kQpFatal = 1;

class CrossTransport : public TransportTest {
 protected:
  [[nodiscard]] Transport theirs() const { return other(tr()); }
};

TEST_P(CrossTransport, RegOverOneIsUnregisteredOverTheOther) {
  REQUIRE_COUNTERS();
  const long before = live_qps();
  auto a = open();
  auto qpn = MUST(a.create());  // over tr()
  ASSERT_OK(cmd::unreg_xrc_rcv_qp(a.ctx, a.h(), qpn, theirs()));
  EXPECT_EQ(wait_live_qps(before), before);
  EXPECT_ERRNO(a.unreg(qpn), EINVAL);
  EXPECT_ERRNO(cmd::unreg_xrc_rcv_qp(a.ctx, a.h(), qpn, theirs()), EINVAL);
}

TEST_P(CrossTransport, ReferencesOfBothInterfacesCountTogether) {
  REQUIRE_COUNTERS();
  const long before = live_qps();
  auto a = open();
  auto qpn = MUST(a.create());
  ASSERT_OK(cmd::reg_xrc_rcv_qp(a.ctx, a.h(), qpn, theirs()));  // 2
  ASSERT_OK(a.unreg(qpn));                                        // 1
  EXPECT_EQ(live_qps(), before + 1);
  EXPECT_OK(cmd::query_xrc_rcv_qp(a.ctx, a.h(), qpn, QpAttrMask::State, theirs()));
  ASSERT_OK(a.unreg(qpn));  // 0: the one taken over the other interface
  EXPECT_EQ(wait_live_qps(before), before);
}

TEST_P(CrossTransport, ModifyOverOneIsSeenByQueryOverTheOther) {
  auto a = open();
  auto qpn = MUST(a.create());
  ASSERT_OK(a.modify(qpn, xrc_tgt_to_init({.port = 1, .pkey_index = 0, .access = 2})));
  auto attr = cmd::query_xrc_rcv_qp(a.ctx, a.h(), qpn, QpAttrMask::AllStandard, theirs());
  ASSERT_OK(attr);
  EXPECT_EQ(attr->qp_state, QpState::Init);
  EXPECT_EQ(attr->qp_access_flags, 2U);
  const auto m = xrc_tgt_to_rtr();
  ASSERT_OK(cmd::modify_xrc_rcv_qp(a.ctx, a.h(), qpn, m.attr, m.mask, theirs()));
  auto st = a.state(qpn);
  ASSERT_OK(st);
  EXPECT_EQ(*st, QpState::Rtr);
}

TEST_P(CrossTransport, RegistrationObjectSwitchedToTheOtherTransportCleansUp) {
  REQUIRE_COUNTERS();
  const long before = live_qps();
  auto a = open();
  {
    auto r = MUST(RcvQpRegistration::create(a.xrcd.raw().ref(), tr()));
    EXPECT_EQ(live_qps(), before + 1);
    r.set_transport(theirs());
    EXPECT_OK(r.query());
  }  // UNREG over the other transport
  EXPECT_EQ(wait_live_qps(before), before);
}

TEST_P(CrossTransport, CloseXrcdIsBusyForReferencesOfEitherInterface) {
  auto a = open();
  auto qpn = MUST(a.create());
  ASSERT_OK(cmd::reg_xrc_rcv_qp(a.ctx, a.h(), qpn, theirs()));
  ASSERT_OK(a.unreg(qpn));
  EXPECT_ERRNO(a.xrcd.close(), EBUSY);
  ASSERT_OK(a.unreg(qpn));
  EXPECT_OK(a.xrcd.close());
}

TEST_P(CrossTransport, UnregOverTheOtherInterfacePurgesQueuedEvents) {
  REQUIRE_INJECT();
  auto a = open();
  auto b = open();
  auto qpn = MUST(a.create());
  ASSERT_OK(b.reg(qpn));
  ASSERT_OK(sim().inject_event(qpn, kQpFatal));
  ASSERT_OK(cmd::unreg_xrc_rcv_qp(b.ctx, b.h(), qpn, theirs()));
  const auto evs = MUST(read_events(b.ctx, 300ms));
  EXPECT_TRUE(evs.empty()) << evs.front().describe();
  EXPECT_EQ(MUST(read_events(a.ctx, 500ms)).size(), 1U);
}

// Raw only: it is about the two raw interfaces, each call's transport
// chosen per call on one file and one handle; libibverbs picks for itself.
XRC_RAW_TRANSPORTS(CrossTransport);

}  // namespace
}  // namespace xrc_e2e
