// abi.md rule 7: CLOSE_XRCD fails with EBUSY while the calling file holds
// receive-QP references in that XRCD; a failed close changes nothing.
// Over verbs the close is ibv_close_xrcd().  CloseXrcdRaw reuses a closed
// handle's number, which libibverbs cannot (the ibv_xrcd is freed).
#include "support.hpp"

namespace xrc_e2e {
namespace {

class CloseXrcd : public TransportTest {};
class CloseXrcdRaw : public TransportTest {};

TEST_P(CloseXrcd, FailsEbusyWhileTheFileHoldsAReference) {
  auto a = open();
  auto qpn = MUST(a.create());
  EXPECT_ERRNO(a.xrcd.close(), EBUSY);
  EXPECT_TRUE(a.xrcd.owns());
  EXPECT_OK(a.query(qpn));  // handle and reference both intact
}

TEST_P(CloseXrcd, SucceedsOnceTheLastReferenceIsDropped) {
  REQUIRE_COUNTERS();
  const long before = live_xrcds();
  auto a = open();
  auto qpn = MUST(a.create());
  ASSERT_ERRNO(a.xrcd.close(), EBUSY);
  ASSERT_OK(a.unreg(qpn));
  EXPECT_OK(a.xrcd.close());
  EXPECT_EQ(live_xrcds(), before);
}

TEST_P(CloseXrcd, FailsEbusyForAReferenceOnAnotherFilesQp) {
  auto a = open();
  auto b = open();
  auto qpn = MUST(a.create());
  ASSERT_OK(b.reg(qpn));
  EXPECT_ERRNO(b.xrcd.close(), EBUSY);
  EXPECT_OK(b.query(qpn));
}

TEST_P(CloseXrcd, SucceedsInAFileWithoutReferencesWhileAnotherFileHoldsSome) {
  auto a = open();
  auto b = open();
  auto qpn = MUST(a.create());
  EXPECT_OK(b.xrcd.close());
  EXPECT_OK(a.query(qpn));
}

TEST_P(CloseXrcd, FailsEbusyWithEveryOneOfSeveralReferences) {
  auto a = open();
  auto q1 = MUST(a.create());
  auto q2 = MUST(a.create());
  ASSERT_OK(a.reg(q1));
  ASSERT_OK(a.unreg(q1));
  ASSERT_OK(a.unreg(q2));
  EXPECT_ERRNO(a.xrcd.close(), EBUSY);  // q1 still has one
  ASSERT_OK(a.unreg(q1));
  EXPECT_OK(a.xrcd.close());
}

TEST_P(CloseXrcd, ReferencesInAnotherXrcdOfTheSameFileDoNotBlockIt) {
  const std::string other = temp_xrcd_path();
  auto a = open();
  auto x2 = a.open_xrcd(other);
  auto qpn = MUST(a.create());  // in the first XRCD
  EXPECT_OK(x2.close());
  EXPECT_OK(a.query(qpn));
  ::unlink(other.c_str());
}

TEST_P(CloseXrcdRaw, ClosedHandleCanNoLongerBeUsedToRegister) {
  auto a = open();
  auto b = open();
  auto qpn = MUST(a.create());
  const auto h = b.h();
  ASSERT_OK(b.xrcd.close());
  EXPECT_ERRNO(b.reg_via(h, qpn), bad_handle());
}

XRC_ALL_TRANSPORTS(CloseXrcd);
XRC_RAW_TRANSPORTS(CloseXrcdRaw);

}  // namespace
}  // namespace xrc_e2e
