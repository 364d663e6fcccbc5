// MODIFY_XRC_RCV_QP and QUERY_XRC_RCV_QP act on the shared QP; a mask or
// transition invalid for XRC TGT fails with EINVAL and changes nothing.
// ModifyRaw sends reserved fields libibverbs always zeroes: raw only.
#include "support.hpp"

namespace xrc_e2e {
namespace {

class Modify : public TransportTest {
 protected:
  void expect_state(const Peer& p, std::uint32_t qpn, QpState s) {
    auto st = p.state(qpn);
    ASSERT_OK(st);
    EXPECT_EQ(*st, s) << "state " << to_string(*st) << ", expected " << to_string(s);
  }
};

TEST_P(Modify, ResetToInitWithTheRequiredMaskSucceeds) {
  auto a = open();
  auto qpn = MUST(a.create());
  ASSERT_OK(a.modify(qpn, xrc_tgt_to_init({.port = 1, .pkey_index = 0, .access = 6})));
  auto attr = a.query(qpn);
  ASSERT_OK(attr);
  EXPECT_EQ(attr->qp_state, QpState::Init);
  EXPECT_EQ(attr->port_num, 1);
  EXPECT_EQ(attr->pkey_index, 0);
  EXPECT_EQ(attr->qp_access_flags, 6U);
}

TEST_P(Modify, InitToRtrSucceedsAndItsAttributesReadBack) {
  auto a = open();
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

TEST_P(Modify, RtrToRtsSucceeds) {
  auto a = open();
  auto qpn = MUST(a.create());
  ASSERT_OK(a.modify(qpn, xrc_tgt_to_init()));
  ASSERT_OK(a.modify(qpn, xrc_tgt_to_rtr()));
  ASSERT_OK(a.modify(qpn, xrc_tgt_to_rts()));
  expect_state(a, qpn, QpState::Rts);
}

TEST_P(Modify, MissingRequiredAttributeFailsEinvalAndLeavesTheQpInReset) {
  auto a = open();
  auto qpn = MUST(a.create());
  auto m = xrc_tgt_to_init();
  m.mask = m.mask & ~QpAttrMask::Port;
  EXPECT_ERRNO(a.modify(qpn, m), EINVAL);
  expect_state(a, qpn, QpState::Reset);
}

TEST_P(Modify, SkippingAStateFailsEinvalAndLeavesTheQpInReset) {
  auto a = open();
  auto qpn = MUST(a.create());
  EXPECT_ERRNO(a.modify(qpn, xrc_tgt_to_rtr()), EINVAL);
  EXPECT_ERRNO(a.modify(qpn, xrc_tgt_to_rts()), EINVAL);
  expect_state(a, qpn, QpState::Reset);
}

TEST_P(Modify, AttributeNotAllowedForXrcTgtFailsEinval) {
  auto a = open();
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

// libibverbs refuses mask bits from IBV_QP_RATE_LIMIT (bit 25) up itself,
// with EOPNOTSUPP, as its ibv_modify_qp() does: they name attributes past
// struct ibv_qp_attr's core, which the command cannot carry.  Bits below
// reach the kernel and get its EINVAL.
[[nodiscard]] int unknown_mask_bit_errno(Transport t, std::uint32_t bit) {
  constexpr std::uint32_t kIbvQpRateLimitBit = 25;
  return t == Transport::verbs && bit >= kIbvQpRateLimitBit ? EOPNOTSUPP : EINVAL;
}

TEST_P(Modify, UnknownMaskBitFailsEinvalAndChangesNothing) {
  auto a = open();
  auto qpn = MUST(a.create());
  for (std::uint32_t bit : {21U, 25U, 30U, 31U}) {
    auto m = xrc_tgt_to_init();
    m.mask |= mask_from_bits(1U << bit);
    EXPECT_ERRNO(a.modify(qpn, m), unknown_mask_bit_errno(tr(), bit)) << "bit " << bit;
  }
  expect_state(a, qpn, QpState::Reset);
}

TEST_P(Modify, InvalidPortFailsEinvalAndChangesNothing) {
  auto a = open();
  auto qpn = MUST(a.create());
  EXPECT_ERRNO(a.modify(qpn, xrc_tgt_to_init({.port = 9})), EINVAL);
  EXPECT_ERRNO(a.modify(qpn, xrc_tgt_to_init({.port = 0})), EINVAL);
  expect_state(a, qpn, QpState::Reset);
}

TEST_P(Modify, FailedModifyLeavesEveryAttributeAsItWas) {
  auto a = open();
  auto qpn = MUST(a.create());
  ASSERT_OK(a.modify(qpn, xrc_tgt_to_init({.port = 1, .pkey_index = 0, .access = 2})));
  auto before = MUST(a.query(qpn));
  auto bad = xrc_tgt_to_rtr({.dest_qp_num = 0x777, .rq_psn = 5});
  bad.mask = bad.mask & ~QpAttrMask::MinRnrTimer;  // incomplete INIT->RTR
  EXPECT_ERRNO(a.modify(qpn, bad), EINVAL);
  auto after = MUST(a.query(qpn));
  EXPECT_EQ(after, before);
}

TEST_P(Modify, ErrorThenResetIsAllowedFromAnyState) {
  auto a = open();
  auto qpn = MUST(a.create());
  ASSERT_OK(a.modify(qpn, xrc_tgt_to_init()));
  ASSERT_OK(a.modify(qpn, xrc_tgt_to_rtr()));
  ASSERT_OK(a.modify(qpn, to_state_only(QpState::Err)));
  expect_state(a, qpn, QpState::Err);
  ASSERT_OK(a.modify(qpn, to_state_only(QpState::Reset)));
  expect_state(a, qpn, QpState::Reset);
}

TEST_P(Modify, InitToInitMayChangeTheAccessFlags) {
  auto a = open();
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

TEST_P(Modify, EmptyMaskChangesNothing) {
  auto a = open();
  auto qpn = MUST(a.create());
  QpModify m;
  m.attr.qp_state = QpState::Rts;  // ignored without the STATE bit
  const auto r = a.modify(qpn, m);
  if (!r) {
    EXPECT_EQ(r.error().errnum, EINVAL);
  }
  expect_state(a, qpn, QpState::Reset);
}

TEST_P(Modify, QueryReportsTheSameStateToEveryHolder) {
  auto a = open();
  auto b = open();
  auto qpn = MUST(a.create());
  ASSERT_OK(b.reg(qpn));
  ASSERT_OK(b.modify(qpn, xrc_tgt_to_init()));
  EXPECT_EQ(MUST(a.query(qpn)), MUST(b.query(qpn)));
}

// reserved[2] must be zero, and the attribute is MODIFY_QP's struct,
// whose qp_handle is unused and must be 0.  A refused MODIFY changes
// nothing.
class ModifyRaw : public Modify {};

TEST_P(ModifyRaw, NonZeroReservedFieldsFailEinvalAndLeaveTheQpUnchanged) {
  auto a = open();
  auto qpn = MUST(a.create());
  const auto m = xrc_tgt_to_init();
  for (int i : {0, 1, 2}) {
    auto c = encode_modify_qp(0, m.attr, m.mask);
    if (i < 2)
      c.reserved[i] = 0x80;
    else
      c.qp_handle = 1;
    EXPECT_ERRNO(raw::ioctl_modify_xrc_rcv_qp(a.ctx, a.h(), qpn, c), EINVAL)
        << (i < 2 ? "reserved[" + std::to_string(i) + "]" : std::string("qp_handle"));
  }
  for (std::uint32_t v : {0x100U, 0x80000000U}) {
    auto c = encode_modify_qp(0, m.attr, m.mask);
    c.qp_handle = v;
    EXPECT_ERRNO(raw::ioctl_modify_xrc_rcv_qp(a.ctx, a.h(), qpn, c), EINVAL)
        << "qp_handle " << std::hex << v;
  }
  expect_state(a, qpn, QpState::Reset);
  ASSERT_OK(a.modify(qpn, m));  // the same modify, well formed
  expect_state(a, qpn, QpState::Init);
}

XRC_ALL_TRANSPORTS(Modify);
XRC_RAW_TRANSPORTS(ModifyRaw);

}  // namespace
}  // namespace xrc_e2e
