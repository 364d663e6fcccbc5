// Command encoding: header words and response pointers.
#include <xrcrcv/wire.hpp>

#include <gtest/gtest.h>

namespace {

using namespace xrcrcv;

TEST(WireEncoding, HeaderCountsHeaderAndBodyInWordsAndResponseInWords) {
  const auto h = wire::make_hdr(IB_USER_VERBS_CMD_REG_XRC_RCV_QP, 16, 8);
  EXPECT_EQ(h.command, 41U);
  EXPECT_EQ(h.in_words, 6);
  EXPECT_EQ(h.out_words, 2);
}

TEST(WireEncoding, RegIsTwentyFourBytesWithTheResponsePointerFirst) {
  ib_uverbs_reg_xrc_rcv_qp_resp resp{};
  const auto c = wire::make_reg(7, IB_UVERBS_XRC_RCV_QPN_NEW, &resp);
  const auto buf = wire::encode_struct(IB_USER_VERBS_CMD_REG_XRC_RCV_QP, c, sizeof resp);
  ASSERT_EQ(buf.size(), 24U);
  const auto h = wire::decode_hdr(buf);
  EXPECT_EQ(h.command, 41U);
  EXPECT_EQ(h.in_words * 4U, buf.size());
  EXPECT_EQ(h.out_words, 2);
  ib_uverbs_reg_xrc_rcv_qp back{};
  std::memcpy(&back, buf.data() + 8, sizeof back);
  EXPECT_EQ(back.response, wire::user_ptr(&resp));
  EXPECT_EQ(back.xrcd_handle, 7U);
  EXPECT_EQ(back.qp_num, 0xffffffffU);
}

TEST(WireEncoding, UnregIsSixteenBytesAndAsksForNoResponse) {
  const auto buf = wire::encode_struct(IB_USER_VERBS_CMD_UNREG_XRC_RCV_QP,
                                       wire::make_unreg(3, 0x123), 0);
  ASSERT_EQ(buf.size(), 16U);
  const auto h = wire::decode_hdr(buf);
  EXPECT_EQ(h.command, 42U);
  EXPECT_EQ(h.in_words, 4);
  EXPECT_EQ(h.out_words, 0);
}

TEST(WireEncoding, ModifyIsOneHundredTwentyEightBytesAndAsksForNoResponse) {
  ib_uverbs_modify_xrc_rcv_qp m{};
  const auto buf = wire::encode_struct(IB_USER_VERBS_CMD_MODIFY_XRC_RCV_QP, m, 0);
  ASSERT_EQ(buf.size(), 128U);
  const auto h = wire::decode_hdr(buf);
  EXPECT_EQ(h.command, 43U);
  EXPECT_EQ(h.in_words, 32);
  EXPECT_EQ(h.out_words, 0);
}

TEST(WireEncoding, QueryAsksForAFullQueryQpResponse) {
  ib_uverbs_query_qp_resp resp{};
  const auto c = wire::make_query(1, 2, 0x1fffff, &resp);
  const auto buf = wire::encode_struct(IB_USER_VERBS_CMD_QUERY_XRC_RCV_QP, c, sizeof resp);
  ASSERT_EQ(buf.size(), 32U);
  const auto h = wire::decode_hdr(buf);
  EXPECT_EQ(h.command, 44U);
  EXPECT_EQ(h.in_words, 8);
  EXPECT_EQ(h.out_words, 32);
  EXPECT_EQ(c.response, wire::user_ptr(&resp));
  EXPECT_EQ(c.attr_mask, 0x1fffffU);
  EXPECT_EQ(c.reserved, 0U);
}

TEST(WireEncoding, TrailingBytesAreAppendedAndCountedInInWords) {
  const std::array<std::byte, 8> trailing{std::byte{0xAA}};
  const auto buf = wire::encode_struct(IB_USER_VERBS_CMD_UNREG_XRC_RCV_QP,
                                       wire::make_unreg(1, 1), 0, trailing);
  ASSERT_EQ(buf.size(), 24U);
  EXPECT_EQ(wire::decode_hdr(buf).in_words, 6);
  EXPECT_EQ(buf[16], std::byte{0xAA});
}

TEST(WireEncoding, ExplicitHeaderIsKeptEvenWhenItLies) {
  ib_uverbs_cmd_hdr h{41, 99, 0};
  const std::array<std::byte, 4> body{};
  const auto buf = wire::encode(h, body);
  ASSERT_EQ(buf.size(), 12U);
  EXPECT_EQ(wire::decode_hdr(buf).in_words, 99);
}

TEST(WireEncoding, NullResponsePointerEncodesAsZero) {
  EXPECT_EQ(wire::make_reg(1, 1, nullptr).response, 0U);
}

}  // namespace
