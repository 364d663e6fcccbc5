// abi.md rule 8: a QP made by REG is an ordinary XRC TGT QP (OPEN_QP can
// open it) and REG can register a QP that CREATE_QP(XRC_TGT) made.  The QP
// lives until the last reference of either kind is gone.
#include "support.hpp"

namespace xrc_e2e {
namespace {

class Interop : public TransportTest {};

TEST_P(Interop, OpenQpOpensAQpCreatedByReg) {
  auto a = open();
  auto b = open();
  auto qpn = MUST(a.create());
  auto h = cmd::open_qp(b.ctx, b.h(), qpn);
  ASSERT_OK(h);
  EXPECT_EQ(h->qp_num, qpn);
  auto attr = cmd::query_qp(b.ctx, h->handle);
  ASSERT_OK(attr);
  EXPECT_EQ(attr->qp_state, QpState::Reset);
  EXPECT_OK(cmd::destroy_qp(b.ctx, h->handle));
}

TEST_P(Interop, ModifyThroughRegIsSeenThroughAnOpenQpHandle) {
  auto a = open();
  auto b = open();
  auto qpn = MUST(a.create());
  auto h = MUST(cmd::open_qp(b.ctx, b.h(), qpn));
  ASSERT_OK(a.modify(qpn, xrc_tgt_to_init()));
  auto attr = cmd::query_qp(b.ctx, h.handle);
  ASSERT_OK(attr);
  EXPECT_EQ(attr->qp_state, QpState::Init);
  EXPECT_OK(cmd::destroy_qp(b.ctx, h.handle));
}

TEST_P(Interop, ModifyThroughAnOpenQpHandleIsSeenThroughQuery) {
  auto a = open();
  auto b = open();
  auto qpn = MUST(a.create());
  auto h = MUST(cmd::open_qp(b.ctx, b.h(), qpn));
  const auto m = xrc_tgt_to_init();
  ASSERT_OK(cmd::modify_qp(b.ctx, h.handle, m.attr, m.mask));
  auto st = a.state(qpn);
  ASSERT_OK(st);
  EXPECT_EQ(*st, QpState::Init);
  EXPECT_OK(cmd::destroy_qp(b.ctx, h.handle));
}

TEST_P(Interop, RegCreatedQpLivesWhileAnOpenQpHandleRemains) {
  REQUIRE_COUNTERS();
  const long before = live_qps();
  auto a = open();
  auto b = open();
  auto qpn = MUST(a.create());
  auto h = MUST(cmd::open_qp(b.ctx, b.h(), qpn));
  ASSERT_OK(a.unreg(qpn));
  EXPECT_EQ(live_qps(), before + 1);
  EXPECT_OK(cmd::query_qp(b.ctx, h.handle));
  ASSERT_OK(cmd::destroy_qp(b.ctx, h.handle));
  EXPECT_EQ(wait_live_qps(before), before);
}

TEST_P(Interop, RegCreatedQpLivesWhileARegistrationRemainsAfterOpenQpCloses) {
  REQUIRE_COUNTERS();
  const long before = live_qps();
  auto a = open();
  auto b = open();
  auto qpn = MUST(a.create());
  auto h = MUST(cmd::open_qp(b.ctx, b.h(), qpn));
  ASSERT_OK(cmd::destroy_qp(b.ctx, h.handle));
  EXPECT_EQ(live_qps(), before + 1);
  ASSERT_OK(a.unreg(qpn));
  EXPECT_EQ(wait_live_qps(before), before);
}

TEST_P(Interop, RegRegistersAQpMadeByCreateQp) {
  auto a = open();
  auto b = open();
  auto h = cmd::create_qp_xrc_tgt(a.ctx, a.h());
  ASSERT_OK(h);
  auto r = b.reg(h->qp_num);
  ASSERT_OK(r);
  EXPECT_EQ(*r, h->qp_num);
  auto st = b.state(h->qp_num);
  ASSERT_OK(st);
  EXPECT_EQ(*st, QpState::Reset);
  ASSERT_OK(b.unreg(h->qp_num));
  EXPECT_OK(cmd::destroy_qp(a.ctx, h->handle));
}

TEST_P(Interop, CreateQpQpLivesWhileARegistrationRemains) {
  REQUIRE_COUNTERS();
  const long before = live_qps();
  auto a = open();
  auto b = open();
  auto h = MUST(cmd::create_qp_xrc_tgt(a.ctx, a.h()));
  ASSERT_OK(b.reg(h.qp_num));
  ASSERT_OK(cmd::destroy_qp(a.ctx, h.handle));
  EXPECT_EQ(live_qps(), before + 1);
  EXPECT_OK(b.modify(h.qp_num, xrc_tgt_to_init()));
  ASSERT_OK(b.unreg(h.qp_num));
  EXPECT_EQ(wait_live_qps(before), before);
  EXPECT_ERRNO(b.reg(h.qp_num), EINVAL);
}

TEST_P(Interop, CreateQpQpOutlivesItsKilledCreatorWhileRegistered) {
  REQUIRE_COUNTERS();
  const long before = live_qps();
  auto creator = Child::spawn([file = xrcd_file_, t = tr()](Channel& ch) {
    auto a = Peer::open(file, t);
    auto h = CHILD_OK(cmd::create_qp_xrc_tgt(a.ctx, a.h()));
    CHILD_CHECK(ch.send(1, h->qp_num));
    for (;;) ::pause();
    return 0;
  });
  auto m = creator.channel().recv();
  ASSERT_TRUE(m);
  auto b = open();
  ASSERT_OK(b.reg(m->a));
  creator.kill();
  ASSERT_EQ(creator.wait(), 128 + SIGKILL);
  EXPECT_OK(b.query(m->a));
  ASSERT_OK(b.unreg(m->a));
  EXPECT_EQ(wait_live_qps(before), before);
}

TEST_P(Interop, OpenQpOfADestroyedRegQpFails) {
  auto a = open();
  auto qpn = MUST(a.create());
  ASSERT_OK(a.unreg(qpn));
  EXPECT_FALSE(cmd::open_qp(a.ctx, a.h(), qpn));
}

TEST_P(Interop, RegAndOpenQpInTheSameFileAreIndependentReferences) {
  REQUIRE_COUNTERS();
  const long before = live_qps();
  auto a = open();
  auto qpn = MUST(a.create());
  auto h = MUST(cmd::open_qp(a.ctx, a.h(), qpn));
  ASSERT_OK(a.unreg(qpn));
  EXPECT_ERRNO(a.query(qpn), EINVAL);  // no REG reference left...
  EXPECT_OK(cmd::query_qp(a.ctx, h.handle));  // ...but the handle works
  EXPECT_EQ(live_qps(), before + 1);
  ASSERT_OK(cmd::destroy_qp(a.ctx, h.handle));
  EXPECT_EQ(wait_live_qps(before), before);
}

// Raw only: OPEN_QP, CREATE_QP and QUERY_QP are sent as raw commands on
// the Peer's file and XRCD handle, which libibverbs keeps private.
XRC_RAW_TRANSPORTS(Interop);

}  // namespace
}  // namespace xrc_e2e
