// Attribute translation between QpAttr/QpAttrMask and the wire structs.
#include <xrcrcv/qp_attr.hpp>

#include <gtest/gtest.h>

#include <cstring>

namespace {

using namespace xrcrcv;

TEST(QpAttrMaskBits, MatchTheKernelEnum) {
  EXPECT_EQ(to_bits(QpAttrMask::State), 1U << 0);
  EXPECT_EQ(to_bits(QpAttrMask::AccessFlags), 1U << 3);
  EXPECT_EQ(to_bits(QpAttrMask::PkeyIndex), 1U << 4);
  EXPECT_EQ(to_bits(QpAttrMask::Port), 1U << 5);
  EXPECT_EQ(to_bits(QpAttrMask::Av), 1U << 7);
  EXPECT_EQ(to_bits(QpAttrMask::PathMtu), 1U << 8);
  EXPECT_EQ(to_bits(QpAttrMask::RqPsn), 1U << 12);
  EXPECT_EQ(to_bits(QpAttrMask::MinRnrTimer), 1U << 15);
  EXPECT_EQ(to_bits(QpAttrMask::SqPsn), 1U << 16);
  EXPECT_EQ(to_bits(QpAttrMask::MaxDestRdAtomic), 1U << 17);
  EXPECT_EQ(to_bits(QpAttrMask::DestQpn), 1U << 20);
  EXPECT_EQ(to_bits(QpAttrMask::AllStandard), 0x1fffffU);
}

TEST(QpTransitions, ResetToInitCarriesTheFourRequiredBits) {
  const auto m = xrc_tgt_to_init({.port = 1, .pkey_index = 2, .access = 6});
  EXPECT_EQ(m.mask, QpAttrMask::State | QpAttrMask::PkeyIndex | QpAttrMask::Port |
                        QpAttrMask::AccessFlags);
  EXPECT_EQ(m.attr.qp_state, QpState::Init);
  EXPECT_EQ(m.attr.port_num, 1);
  EXPECT_EQ(m.attr.pkey_index, 2);
  EXPECT_EQ(m.attr.qp_access_flags, 6U);
}

TEST(QpTransitions, InitToRtrCarriesTheSevenRequiredBitsAndTheAvPort) {
  const auto m = xrc_tgt_to_rtr({.port = 1, .dlid = 5, .dest_qp_num = 0x42});
  EXPECT_EQ(to_bits(m.mask), (1U << 0) | (1U << 7) | (1U << 8) | (1U << 20) | (1U << 12) |
                                 (1U << 17) | (1U << 15));
  EXPECT_EQ(m.attr.ah_attr.port_num, 1);
  EXPECT_EQ(m.attr.ah_attr.dlid, 5);
  EXPECT_EQ(m.attr.dest_qp_num, 0x42U);
}

TEST(QpTransitions, RtrToRtsNeedsOnlyTimeoutAndSqPsnForXrcTgt) {
  EXPECT_EQ(xrc_tgt_to_rts().mask, QpAttrMask::State | QpAttrMask::Timeout | QpAttrMask::SqPsn);
}

TEST(QpTransitions, ResetAndErrorNeedOnlyTheStateBit) {
  EXPECT_EQ(to_state_only(QpState::Err).mask, QpAttrMask::State);
  EXPECT_EQ(to_state_only(QpState::Reset).attr.qp_state, QpState::Reset);
}

// MODIFY_RCV_QP's attribute is MODIFY_QP's struct with qp_handle 0.
TEST(ModifyEncoding, PutsMaskAndEveryFieldInPlaceWithAZeroQpHandle) {
  auto m = xrc_tgt_to_rtr({.port = 1, .dlid = 9, .dest_qp_num = 0xabcdef, .rq_psn = 77,
                           .path_mtu = Mtu::Mtu2048, .max_dest_rd_atomic = 4,
                           .min_rnr_timer = 3});
  m.attr.ah_attr.dgid[15] = 0x5a;
  m.attr.ah_attr.is_global = true;
  const auto c = encode_modify_qp(0, m.attr, m.mask);
  EXPECT_EQ(c.qp_handle, 0U);
  EXPECT_EQ(c.attr_mask, to_bits(m.mask));
  EXPECT_EQ(c.qp_state, 2);
  EXPECT_EQ(c.path_mtu, 4);
  EXPECT_EQ(c.dest_qp_num, 0xabcdefU);
  EXPECT_EQ(c.rq_psn, 77U);
  EXPECT_EQ(c.max_dest_rd_atomic, 4);
  EXPECT_EQ(c.min_rnr_timer, 3);
  EXPECT_EQ(c.dest.dlid, 9);
  EXPECT_EQ(c.dest.port_num, 1);
  EXPECT_EQ(c.dest.is_global, 1);
  EXPECT_EQ(c.dest.dgid[15], 0x5a);
  EXPECT_EQ(c.reserved[0], 0);
  EXPECT_EQ(c.reserved[1], 0);
}

TEST(ModifyEncoding, TheQpHandleIsTheOnlyDifferenceBetweenTwoHandles) {
  const auto m = xrc_tgt_to_init({.port = 1, .pkey_index = 3, .access = 7});
  const auto x = encode_modify_qp(0, m.attr, m.mask);
  const auto p = encode_modify_qp(5, m.attr, m.mask);
  EXPECT_EQ(p.qp_handle, 5U);
  EXPECT_EQ(std::memcmp(&x.dest, &p.dest, 64), 0);
  EXPECT_EQ(std::memcmp(&x.attr_mask, &p.attr_mask,
                        sizeof x - offsetof(ib_uverbs_modify_qp, attr_mask)),
            0);
}

TEST(QueryDecoding, ReadsEveryFieldOfTheResponse) {
  ib_uverbs_query_qp_resp r{};
  r.qp_state = 3;
  r.cur_qp_state = 2;
  r.path_mtu = 5;
  r.port_num = 1;
  r.pkey_index = 4;
  r.qp_access_flags = 0xe;
  r.dest_qp_num = 0x99;
  r.rq_psn = 10;
  r.sq_psn = 20;
  r.timeout = 14;
  r.min_rnr_timer = 12;
  r.max_dest_rd_atomic = 2;
  r.dest.dlid = 0x77;
  r.dest.sl = 3;
  r.alt_dest.port_num = 2;
  r.sq_draining = 1;
  r.max_recv_wr = 0;
  const auto a = decode_query_resp(r);
  EXPECT_EQ(a.qp_state, QpState::Rts);
  EXPECT_EQ(a.cur_qp_state, QpState::Rtr);
  EXPECT_EQ(a.path_mtu, Mtu::Mtu4096);
  EXPECT_EQ(a.port_num, 1);
  EXPECT_EQ(a.pkey_index, 4);
  EXPECT_EQ(a.qp_access_flags, 0xeU);
  EXPECT_EQ(a.dest_qp_num, 0x99U);
  EXPECT_EQ(a.rq_psn, 10U);
  EXPECT_EQ(a.sq_psn, 20U);
  EXPECT_EQ(a.timeout, 14);
  EXPECT_EQ(a.min_rnr_timer, 12);
  EXPECT_EQ(a.max_dest_rd_atomic, 2);
  EXPECT_EQ(a.ah_attr.dlid, 0x77);
  EXPECT_EQ(a.ah_attr.sl, 3);
  EXPECT_EQ(a.alt_ah_attr.port_num, 2);
  EXPECT_TRUE(a.sq_draining);
}

TEST(QueryDecoding, RoundTripsWhatModifyEncoded) {
  auto m = xrc_tgt_to_rtr({.dlid = 3, .dest_qp_num = 8, .rq_psn = 9});
  const auto c = encode_modify_qp(0, m.attr, m.mask);
  ib_uverbs_query_qp_resp r{};
  r.dest = c.dest;
  r.alt_dest = c.alt_dest;
  r.dest_qp_num = c.dest_qp_num;
  r.rq_psn = c.rq_psn;
  r.qp_state = c.qp_state;
  r.path_mtu = c.path_mtu;
  r.max_dest_rd_atomic = c.max_dest_rd_atomic;
  r.min_rnr_timer = c.min_rnr_timer;
  const auto a = decode_query_resp(r);
  EXPECT_EQ(a.ah_attr, m.attr.ah_attr);
  EXPECT_EQ(a.dest_qp_num, 8U);
  EXPECT_EQ(a.rq_psn, 9U);
  EXPECT_EQ(a.qp_state, QpState::Rtr);
}

TEST(QpNames, StatesPrintAndParseCaseInsensitively) {
  EXPECT_EQ(to_string(QpState::Reset), "RESET");
  EXPECT_EQ(to_string(QpState::Rtr), "RTR");
  EXPECT_EQ(to_string(static_cast<QpState>(42)), "UNKNOWN");
  EXPECT_EQ(parse_qp_state("init"), QpState::Init);
  EXPECT_EQ(parse_qp_state("Rts"), QpState::Rts);
  EXPECT_EQ(parse_qp_state("error"), QpState::Err);
  EXPECT_EQ(parse_qp_state("6"), QpState::Err);
  EXPECT_FALSE(parse_qp_state("7"));
  EXPECT_FALSE(parse_qp_state("bogus"));
}

TEST(QpNames, MasksPrintAsBitNamesWithUnknownBitsInHex) {
  EXPECT_EQ(to_string(QpAttrMask::None), "0");
  EXPECT_EQ(to_string(xrc_tgt_to_init().mask), "STATE|ACCESS_FLAGS|PKEY_INDEX|PORT");
  EXPECT_EQ(to_string(QpAttrMask::State | mask_from_bits(1U << 30)), "STATE|0x40000000");
}

TEST(QpNames, MtuParsesFromBytesOrEnumValue) {
  EXPECT_EQ(parse_mtu("1024"), Mtu::Mtu1024);
  EXPECT_EQ(parse_mtu("5"), Mtu::Mtu4096);
  EXPECT_FALSE(parse_mtu("1000"));
  EXPECT_EQ(mtu_bytes(Mtu::Mtu256), 256U);
}

}  // namespace
