// abi.md rule 7: CLOSE_XRCD fails with EBUSY while the calling file holds
// receive-QP references in that XRCD; a failed close changes nothing.
#include "support.hpp"

namespace xrc_e2e {
namespace {

class CloseXrcd : public E2eTest {};

TEST_F(CloseXrcd, FailsEbusyWhileTheFileHoldsAReference) {
  auto a = Peer::open(xrcd_file_);
  auto qpn = MUST(a.create());
  EXPECT_ERRNO(a.xrcd.close(), EBUSY);
  EXPECT_TRUE(a.xrcd.owns());
  EXPECT_OK(a.query(qpn));  // handle and reference both intact
}

TEST_F(CloseXrcd, SucceedsOnceTheLastReferenceIsDropped) {
  REQUIRE_COUNTERS();
  const long before = live_xrcds();
  auto a = Peer::open(xrcd_file_);
  auto qpn = MUST(a.create());
  ASSERT_ERRNO(a.xrcd.close(), EBUSY);
  ASSERT_OK(a.unreg(qpn));
  EXPECT_OK(a.xrcd.close());
  EXPECT_EQ(live_xrcds(), before);
}

TEST_F(CloseXrcd, FailsEbusyForAReferenceOnAnotherFilesQp) {
  auto a = Peer::open(xrcd_file_);
  auto b = Peer::open(xrcd_file_);
  auto qpn = MUST(a.create());
  ASSERT_OK(b.reg(qpn));
  EXPECT_ERRNO(b.xrcd.close(), EBUSY);
  EXPECT_OK(b.query(qpn));
}

TEST_F(CloseXrcd, SucceedsInAFileWithoutReferencesWhileAnotherFileHoldsSome) {
  auto a = Peer::open(xrcd_file_);
  auto b = Peer::open(xrcd_file_);
  auto qpn = MUST(a.create());
  EXPECT_OK(b.xrcd.close());
  EXPECT_OK(a.query(qpn));
}

TEST_F(CloseXrcd, FailsEbusyWithEveryOneOfSeveralReferences) {
  auto a = Peer::open(xrcd_file_);
  auto q1 = MUST(a.create());
  auto q2 = MUST(a.create());
  ASSERT_OK(a.reg(q1));
  ASSERT_OK(a.unreg(q1));
  ASSERT_OK(a.unreg(q2));
  EXPECT_ERRNO(a.xrcd.close(), EBUSY);  // q1 still has one
  ASSERT_OK(a.unreg(q1));
  EXPECT_OK(a.xrcd.close());
}

TEST_F(CloseXrcd, ReferencesInAnotherXrcdOfTheSameFileDoNotBlockIt) {
  const std::string other = temp_xrcd_path();
  auto a = Peer::open(xrcd_file_);
  auto x2 = MUST(Xrcd::open(a.ctx, other));
  auto qpn = MUST(a.create());  // in the first XRCD
  EXPECT_OK(x2.close());
  EXPECT_OK(a.query(qpn));
  ::unlink(other.c_str());
}

TEST_F(CloseXrcd, ClosedHandleCanNoLongerBeUsedToRegister) {
  auto a = Peer::open(xrcd_file_);
  auto b = Peer::open(xrcd_file_);
  auto qpn = MUST(a.create());
  const auto h = b.h();
  ASSERT_OK(b.xrcd.close());
  EXPECT_ERRNO(cmd::reg_xrc_rcv_qp(b.ctx, h, qpn), EINVAL);
}

}  // namespace
}  // namespace xrc_e2e
