// Write-command encoding (the mainline commands: OPEN_XRCD, CREATE_QP,
// ...): header words and response pointers.
#include <xrcrcv/wire.hpp>

#include <gtest/gtest.h>

namespace {

using namespace xrcrcv;

TEST(WireEncoding, HeaderCountsHeaderAndBodyInWordsAndResponseInWords) {
  const auto h = wire::make_hdr(IB_USER_VERBS_CMD_OPEN_XRCD, 16, 8);
  EXPECT_EQ(h.command, 37U);
  EXPECT_EQ(h.in_words, 6);
  EXPECT_EQ(h.out_words, 2);
}

TEST(WireEncoding, OpenXrcdIsTwentyFourBytesWithTheResponsePointerFirst) {
  ib_uverbs_open_xrcd_resp resp{};
  ib_uverbs_open_xrcd c{};
  c.response = wire::user_ptr(&resp);
  c.fd = 7;
  const auto buf = wire::encode_struct(IB_USER_VERBS_CMD_OPEN_XRCD, c, sizeof resp);
  ASSERT_EQ(buf.size(), 8 + sizeof c);
  const auto h = wire::decode_hdr(buf);
  EXPECT_EQ(h.command, 37U);
  EXPECT_EQ(h.in_words * 4U, buf.size());
  EXPECT_EQ(h.out_words, sizeof resp / 4);
  ib_uverbs_open_xrcd back{};
  std::memcpy(&back, buf.data() + 8, sizeof back);
  EXPECT_EQ(back.response, wire::user_ptr(&resp));
  EXPECT_EQ(back.fd, 7U);
}

TEST(WireEncoding, CloseXrcdAsksForNoResponse) {
  ib_uverbs_close_xrcd c{};
  c.xrcd_handle = 3;
  const auto buf = wire::encode_struct(IB_USER_VERBS_CMD_CLOSE_XRCD, c, 0);
  ASSERT_EQ(buf.size(), 8 + sizeof c);
  const auto h = wire::decode_hdr(buf);
  EXPECT_EQ(h.command, 38U);
  EXPECT_EQ(h.out_words, 0);
}

TEST(WireEncoding, TrailingBytesAreAppendedAndCountedInInWords) {
  const std::array<std::byte, 8> trailing{std::byte{0xAA}};
  ib_uverbs_close_xrcd c{};
  const auto buf = wire::encode_struct(IB_USER_VERBS_CMD_CLOSE_XRCD, c, 0, trailing);
  ASSERT_EQ(buf.size(), 8 + sizeof c + 8);
  EXPECT_EQ(wire::decode_hdr(buf).in_words, buf.size() / 4);
  EXPECT_EQ(buf[8 + sizeof c], std::byte{0xAA});
}

TEST(WireEncoding, ExplicitHeaderIsKeptEvenWhenItLies) {
  ib_uverbs_cmd_hdr h{41, 99, 0};  // series v3's REG, which v4 has not
  const std::array<std::byte, 4> body{};
  const auto buf = wire::encode(h, body);
  ASSERT_EQ(buf.size(), 12U);
  EXPECT_EQ(wire::decode_hdr(buf).command, 41U);
  EXPECT_EQ(wire::decode_hdr(buf).in_words, 99);
}

TEST(WireEncoding, NullResponsePointerEncodesAsZero) {
  EXPECT_EQ(wire::user_ptr(nullptr), 0U);
}

}  // namespace
