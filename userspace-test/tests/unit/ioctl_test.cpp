// The ioctl transport: the bytes of RDMA_VERBS_IOCTL for each of the four
// XRCD methods (pure encoding), and how a failed ioctl is reported.  REG
// that creates has no NUM attribute (series v4: there is no in-band
// "create" number).
#include <xrcrcv/xrcrcv.hpp>

#include <gtest/gtest.h>

#include <cerrno>
#include <fcntl.h>
#include <unistd.h>

namespace {

using namespace xrcrcv;

std::uint32_t inline_u32(const ib_uverbs_attr& a) {
  std::uint32_t v = 0;
  std::memcpy(&v, &a.data, sizeof v);
  return v;
}

TEST(IoctlEncoding, HeaderCountsTheAttributesAndLeavesReservedZero) {
  std::uint32_t out = 0;
  const auto attrs = wire::reg_rcv_qp_attrs(7, 0x1234, &out);
  const auto buf = wire::encode_ioctl(UVERBS_OBJECT_XRCD, UVERBS_METHOD_XRCD_REG_RCV_QP, attrs);
  const auto h = wire::decode_ioctl_hdr(buf);
  EXPECT_EQ(h.length, sizeof(ib_uverbs_ioctl_hdr) + 3 * sizeof(ib_uverbs_attr));
  EXPECT_EQ(h.object_id, UVERBS_OBJECT_XRCD);
  EXPECT_EQ(h.method_id, 1);
  EXPECT_EQ(h.num_attrs, 3);
  EXPECT_EQ(h.reserved1, 0U);
  EXPECT_EQ(h.reserved2, 0U);
  EXPECT_EQ(h.driver_id, 0U);
  EXPECT_EQ(buf.size() * 8, h.length);
}

TEST(IoctlEncoding, RegSendsTheXrcdAsAnIdrTheNumberInlineAndAnOutPointer) {
  std::uint32_t out = 0;
  const auto buf = wire::encode_ioctl(UVERBS_OBJECT_XRCD, UVERBS_METHOD_XRCD_REG_RCV_QP,
                                      wire::reg_rcv_qp_attrs(7, 0x1234, &out));
  const auto a = wire::decode_ioctl_attrs(buf);
  ASSERT_EQ(a.size(), 3U);
  EXPECT_EQ(a[0].attr_id, UVERBS_ATTR_REG_RCV_QP_XRCD_HANDLE);
  EXPECT_EQ(a[0].len, 0);
  EXPECT_EQ(a[0].data, 7U);
  EXPECT_EQ(a[1].attr_id, UVERBS_ATTR_REG_RCV_QP_NUM);
  EXPECT_EQ(a[1].len, 4);
  EXPECT_EQ(inline_u32(a[1]), 0x1234U);
  EXPECT_EQ(a[2].attr_id, UVERBS_ATTR_REG_RCV_QP_RESP_NUM);
  EXPECT_EQ(a[2].len, 4);
  EXPECT_EQ(a[2].data, wire::user_ptr(&out));
  for (const auto& x : a) {
    EXPECT_EQ(x.flags, UVERBS_ATTR_F_MANDATORY);
    EXPECT_EQ(x.attr_data.reserved, 0);
  }
}

TEST(IoctlEncoding, RegThatCreatesSendsNoNumberAttribute) {
  std::uint32_t out = 0;
  const auto buf = wire::encode_ioctl(UVERBS_OBJECT_XRCD, UVERBS_METHOD_XRCD_REG_RCV_QP,
                                      wire::create_rcv_qp_attrs(7, &out));
  EXPECT_EQ(wire::decode_ioctl_hdr(buf).num_attrs, 2);
  const auto a = wire::decode_ioctl_attrs(buf);
  ASSERT_EQ(a.size(), 2U);
  EXPECT_EQ(a[0].attr_id, UVERBS_ATTR_REG_RCV_QP_XRCD_HANDLE);
  EXPECT_EQ(a[0].data, 7U);
  EXPECT_EQ(a[1].attr_id, UVERBS_ATTR_REG_RCV_QP_RESP_NUM);
  EXPECT_EQ(a[1].data, wire::user_ptr(&out));
}

TEST(IoctlEncoding, RegByOptionalNumberChoosesTheAttributeSet) {
  std::uint32_t out = 0;
  EXPECT_EQ(wire::reg_rcv_qp_attrs(7, kNewRcvQp, &out).size(), 2U);
  const auto with = wire::reg_rcv_qp_attrs(7, std::optional<std::uint32_t>(0xffffffffU), &out);
  ASSERT_EQ(with.size(), 3U);  // 0xffffffff is a number to register, not "create"
  EXPECT_EQ(with[1].attr_id, UVERBS_ATTR_REG_RCV_QP_NUM);
  EXPECT_EQ(inline_u32(with[1]), 0xffffffffU);
}

TEST(IoctlEncoding, AttributeListsForTheBadInputCases) {
  std::uint32_t out = 0;
  const auto reg = wire::reg_rcv_qp_attrs(7, 0x10, &out);
  const auto without = wire::without_attr(reg, UVERBS_ATTR_REG_RCV_QP_XRCD_HANDLE);
  ASSERT_EQ(without.size(), 2U);
  EXPECT_EQ(without[0].attr_id, UVERBS_ATTR_REG_RCV_QP_NUM);
  const auto extra = wire::ioctl_attr::not_mandatory(wire::ioctl_attr::in_u32(9, 1));
  EXPECT_EQ(extra.flags, 0);
  const auto with = wire::with_attr(reg, extra);
  ASSERT_EQ(with.size(), 4U);
  EXPECT_EQ(with[3].attr_id, 9);
}

TEST(IoctlEncoding, UnregSendsTwoAttributes) {
  const auto a = wire::unreg_rcv_qp_attrs(3, 0x99);
  EXPECT_EQ(a[0].attr_id, UVERBS_ATTR_UNREG_RCV_QP_XRCD_HANDLE);
  EXPECT_EQ(a[0].data, 3U);
  EXPECT_EQ(a[1].attr_id, UVERBS_ATTR_UNREG_RCV_QP_NUM);
  EXPECT_EQ(inline_u32(a[1]), 0x99U);
}

TEST(IoctlEncoding, ModifySendsModifyQpByPointerWithAZeroQpHandle) {
  const auto m = xrc_tgt_to_init();
  const auto body = encode_modify_qp(0, m.attr, m.mask);
  const auto a = wire::modify_rcv_qp_attrs(3, 0x10, &body);
  EXPECT_EQ(a[2].attr_id, UVERBS_ATTR_MODIFY_RCV_QP_ATTR);
  EXPECT_EQ(a[2].len, sizeof(ib_uverbs_modify_qp));
  EXPECT_EQ(a[2].data, wire::user_ptr(&body));
  EXPECT_EQ(body.qp_handle, 0U);
  EXPECT_EQ(body.attr_mask, to_bits(m.mask));
  EXPECT_EQ(body.reserved[0], 0);
  EXPECT_EQ(body.reserved[1], 0);
}

TEST(IoctlEncoding, QuerySendsTheMaskInlineAndTheResponseByPointer) {
  ib_uverbs_query_qp_resp resp{};
  const auto a = wire::query_rcv_qp_attrs(2, 0x77, 0x1, &resp);
  EXPECT_EQ(a[2].attr_id, UVERBS_ATTR_QUERY_RCV_QP_ATTR_MASK);
  EXPECT_EQ(inline_u32(a[2]), 1U);
  EXPECT_EQ(a[3].attr_id, UVERBS_ATTR_QUERY_RCV_QP_RESP);
  EXPECT_EQ(a[3].len, sizeof resp);
  EXPECT_EQ(a[3].data, wire::user_ptr(&resp));
}

TEST(IoctlEncoding, PtrInOfMoreThanEightBytesGoesByPointer) {
  const std::array<std::uint32_t, 3> v{1, 2, 3};
  const auto a = wire::ioctl_attr::in_ptr(5, v.data(), sizeof v);
  EXPECT_EQ(a.len, 12);
  EXPECT_EQ(a.data, wire::user_ptr(v.data()));
  const std::uint64_t small = 0x1122334455667788ULL;
  EXPECT_EQ(wire::ioctl_attr::in_ptr(5, &small, 8).data, small);
}

// /dev/null is no uverbs file: the ioctl fails with ENOTTY, reported as
// the XRCD method's command.  (A pipe would be captured instead, by
// ioctl_capture.c: see capture_test.cpp.)
class IoctlOnDevNull : public ::testing::Test {
 protected:
  void SetUp() override {
    ctx_.emplace(Context::adopt(UniqueFd(::open("/dev/null", O_RDWR | O_CLOEXEC)), UniqueFd()));
    ASSERT_GE(ctx_->cmd_fd(), 0);
  }
  std::optional<Context> ctx_;
};

TEST_F(IoctlOnDevNull, EveryVerbFailsWithTheIoctlsErrnoAndItsMethod) {
  auto r = cmd::reg_xrc_rcv_qp(*ctx_, 1, kNewRcvQp);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().errnum, ENOTTY);
  EXPECT_EQ(r.error().command, kCmdRegXrcRcvQp);
  EXPECT_EQ(r.error().transport, Transport::ioctl);
  EXPECT_EQ(r.error().message(),
            "REG_XRC_RCV_QP (ioctl XRCD method 1): Inappropriate ioctl for device [ENOTTY]");
  EXPECT_EQ(cmd::reg_xrc_rcv_qp(*ctx_, 1, 0x42).error().command, kCmdRegXrcRcvQp);
  EXPECT_EQ(cmd::unreg_xrc_rcv_qp(*ctx_, 1, 2).error().command, kCmdUnregXrcRcvQp);
  const auto m = xrc_tgt_to_init();
  EXPECT_EQ(cmd::modify_xrc_rcv_qp(*ctx_, 1, 2, m.attr, m.mask).error().command,
            kCmdModifyXrcRcvQp);
  EXPECT_EQ(cmd::query_xrc_rcv_qp(*ctx_, 1, 2, QpAttrMask::State).error().message(),
            "QUERY_XRC_RCV_QP (ioctl XRCD method 4): Inappropriate ioctl for device [ENOTTY]");
}

TEST_F(IoctlOnDevNull, VerbsIsRefusedByTheRawCommands) {
  auto r = cmd::reg_xrc_rcv_qp(*ctx_, 1, kNewRcvQp, Transport::verbs);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().errnum, EOPNOTSUPP);
  EXPECT_EQ(r.error().command, kCmdRegXrcRcvQp);
}

TEST(TransportNames, ReadAsTheirInterface) {
  EXPECT_EQ(to_string(Transport::ioctl), "ioctl");
  EXPECT_EQ(to_string(Transport::verbs), "verbs");
}

}  // namespace
