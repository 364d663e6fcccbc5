// abi.md rules 1-3 and 5 within one process: several uverbs files (each
// its own Context, or ibv_context over verbs) on one XRCD.  The *Raw
// suites send what libibverbs never does (REG's attributes as bytes, a
// number libibverbs would take for "create", handles that are no XRCD of
// the file): raw ioctl only.
#include "support.hpp"

namespace xrc_e2e {
namespace {

constexpr std::uint32_t k2Pow24 = 1U << 24;

class RegisterNew : public TransportTest {};
class RegisterNewRaw : public TransportTest {};
class RegisterExisting : public TransportTest {};
class Unregister : public TransportTest {};
class NoReference : public TransportTest {};
class XrcdHandle : public TransportTest {};
class XrcdHandleRaw : public TransportTest {};

TEST_P(RegisterNew, CreatesAQpInResetAndReturnsItsNumber) {
  auto a = open();
  auto qpn = a.create();
  ASSERT_OK(qpn);
  EXPECT_LT(*qpn, k2Pow24);
  auto st = a.state(*qpn);
  ASSERT_OK(st);
  EXPECT_EQ(*st, QpState::Reset);
}

TEST_P(RegisterNew, AddsExactlyOneLiveQp) {
  REQUIRE_COUNTERS();
  auto a = open();
  const long before = live_qps();
  ASSERT_OK(a.create());
  EXPECT_EQ(live_qps(), before + 1);
}

TEST_P(RegisterNew, GivesEachNewQpADistinctNumber) {
  auto a = open();
  auto q1 = a.create();
  auto q2 = a.create();
  ASSERT_OK(q1);
  ASSERT_OK(q2);
  EXPECT_NE(*q1, *q2);
}

// Rule 1 on the wire: REG without UVERBS_ATTR_REG_RCV_QP_NUM creates
// (series v4: there is no in-band "create" number).
TEST_P(RegisterNewRaw, WithoutTheNumberAttributeCreatesAQpInReset) {
  REQUIRE_COUNTERS();
  auto a = open();
  const long before = live_qps();
  std::uint32_t out = 0xffffffffU;
  const auto attrs = wire::create_rcv_qp_attrs(a.h(), &out);
  ASSERT_EQ(attrs.size(), 2U);
  ASSERT_OK(raw::xrcd_method(a.ctx, UVERBS_METHOD_XRCD_REG_RCV_QP, attrs));
  EXPECT_LT(out, k2Pow24);
  EXPECT_EQ(live_qps(), before + 1);
  auto st = a.state(out);
  ASSERT_OK(st);
  EXPECT_EQ(*st, QpState::Reset);
  ASSERT_OK(a.unreg(out));
  EXPECT_EQ(wait_live_qps(before), before);
}

// 0xffffffff given as a number is just a number (>= 2^24): EINVAL, and
// nothing is created, nothing answered.
TEST_P(RegisterNewRaw, AllOnesAsANumberIsRejectedAndCreatesNothing) {
  REQUIRE_COUNTERS();
  auto a = open();
  const long before = live_qps();
  std::uint32_t out = 0x5a5a5a5aU;
  EXPECT_ERRNO(raw::ioctl_reg_xrc_rcv_qp(a.ctx, a.h(), 0xffffffffU, &out), EINVAL);
  EXPECT_EQ(out, 0x5a5a5a5aU);
  EXPECT_ERRNO(a.reg(0xffffffffU), EINVAL);
  EXPECT_EQ(live_qps(), before);
  EXPECT_OK(a.xrcd.close());  // and no reference was left behind
}

TEST_P(RegisterNew, QpIsAnXrcTargetWithoutQueues) {
  auto a = open();
  auto qpn = MUST(a.create());
  auto attr = a.query(qpn);
  ASSERT_OK(attr);
  EXPECT_EQ(attr->cap.max_send_wr, 0U);
  EXPECT_EQ(attr->cap.max_recv_wr, 0U);
}

TEST_P(RegisterExisting, SecondFileOnTheSameXrcdCanRegisterTheNumber) {
  auto a = open();
  auto b = open();
  auto qpn = MUST(a.create());
  auto r = b.reg(qpn);
  ASSERT_OK(r);
  EXPECT_EQ(*r, qpn);
  EXPECT_OK(b.query(qpn));
}

TEST_P(RegisterExisting, TwoRegistrationsNeedTwoUnregistrations) {
  REQUIRE_COUNTERS();
  auto a = open();
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

TEST_P(RegisterExisting, ClosingTheFileDropsAllItsReferences) {
  REQUIRE_COUNTERS();
  auto a = open();
  const long before = live_qps();
  auto qpn = MUST(a.create());
  {
    auto b = open();
    for (int i = 0; i < 3; ++i) ASSERT_OK(b.reg(qpn));
    b.forget_xrcd();
  }  // b's file closes with three references
  ASSERT_OK(a.unreg(qpn));
  EXPECT_EQ(wait_live_qps(before), before);
}

TEST_P(RegisterExisting, ReferencesOfEveryFileCountTowardsTheQpsLife) {
  REQUIRE_COUNTERS();
  auto a = open();
  auto b = open();
  auto c = open();
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

TEST_P(Unregister, LastReferenceDestroysTheQp) {
  REQUIRE_COUNTERS();
  auto a = open();
  const long before = live_qps();
  auto qpn = MUST(a.create());
  ASSERT_OK(a.unreg(qpn));
  EXPECT_EQ(wait_live_qps(before), before);
}

TEST_P(Unregister, DestroyedNumberCanNoLongerBeRegistered) {
  auto a = open();
  auto b = open();
  auto qpn = MUST(a.create());
  ASSERT_OK(a.unreg(qpn));
  EXPECT_ERRNO(a.reg(qpn), EINVAL);
  EXPECT_ERRNO(b.reg(qpn), EINVAL);
}

TEST_P(Unregister, WithoutEverRegisteringFailsEinval) {
  auto a = open();
  auto b = open();
  auto qpn = MUST(a.create());
  EXPECT_ERRNO(b.unreg(qpn), EINVAL);
  EXPECT_OK(a.query(qpn));
}

TEST_P(Unregister, CannotDropMoreReferencesThanTheFileHolds) {
  auto a = open();
  auto b = open();
  auto qpn = MUST(a.create());
  ASSERT_OK(b.reg(qpn));
  ASSERT_OK(b.unreg(qpn));
  EXPECT_ERRNO(b.unreg(qpn), EINVAL);
  auto st = a.state(qpn);
  ASSERT_OK(st);
  EXPECT_EQ(*st, QpState::Reset);
}

TEST_P(Unregister, OfANumberThatNeverExistedFailsEinval) {
  auto a = open();
  EXPECT_ERRNO(a.unreg(0), EINVAL);
  EXPECT_ERRNO(a.unreg(1), EINVAL);
  EXPECT_ERRNO(a.unreg(0xffffffffU), EINVAL);
}

TEST_P(NoReference, AnotherFileCannotQueryTheQp) {
  auto a = open();
  auto b = open();
  auto qpn = MUST(a.create());
  EXPECT_ERRNO(b.query(qpn), EINVAL);
}

TEST_P(NoReference, AnotherFileCannotModifyTheQp) {
  auto a = open();
  auto b = open();
  auto qpn = MUST(a.create());
  EXPECT_ERRNO(b.modify(qpn, xrc_tgt_to_init()), EINVAL);
  auto st = a.state(qpn);
  ASSERT_OK(st);
  EXPECT_EQ(*st, QpState::Reset);
}

TEST_P(NoReference, FileThatDroppedItsReferenceLosesAccess) {
  auto a = open();
  auto b = open();
  auto qpn = MUST(a.create());
  ASSERT_OK(b.reg(qpn));
  ASSERT_OK(b.query(qpn));
  ASSERT_OK(b.unreg(qpn));
  EXPECT_ERRNO(b.query(qpn), EINVAL);
  EXPECT_ERRNO(b.modify(qpn, xrc_tgt_to_init()), EINVAL);
}

TEST_P(RegisterExisting, NumbersAtOrAbove2Pow24AreRejectedByEveryCommand) {
  REQUIRE_COUNTERS();
  auto a = open();
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

TEST_P(RegisterExisting, NumbersOfNoReceiveQpAreRejected) {
  auto a = open();
  EXPECT_ERRNO(a.reg(0), EINVAL);  // QP0/QP1 are never XRC receive QPs
  EXPECT_ERRNO(a.reg(1), EINVAL);
  auto qpn = MUST(a.create());
  EXPECT_ERRNO(a.reg((qpn + 1) & 0xffffff), EINVAL);
}

TEST_P(RegisterExisting, PerFileReferenceCountStopsAtItsBoundWithEoverflow) {
  const long bound = env_long("XRC_E2E_REF_BOUND", 0);
  if (bound <= 0 || bound > 10'000'000)
    GTEST_SKIP() << "set XRC_E2E_REF_BOUND to the kernel's per-file bound to run this";
  auto a = open();
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

TEST_P(XrcdHandleRaw, HandleThatIsNotAnXrcdOfThisFileIsRejected) {
  auto a = open();
  auto qpn = MUST(a.create());
  auto b = MUST(Context::open(device_path()));  // a file with no XRCD at all
  const auto t = tr();
  EXPECT_ERRNO(cmd::reg_xrc_rcv_qp(b, a.h(), qpn, t), bad_handle());
  EXPECT_ERRNO(cmd::reg_xrc_rcv_qp(b, a.h(), kNewRcvQp, t), bad_handle());
  EXPECT_ERRNO(cmd::unreg_xrc_rcv_qp(b, a.h(), qpn, t), bad_handle());
  EXPECT_ERRNO(cmd::query_xrc_rcv_qp(b, a.h(), qpn, QpAttrMask::AllStandard, t), bad_handle());
  const auto m = xrc_tgt_to_init();
  EXPECT_ERRNO(cmd::modify_xrc_rcv_qp(b, a.h(), qpn, m.attr, m.mask, t), bad_handle());
  EXPECT_OK(a.query(qpn));  // the real reference is untouched
}

TEST_P(XrcdHandleRaw, GarbageHandleIsRejected) {
  auto a = open();
  auto qpn = MUST(a.create());
  for (std::uint32_t h : {0xdeadbeefU, a.h() + 1000, 0xffffffffU}) {
    SCOPED_TRACE(h);
    EXPECT_ERRNO(a.reg_via(h, kNewRcvQp), bad_handle());
    EXPECT_ERRNO(a.reg_via(h, qpn), bad_handle());
    EXPECT_ERRNO(a.unreg_via(h, qpn), bad_handle());
    EXPECT_ERRNO(a.query_via(h, qpn), bad_handle());
    EXPECT_ERRNO(a.modify_via(h, qpn, xrc_tgt_to_init()), bad_handle());
  }
}

TEST_P(XrcdHandle, QpOfAnotherXrcdCannotBeRegistered) {
  const std::string other_file = temp_xrcd_path();
  auto a = open();
  auto b = open(other_file);
  auto qpn = MUST(a.create());
  EXPECT_ERRNO(b.reg(qpn), EINVAL);
  ::unlink(other_file.c_str());
}

TEST_P(XrcdHandle, ReferenceCountsOnlyUnderTheQpsOwnXrcd) {
  const std::string other_file = temp_xrcd_path();
  auto a = open();
  auto x2 = a.open_xrcd(other_file);  // second XRCD, same file
  auto qpn = MUST(a.create());
  EXPECT_ERRNO(a.query_on(x2, qpn), EINVAL);
  EXPECT_ERRNO(a.unreg_on(x2, qpn), EINVAL);
  EXPECT_ERRNO(a.reg_on(x2, qpn), EINVAL);
  EXPECT_OK(a.query(qpn));
  ::unlink(other_file.c_str());
}

TEST_P(XrcdHandle, FilesOpeningTheSameFileShareOneXrcd) {
  REQUIRE_COUNTERS();
  const long before = live_xrcds();
  auto a = open();
  auto b = open();
  EXPECT_EQ(live_xrcds(), before + 1);
}

XRC_ALL_TRANSPORTS(RegisterNew);
XRC_RAW_TRANSPORTS(RegisterNewRaw);
XRC_ALL_TRANSPORTS(RegisterExisting);
XRC_ALL_TRANSPORTS(Unregister);
XRC_ALL_TRANSPORTS(NoReference);
XRC_ALL_TRANSPORTS(XrcdHandle);
XRC_RAW_TRANSPORTS(XrcdHandleRaw);

}  // namespace
}  // namespace xrc_e2e
