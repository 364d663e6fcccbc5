// MODIFY_XRC_RCV_QP and QUERY_XRC_RCV_QP act on the shared QP; a mask or
// transition invalid for XRC TGT fails with EINVAL and changes nothing.
#include "support.hpp"

namespace xrc_e2e {
namespace {

class Modify : public E2eTest {
 protected:
  void expect_state(const Peer& p, std::uint32_t qpn, QpState s) {
    auto st = p.state(qpn);
    ASSERT_OK(st);
    EXPECT_EQ(*st, s) << "state " << to_string(*st) << ", expected " << to_string(s);
  }
};

TEST_F(Modify, ResetToInitWithTheRequiredMaskSucceeds) {
  auto a = Peer::open(xrcd_file_);
  auto qpn = MUST(a.create());
  ASSERT_OK(a.modify(qpn, xrc_tgt_to_init({.port = 1, .pkey_index = 0, .access = 6})));
  auto attr = a.query(qpn);
  ASSERT_OK(attr);
  EXPECT_EQ(attr->qp_state, QpState::Init);
  EXPECT_EQ(attr->port_num, 1);
  EXPECT_EQ(attr->pkey_index, 0);
  EXPECT_EQ(attr->qp_access_flags, 6U);
}

TEST_F(Modify, InitToRtrSucceedsAndItsAttributesReadBack) {
  auto a = Peer::open(xrcd_file_);
  auto qpn = MUST(a.create());
  ASSERT_OK(a.modify(qpn, xrc_tgt_to_init()));
  ASSERT_OK(a.modify(qpn, xrc_tgt_to_rtr({.port = 1, .dlid = 7, .dest_qp_num = 0x1234,
                                          .rq_psn = 99, .path_mtu = Mtu::Mtu2048,
                                          .max_dest_rd_atomic = 2, .min_rnr_timer = 5})));
  auto attr = a.query(qpn);
  ASSERT_OK(attr);
  EXPECT_EQ(attr->qp_state, QpState::Rtr);
  EXPECT_EQ(attr->dest_qp_num, 0x1234U);
  EXPECT_EQ(attr->rq_psn, 99U);
  EXPECT_EQ(attr->path_mtu, Mtu::Mtu2048);
  EXPECT_EQ(attr->max_dest_rd_atomic, 2);
  EXPECT_EQ(attr->min_rnr_timer, 5);
  EXPECT_EQ(attr->ah_attr.dlid, 7);
}

TEST_F(Modify, RtrToRtsSucceeds) {
  auto a = Peer::open(xrcd_file_);
  auto qpn = MUST(a.create());
  ASSERT_OK(a.modify(qpn, xrc_tgt_to_init()));
  ASSERT_OK(a.modify(qpn, xrc_tgt_to_rtr()));
  ASSERT_OK(a.modify(qpn, xrc_tgt_to_rts()));
  expect_state(a, qpn, QpState::Rts);
}

TEST_F(Modify, MissingRequiredAttributeFailsEinvalAndLeavesTheQpInReset) {
  auto a = Peer::open(xrcd_file_);
  auto qpn = MUST(a.create());
  auto m = xrc_tgt_to_init();
  m.mask = m.mask & ~QpAttrMask::Port;
  EXPECT_ERRNO(a.modify(qpn, m), EINVAL);
  expect_state(a, qpn, QpState::Reset);
}

TEST_F(Modify, SkippingAStateFailsEinvalAndLeavesTheQpInReset) {
  auto a = Peer::open(xrcd_file_);
  auto qpn = MUST(a.create());
  EXPECT_ERRNO(a.modify(qpn, xrc_tgt_to_rtr()), EINVAL);
  EXPECT_ERRNO(a.modify(qpn, xrc_tgt_to_rts()), EINVAL);
  expect_state(a, qpn, QpState::Reset);
}

TEST_F(Modify, AttributeNotAllowedForXrcTgtFailsEinval) {
  auto a = Peer::open(xrcd_file_);
  auto qpn = MUST(a.create());
  auto init = xrc_tgt_to_init();
  init.mask |= QpAttrMask::Qkey;  // a UD attribute
  EXPECT_ERRNO(a.modify(qpn, init), EINVAL);
  expect_state(a, qpn, QpState::Reset);
  ASSERT_OK(a.modify(qpn, xrc_tgt_to_init()));
  auto rtr = xrc_tgt_to_rtr();
  rtr.mask |= QpAttrMask::Qkey;  // not optional for XRC TGT at INIT->RTR
  EXPECT_ERRNO(a.modify(qpn, rtr), EINVAL);
  expect_state(a, qpn, QpState::Init);
}

TEST_F(Modify, UnknownMaskBitFailsEinvalAndChangesNothing) {
  auto a = Peer::open(xrcd_file_);
  auto qpn = MUST(a.create());
  for (std::uint32_t bit : {21U, 25U, 30U, 31U}) {
    auto m = xrc_tgt_to_init();
    m.mask |= mask_from_bits(1U << bit);
    EXPECT_ERRNO(a.modify(qpn, m), EINVAL) << "bit " << bit;
  }
  expect_state(a, qpn, QpState::Reset);
}

TEST_F(Modify, InvalidPortFailsEinvalAndChangesNothing) {
  auto a = Peer::open(xrcd_file_);
  auto qpn = MUST(a.create());
  EXPECT_ERRNO(a.modify(qpn, xrc_tgt_to_init({.port = 9})), EINVAL);
  EXPECT_ERRNO(a.modify(qpn, xrc_tgt_to_init({.port = 0})), EINVAL);
  expect_state(a, qpn, QpState::Reset);
}

TEST_F(Modify, FailedModifyLeavesEveryAttributeAsItWas) {
  auto a = Peer::open(xrcd_file_);
  auto qpn = MUST(a.create());
  ASSERT_OK(a.modify(qpn, xrc_tgt_to_init({.port = 1, .pkey_index = 0, .access = 2})));
  auto before = MUST(a.query(qpn));
  auto bad = xrc_tgt_to_rtr({.dest_qp_num = 0x777, .rq_psn = 5});
  bad.mask = bad.mask & ~QpAttrMask::MinRnrTimer;  // incomplete INIT->RTR
  EXPECT_ERRNO(a.modify(qpn, bad), EINVAL);
  auto after = MUST(a.query(qpn));
  EXPECT_EQ(after, before);
}

TEST_F(Modify, ErrorThenResetIsAllowedFromAnyState) {
  auto a = Peer::open(xrcd_file_);
  auto qpn = MUST(a.create());
  ASSERT_OK(a.modify(qpn, xrc_tgt_to_init()));
  ASSERT_OK(a.modify(qpn, xrc_tgt_to_rtr()));
  ASSERT_OK(a.modify(qpn, to_state_only(QpState::Err)));
  expect_state(a, qpn, QpState::Err);
  ASSERT_OK(a.modify(qpn, to_state_only(QpState::Reset)));
  expect_state(a, qpn, QpState::Reset);
}

TEST_F(Modify, InitToInitMayChangeTheAccessFlags) {
  auto a = Peer::open(xrcd_file_);
  auto qpn = MUST(a.create());
  ASSERT_OK(a.modify(qpn, xrc_tgt_to_init({.access = 2})));
  QpModify m;
  m.attr.qp_state = QpState::Init;
  m.attr.qp_access_flags = 4;
  m.mask = QpAttrMask::State | QpAttrMask::AccessFlags;
  ASSERT_OK(a.modify(qpn, m));
  auto attr = MUST(a.query(qpn));
  EXPECT_EQ(attr.qp_access_flags, 4U);
}

TEST_F(Modify, EmptyMaskChangesNothing) {
  auto a = Peer::open(xrcd_file_);
  auto qpn = MUST(a.create());
  QpModify m;
  m.attr.qp_state = QpState::Rts;  // ignored without the STATE bit
  const auto r = a.modify(qpn, m);
  if (!r) {
    EXPECT_EQ(r.error().errnum, EINVAL);
  }
  expect_state(a, qpn, QpState::Reset);
}

TEST_F(Modify, QueryReportsTheSameStateToEveryHolder) {
  auto a = Peer::open(xrcd_file_);
  auto b = Peer::open(xrcd_file_);
  auto qpn = MUST(a.create());
  ASSERT_OK(b.reg(qpn));
  ASSERT_OK(b.modify(qpn, xrc_tgt_to_init()));
  EXPECT_EQ(MUST(a.query(qpn)), MUST(b.query(qpn)));
}

}  // namespace
}  // namespace xrc_e2e
