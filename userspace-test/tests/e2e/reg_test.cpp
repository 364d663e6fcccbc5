// abi.md rules 1-3 and 5 within one process: several uverbs files (each
// its own Context) on one XRCD.
#include "support.hpp"

namespace xrc_e2e {
namespace {

constexpr std::uint32_t k2Pow24 = 1U << 24;

class RegisterNew : public E2eTest {};
class RegisterExisting : public E2eTest {};
class Unregister : public E2eTest {};
class NoReference : public E2eTest {};
class XrcdHandle : public E2eTest {};

TEST_F(RegisterNew, CreatesAQpInResetAndReturnsItsNumber) {
  auto a = Peer::open(xrcd_file_);
  auto qpn = a.create();
  ASSERT_OK(qpn);
  EXPECT_LT(*qpn, k2Pow24);
  auto st = a.state(*qpn);
  ASSERT_OK(st);
  EXPECT_EQ(*st, QpState::Reset);
}

TEST_F(RegisterNew, AddsExactlyOneLiveQp) {
  REQUIRE_COUNTERS();
  auto a = Peer::open(xrcd_file_);
  const long before = live_qps();
  ASSERT_OK(a.create());
  EXPECT_EQ(live_qps(), before + 1);
}

TEST_F(RegisterNew, GivesEachNewQpADistinctNumber) {
  auto a = Peer::open(xrcd_file_);
  auto q1 = a.create();
  auto q2 = a.create();
  ASSERT_OK(q1);
  ASSERT_OK(q2);
  EXPECT_NE(*q1, *q2);
}

TEST_F(RegisterNew, AnswersWithAZeroReservedField) {
  auto a = Peer::open(xrcd_file_);
  ib_uverbs_reg_xrc_rcv_qp_resp resp;
  std::memset(&resp, 0xff, sizeof resp);
  ASSERT_OK(raw::reg_xrc_rcv_qp(a.ctx, wire::make_reg(a.h(), IB_UVERBS_XRC_RCV_QPN_NEW, &resp)));
  EXPECT_EQ(resp.reserved, 0U);
  EXPECT_LT(resp.qp_num, k2Pow24);
}

TEST_F(RegisterNew, QpIsAnXrcTargetWithoutQueues) {
  auto a = Peer::open(xrcd_file_);
  auto qpn = MUST(a.create());
  auto attr = a.query(qpn);
  ASSERT_OK(attr);
  EXPECT_EQ(attr->cap.max_send_wr, 0U);
  EXPECT_EQ(attr->cap.max_recv_wr, 0U);
}

TEST_F(RegisterExisting, SecondFileOnTheSameXrcdCanRegisterTheNumber) {
  auto a = Peer::open(xrcd_file_);
  auto b = Peer::open(xrcd_file_);
  auto qpn = MUST(a.create());
  auto r = b.reg(qpn);
  ASSERT_OK(r);
  EXPECT_EQ(*r, qpn);
  EXPECT_OK(b.query(qpn));
}

TEST_F(RegisterExisting, TwoRegistrationsNeedTwoUnregistrations) {
  REQUIRE_COUNTERS();
  auto a = Peer::open(xrcd_file_);
  const long before = live_qps();
  auto qpn = MUST(a.create());
  ASSERT_OK(a.reg(qpn));
  ASSERT_OK(a.unreg(qpn));
  EXPECT_EQ(live_qps(), before + 1);
  EXPECT_OK(a.query(qpn));
  ASSERT_OK(a.unreg(qpn));
  EXPECT_EQ(wait_live_qps(before), before);
  EXPECT_ERRNO(a.unreg(qpn), EINVAL);
}

TEST_F(RegisterExisting, ClosingTheFileDropsAllItsReferences) {
  REQUIRE_COUNTERS();
  auto a = Peer::open(xrcd_file_);
  const long before = live_qps();
  auto qpn = MUST(a.create());
  {
    auto b = Peer::open(xrcd_file_);
    for (int i = 0; i < 3; ++i) ASSERT_OK(b.reg(qpn));
    b.forget_xrcd();
  }  // b's file closes with three references
  ASSERT_OK(a.unreg(qpn));
  EXPECT_EQ(wait_live_qps(before), before);
}

TEST_F(RegisterExisting, ReferencesOfEveryFileCountTowardsTheQpsLife) {
  REQUIRE_COUNTERS();
  auto a = Peer::open(xrcd_file_);
  auto b = Peer::open(xrcd_file_);
  auto c = Peer::open(xrcd_file_);
  const long before = live_qps();
  auto qpn = MUST(a.create());
  ASSERT_OK(b.reg(qpn));
  ASSERT_OK(c.reg(qpn));
  ASSERT_OK(a.unreg(qpn));
  ASSERT_OK(b.unreg(qpn));
  EXPECT_EQ(live_qps(), before + 1);
  EXPECT_OK(c.query(qpn));
  ASSERT_OK(c.unreg(qpn));
  EXPECT_EQ(wait_live_qps(before), before);
}

TEST_F(Unregister, LastReferenceDestroysTheQp) {
  REQUIRE_COUNTERS();
  auto a = Peer::open(xrcd_file_);
  const long before = live_qps();
  auto qpn = MUST(a.create());
  ASSERT_OK(a.unreg(qpn));
  EXPECT_EQ(wait_live_qps(before), before);
}

TEST_F(Unregister, DestroyedNumberCanNoLongerBeRegistered) {
  auto a = Peer::open(xrcd_file_);
  auto b = Peer::open(xrcd_file_);
  auto qpn = MUST(a.create());
  ASSERT_OK(a.unreg(qpn));
  EXPECT_ERRNO(a.reg(qpn), EINVAL);
  EXPECT_ERRNO(b.reg(qpn), EINVAL);
}

TEST_F(Unregister, WithoutEverRegisteringFailsEinval) {
  auto a = Peer::open(xrcd_file_);
  auto b = Peer::open(xrcd_file_);
  auto qpn = MUST(a.create());
  EXPECT_ERRNO(b.unreg(qpn), EINVAL);
  EXPECT_OK(a.query(qpn));
}

TEST_F(Unregister, CannotDropMoreReferencesThanTheFileHolds) {
  auto a = Peer::open(xrcd_file_);
  auto b = Peer::open(xrcd_file_);
  auto qpn = MUST(a.create());
  ASSERT_OK(b.reg(qpn));
  ASSERT_OK(b.unreg(qpn));
  EXPECT_ERRNO(b.unreg(qpn), EINVAL);
  auto st = a.state(qpn);
  ASSERT_OK(st);
  EXPECT_EQ(*st, QpState::Reset);
}

TEST_F(Unregister, OfANumberThatNeverExistedFailsEinval) {
  auto a = Peer::open(xrcd_file_);
  EXPECT_ERRNO(a.unreg(0), EINVAL);
  EXPECT_ERRNO(a.unreg(1), EINVAL);
  EXPECT_ERRNO(a.unreg(IB_UVERBS_XRC_RCV_QPN_NEW), EINVAL);
}

TEST_F(NoReference, AnotherFileCannotQueryTheQp) {
  auto a = Peer::open(xrcd_file_);
  auto b = Peer::open(xrcd_file_);
  auto qpn = MUST(a.create());
  EXPECT_ERRNO(b.query(qpn), EINVAL);
}

TEST_F(NoReference, AnotherFileCannotModifyTheQp) {
  auto a = Peer::open(xrcd_file_);
  auto b = Peer::open(xrcd_file_);
  auto qpn = MUST(a.create());
  EXPECT_ERRNO(b.modify(qpn, xrc_tgt_to_init()), EINVAL);
  auto st = a.state(qpn);
  ASSERT_OK(st);
  EXPECT_EQ(*st, QpState::Reset);
}

TEST_F(NoReference, FileThatDroppedItsReferenceLosesAccess) {
  auto a = Peer::open(xrcd_file_);
  auto b = Peer::open(xrcd_file_);
  auto qpn = MUST(a.create());
  ASSERT_OK(b.reg(qpn));
  ASSERT_OK(b.query(qpn));
  ASSERT_OK(b.unreg(qpn));
  EXPECT_ERRNO(b.query(qpn), EINVAL);
  EXPECT_ERRNO(b.modify(qpn, xrc_tgt_to_init()), EINVAL);
}

TEST_F(RegisterExisting, NumbersAtOrAbove2Pow24AreRejectedByEveryCommand) {
  REQUIRE_COUNTERS();
  auto a = Peer::open(xrcd_file_);
  auto qpn = MUST(a.create());
  const long before = live_qps();
  for (std::uint32_t n : {k2Pow24, k2Pow24 | qpn, 0x7fffffffU, 0xfffffffeU, 0x80000000U | qpn}) {
    SCOPED_TRACE(n);
    EXPECT_ERRNO(a.reg(n), EINVAL);
    EXPECT_ERRNO(a.unreg(n), EINVAL);
    EXPECT_ERRNO(a.query(n), EINVAL);
    EXPECT_ERRNO(a.modify(n, xrc_tgt_to_init()), EINVAL);
  }
  EXPECT_EQ(live_qps(), before);
  // The real QP kept exactly its one reference.
  ASSERT_OK(a.unreg(qpn));
  EXPECT_ERRNO(a.unreg(qpn), EINVAL);
}

TEST_F(RegisterExisting, NumbersOfNoReceiveQpAreRejected) {
  auto a = Peer::open(xrcd_file_);
  EXPECT_ERRNO(a.reg(0), EINVAL);  // QP0/QP1 are never XRC receive QPs
  EXPECT_ERRNO(a.reg(1), EINVAL);
  auto qpn = MUST(a.create());
  EXPECT_ERRNO(a.reg((qpn + 1) & 0xffffff), EINVAL);
}

TEST_F(RegisterExisting, PerFileReferenceCountStopsAtItsBoundWithEoverflow) {
  const long bound = env_long("XRC_E2E_REF_BOUND", 0);
  if (bound <= 0 || bound > 10'000'000)
    GTEST_SKIP() << "set XRC_E2E_REF_BOUND to the kernel's per-file bound to run this";
  auto a = Peer::open(xrcd_file_);
  auto qpn = MUST(a.create());
  long held = 1;
  Result<std::uint32_t> r = qpn;
  while (held < bound && (r = a.reg(qpn))) ++held;
  ASSERT_OK(r);
  EXPECT_ERRNO(a.reg(qpn), EOVERFLOW);
  EXPECT_ERRNO(a.reg(qpn), EOVERFLOW);
  ASSERT_OK(a.unreg(qpn));
  EXPECT_OK(a.reg(qpn));  // nothing wrapped: one slot again
}

TEST_F(XrcdHandle, HandleThatIsNotAnXrcdOfThisFileIsRejected) {
  auto a = Peer::open(xrcd_file_);
  auto qpn = MUST(a.create());
  auto b = MUST(Context::open(device_path()));  // a file with no XRCD at all
  EXPECT_ERRNO(cmd::reg_xrc_rcv_qp(b, a.h(), qpn), EINVAL);
  EXPECT_ERRNO(cmd::reg_xrc_rcv_qp(b, a.h(), IB_UVERBS_XRC_RCV_QPN_NEW), EINVAL);
  EXPECT_ERRNO(cmd::unreg_xrc_rcv_qp(b, a.h(), qpn), EINVAL);
  EXPECT_ERRNO(cmd::query_xrc_rcv_qp(b, a.h(), qpn), EINVAL);
  const auto m = xrc_tgt_to_init();
  EXPECT_ERRNO(cmd::modify_xrc_rcv_qp(b, a.h(), qpn, m.attr, m.mask), EINVAL);
}

TEST_F(XrcdHandle, GarbageHandleIsRejected) {
  auto a = Peer::open(xrcd_file_);
  auto qpn = MUST(a.create());
  for (std::uint32_t h : {0xdeadbeefU, a.h() + 1000, 0xffffffffU}) {
    SCOPED_TRACE(h);
    EXPECT_ERRNO(cmd::reg_xrc_rcv_qp(a.ctx, h, IB_UVERBS_XRC_RCV_QPN_NEW), EINVAL);
    EXPECT_ERRNO(cmd::reg_xrc_rcv_qp(a.ctx, h, qpn), EINVAL);
    EXPECT_ERRNO(cmd::unreg_xrc_rcv_qp(a.ctx, h, qpn), EINVAL);
    EXPECT_ERRNO(cmd::query_xrc_rcv_qp(a.ctx, h, qpn), EINVAL);
  }
}

TEST_F(XrcdHandle, QpOfAnotherXrcdCannotBeRegistered) {
  const std::string other_file = temp_xrcd_path();
  auto a = Peer::open(xrcd_file_);
  auto b = Peer::open(other_file);
  auto qpn = MUST(a.create());
  EXPECT_ERRNO(b.reg(qpn), EINVAL);
  ::unlink(other_file.c_str());
}

TEST_F(XrcdHandle, ReferenceCountsOnlyUnderTheQpsOwnXrcd) {
  const std::string other_file = temp_xrcd_path();
  auto a = Peer::open(xrcd_file_);
  auto x2 = MUST(Xrcd::open(a.ctx, other_file));  // second XRCD, same file
  auto qpn = MUST(a.create());
  EXPECT_ERRNO(cmd::query_xrc_rcv_qp(a.ctx, x2.handle(), qpn), EINVAL);
  EXPECT_ERRNO(cmd::unreg_xrc_rcv_qp(a.ctx, x2.handle(), qpn), EINVAL);
  EXPECT_ERRNO(cmd::reg_xrc_rcv_qp(a.ctx, x2.handle(), qpn), EINVAL);
  EXPECT_OK(a.query(qpn));
  ::unlink(other_file.c_str());
}

TEST_F(XrcdHandle, FilesOpeningTheSameFileShareOneXrcd) {
  REQUIRE_COUNTERS();
  const long before = live_xrcds();
  auto a = Peer::open(xrcd_file_);
  auto b = Peer::open(xrcd_file_);
  EXPECT_EQ(live_xrcds(), before + 1);
}

}  // namespace
}  // namespace xrc_e2e
