// The library's commands and RAII types, with the command fd replaced by a
// pipe: each test reads back exactly what would have reached the kernel
// (write commands as written; the XRCD methods' ioctls as ioctl_capture.c
// frames them: a header whose command is the method's, then the ioctl
// buffer).
#include <xrcrcv/xrcrcv.hpp>

#include <gtest/gtest.h>

#include <cerrno>
#include <fcntl.h>
#include <unistd.h>

namespace {

using namespace xrcrcv;

struct Captured {
  ib_uverbs_cmd_hdr hdr{};
  wire::Bytes body;
};

class CaptureTest : public ::testing::Test {
 protected:
  void SetUp() override {
    int p[2];
    ASSERT_EQ(::pipe2(p, O_NONBLOCK), 0);
    rd_.reset(p[0]);
    ctx_.emplace(Context::adopt(UniqueFd(p[1]), UniqueFd()));
  }

  // Next command written to the "device", or nullopt when there is none.
  std::optional<Captured> next() {
    Captured c;
    if (::read(rd_.get(), &c.hdr, sizeof c.hdr) != static_cast<ssize_t>(sizeof c.hdr))
      return std::nullopt;
    c.body.resize(c.hdr.in_words * 4U - sizeof c.hdr);
    if (!c.body.empty() &&
        ::read(rd_.get(), c.body.data(), c.body.size()) != static_cast<ssize_t>(c.body.size()))
      return std::nullopt;
    return c;
  }
  // The ioctl buffer of a captured method call.
  static std::vector<std::uint64_t> ioctl_buffer(const Captured& c) {
    std::vector<std::uint64_t> buf((c.body.size() + 7) / 8);
    std::memcpy(buf.data(), c.body.data(), c.body.size());
    return buf;
  }
  static std::vector<ib_uverbs_attr> attrs(const Captured& c) {
    return wire::decode_ioctl_attrs(ioctl_buffer(c));
  }
  static std::uint32_t inline_u32(const ib_uverbs_attr& a) {
    std::uint32_t v = 0;
    std::memcpy(&v, &a.data, sizeof v);
    return v;
  }
  template <class T>
  static T as(const Captured& c) {
    T t{};
    std::memcpy(&t, c.body.data(), std::min(sizeof t, c.body.size()));
    return t;
  }

  UniqueFd rd_;
  std::optional<Context> ctx_;
};

TEST_F(CaptureTest, RegThatCreatesSendsNoNumberAndAResponsePointer) {
  // Nothing answers on a pipe, so the library reports EPROTO.
  EXPECT_EQ(errno_of(cmd::reg_xrc_rcv_qp(*ctx_, 5, kNewRcvQp)), EPROTO);
  auto c = next();
  ASSERT_TRUE(c);
  EXPECT_EQ(c->hdr.command, kCmdRegXrcRcvQp);
  const auto h = wire::decode_ioctl_hdr(ioctl_buffer(*c));
  EXPECT_EQ(h.object_id, UVERBS_OBJECT_XRCD);
  EXPECT_EQ(h.method_id, UVERBS_METHOD_XRCD_REG_RCV_QP);
  const auto a = attrs(*c);
  ASSERT_EQ(a.size(), 2U);
  EXPECT_EQ(a[0].attr_id, UVERBS_ATTR_REG_RCV_QP_XRCD_HANDLE);
  EXPECT_EQ(a[0].data, 5U);
  EXPECT_EQ(a[1].attr_id, UVERBS_ATTR_REG_RCV_QP_RESP_NUM);
  EXPECT_NE(a[1].data, 0U);
  EXPECT_EQ(a[1].len, 4);
  EXPECT_FALSE(next());
}

TEST_F(CaptureTest, RegOfANumberSendsItEvenWhenItIsAllOnes) {
  (void)cmd::reg_xrc_rcv_qp(*ctx_, 5, 0xffffffffU);
  auto c = next();
  ASSERT_TRUE(c);
  const auto a = attrs(*c);
  ASSERT_EQ(a.size(), 3U);
  EXPECT_EQ(a[1].attr_id, UVERBS_ATTR_REG_RCV_QP_NUM);
  EXPECT_EQ(inline_u32(a[1]), 0xffffffffU);
}

TEST_F(CaptureTest, QuerySendsTheRequestedMask) {
  (void)cmd::query_xrc_rcv_qp(*ctx_, 2, 0x77, QpAttrMask::State);
  auto c = next();
  ASSERT_TRUE(c);
  EXPECT_EQ(c->hdr.command, kCmdQueryXrcRcvQp);
  const auto a = attrs(*c);
  ASSERT_EQ(a.size(), 4U);
  EXPECT_EQ(inline_u32(a[1]), 0x77U);
  EXPECT_EQ(inline_u32(a[2]), 1U);
  EXPECT_EQ(a[3].len, sizeof(ib_uverbs_query_qp_resp));
}

TEST_F(CaptureTest, ModifySendsModifyQpsStructWithAZeroQpHandle) {
  const auto m = xrc_tgt_to_init();
  // Succeeds: nothing is answered for MODIFY (the attribute is read
  // from here while the ioctl runs, so only its pointer is seen).
  ASSERT_TRUE(cmd::modify_xrc_rcv_qp(*ctx_, 3, 0x10, m.attr, m.mask));
  auto c = next();
  ASSERT_TRUE(c);
  EXPECT_EQ(c->hdr.command, kCmdModifyXrcRcvQp);
  const auto a = attrs(*c);
  ASSERT_EQ(a.size(), 3U);
  EXPECT_EQ(a[0].data, 3U);
  EXPECT_EQ(inline_u32(a[1]), 0x10U);
  EXPECT_EQ(a[2].attr_id, UVERBS_ATTR_MODIFY_RCV_QP_ATTR);
  EXPECT_EQ(a[2].len, sizeof(ib_uverbs_modify_qp));
}

TEST_F(CaptureTest, CreateQpForXrcTgtPutsTheXrcdInPdHandleAndAsksNoQueues) {
  (void)cmd::create_qp_xrc_tgt(*ctx_, 9, 0x55);
  auto c = next();
  ASSERT_TRUE(c);
  EXPECT_EQ(c->hdr.command, static_cast<unsigned>(IB_USER_VERBS_CMD_CREATE_QP));
  EXPECT_EQ(c->hdr.out_words, sizeof(ib_uverbs_create_qp_resp) / 4);
  const auto q = as<ib_uverbs_create_qp>(*c);
  EXPECT_EQ(q.pd_handle, 9U);
  EXPECT_EQ(q.qp_type, 10);
  EXPECT_EQ(q.user_handle, 0x55U);
  EXPECT_EQ(q.send_cq_handle, 0U);
  EXPECT_EQ(q.recv_cq_handle, 0U);
  EXPECT_EQ(q.max_recv_wr, 0U);
}

TEST_F(CaptureTest, OpenQpAsksForAnXrcTgtQpByNumberInTheXrcd) {
  (void)cmd::open_qp(*ctx_, 4, 0x321);
  auto c = next();
  ASSERT_TRUE(c);
  EXPECT_EQ(c->hdr.command, static_cast<unsigned>(IB_USER_VERBS_CMD_OPEN_QP));
  const auto q = as<ib_uverbs_open_qp>(*c);
  EXPECT_EQ(q.pd_handle, 4U);
  EXPECT_EQ(q.qpn, 0x321U);
  EXPECT_EQ(q.qp_type, 10);
}

TEST_F(CaptureTest, OpenXrcdPassesTheFileDescriptorAndOflags) {
  (void)cmd::open_xrcd(*ctx_, 17, O_CREAT);
  auto c = next();
  ASSERT_TRUE(c);
  const auto q = as<ib_uverbs_open_xrcd>(*c);
  EXPECT_EQ(q.fd, 17U);
  EXPECT_EQ(q.oflags, static_cast<unsigned>(O_CREAT));
}

TEST_F(CaptureTest, RegistrationUnregistersItsQpWhenDestroyed) {
  {
    auto r = RcvQpRegistration::reg({ctx_->ref(), 7}, 0x99);
    ASSERT_TRUE(r);
    ASSERT_TRUE(next());  // the REG
  }
  auto c = next();
  ASSERT_TRUE(c);
  EXPECT_EQ(c->hdr.command, kCmdUnregXrcRcvQp);
  const auto u = attrs(*c);
  ASSERT_EQ(u.size(), 2U);
  EXPECT_EQ(u[0].data, 7U);
  EXPECT_EQ(inline_u32(u[1]), 0x99U);
  EXPECT_FALSE(next());
}

TEST_F(CaptureTest, ReleasedRegistrationSendsNoUnreg) {
  {
    auto r = RcvQpRegistration::reg({ctx_->ref(), 7}, 0x99);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->release(), 0x99U);
    EXPECT_FALSE(r->owns());
  }
  ASSERT_TRUE(next());  // the REG
  EXPECT_FALSE(next());
}

TEST_F(CaptureTest, MovedRegistrationUnregistersExactlyOnce) {
  {
    auto r = RcvQpRegistration::reg({ctx_->ref(), 1}, 0x5);
    ASSERT_TRUE(r);
    RcvQpRegistration moved = std::move(*r);
    EXPECT_FALSE(r->owns());
    EXPECT_TRUE(moved.owns());
  }
  ASSERT_TRUE(next());  // REG
  auto c = next();
  ASSERT_TRUE(c);
  EXPECT_EQ(c->hdr.command, kCmdUnregXrcRcvQp);
  EXPECT_FALSE(next());
}

TEST_F(CaptureTest, MoveAssignmentUnregistersTheOverwrittenReference) {
  auto a = RcvQpRegistration::reg({ctx_->ref(), 1}, 0xa);
  auto b = RcvQpRegistration::reg({ctx_->ref(), 1}, 0xb);
  ASSERT_TRUE(a && b);
  ASSERT_TRUE(next());
  ASSERT_TRUE(next());
  *a = std::move(*b);
  auto c = next();
  ASSERT_TRUE(c);
  EXPECT_EQ(inline_u32(attrs(*c).at(1)), 0xaU);
  EXPECT_EQ(a->qp_num(), 0xbU);
}

TEST_F(CaptureTest, XrcdSendsCloseXrcdWhenDestroyed) {
  {
    auto x = Xrcd::open_fd(*ctx_, -1, O_CREAT);
    ASSERT_TRUE(x);
    ASSERT_TRUE(next());  // OPEN_XRCD
  }
  auto c = next();
  ASSERT_TRUE(c);
  EXPECT_EQ(c->hdr.command, static_cast<unsigned>(IB_USER_VERBS_CMD_CLOSE_XRCD));
}

TEST_F(CaptureTest, ExplicitlyClosedXrcdIsNotClosedAgain) {
  {
    auto x = Xrcd::open_fd(*ctx_, -1, O_CREAT);
    ASSERT_TRUE(x);
    ASSERT_TRUE(x->close());
  }
  ASSERT_TRUE(next());
  ASSERT_TRUE(next());
  EXPECT_FALSE(next());
}

TEST_F(CaptureTest, RawIoctlKeepsGarbageAndUnknownAttributes) {
  std::uint32_t out = 0;
  const auto extra = wire::ioctl_attr::not_mandatory(wire::ioctl_attr::in_u32(0x77, 1));
  const auto v = wire::with_attr(wire::create_rcv_qp_attrs(0xdeadbeef, &out), extra);
  ASSERT_TRUE(raw::xrcd_method(*ctx_, UVERBS_METHOD_XRCD_REG_RCV_QP, v));
  auto c = next();
  ASSERT_TRUE(c);
  const auto a = attrs(*c);
  ASSERT_EQ(a.size(), 3U);
  EXPECT_EQ(a[0].data, 0xdeadbeefU);
  EXPECT_EQ(a[2].attr_id, 0x77);
  EXPECT_EQ(a[2].flags, 0);
}

TEST_F(CaptureTest, RawSendKeepsGarbageFieldsAndCountsTrailingBytes) {
  ib_uverbs_close_xrcd u{};
  u.xrcd_handle = 0xdeadbeef;
  const std::array<std::byte, 8> tail{std::byte{1}};
  ASSERT_TRUE(raw::send_struct(*ctx_, IB_USER_VERBS_CMD_CLOSE_XRCD, u, 0, tail));
  auto c = next();
  ASSERT_TRUE(c);
  EXPECT_EQ(c->hdr.in_words, (8 + sizeof u + 8) / 4);
  EXPECT_EQ(as<ib_uverbs_close_xrcd>(*c).xrcd_handle, 0xdeadbeefU);
  EXPECT_EQ(c->body[sizeof u], std::byte{1});
}

TEST(CommandErrors, FailedWriteCarriesTheErrnoAndTheCommand) {
  auto ctx = Context::adopt(UniqueFd(::open("/dev/null", O_RDONLY | O_CLOEXEC)), UniqueFd());
  auto r = cmd::close_xrcd(ctx, 1);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().errnum, EBADF);
  EXPECT_EQ(r.error().command, static_cast<unsigned>(IB_USER_VERBS_CMD_CLOSE_XRCD));
  EXPECT_EQ(r.error().what, "CLOSE_XRCD");
}

TEST(CommandErrors, FailedIoctlCarriesTheErrnoAndTheMethod) {
  auto ctx = Context::adopt(UniqueFd(::open("/dev/null", O_RDONLY | O_CLOEXEC)), UniqueFd());
  auto r = cmd::unreg_xrc_rcv_qp(ctx, 1, 2);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().errnum, ENOTTY);
  EXPECT_EQ(r.error().command, kCmdUnregXrcRcvQp);
  EXPECT_EQ(r.error().what, "UNREG_XRC_RCV_QP");
}

TEST(CommandErrors, FailedRegLeavesNothingToUnregister) {
  auto ctx = Context::adopt(UniqueFd(::open("/dev/null", O_RDONLY | O_CLOEXEC)), UniqueFd());
  auto r = RcvQpRegistration::create({ctx.ref(), 1});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().command, kCmdRegXrcRcvQp);
}

TEST(CommandErrors, FailedExplicitUnregKeepsOwnership) {
  auto ctx = Context::adopt(UniqueFd(::open("/dev/null", O_RDONLY | O_CLOEXEC)), UniqueFd());
  auto r = RcvQpRegistration::adopt({ctx.ref(), 1}, 3);
  EXPECT_FALSE(r.unreg());
  EXPECT_TRUE(r.owns());
  r.release();
}

TEST(ContextOpen, MissingDeviceFailsWithOpenAndEnoent) {
  auto c = Context::open("/nonexistent/uverbs0");
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().errnum, ENOENT);
  EXPECT_EQ(c.error().what, "open");
}

TEST(ContextOpen, FileThatSwallowsWritesIsRejectedAtGetContext) {
  auto c = Context::open("/dev/null");
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().command, static_cast<unsigned>(IB_USER_VERBS_CMD_GET_CONTEXT));
  EXPECT_EQ(c.error().errnum, EPROTO);
}

TEST(DeviceList, NamesDevicesUnderTheDirectory) {
  EXPECT_EQ(Device::index(3).path(), "/dev/infiniband/uverbs3");
  EXPECT_TRUE(Device::list("/nonexistent").empty());
  EXPECT_FALSE(Device("/nonexistent").exists());
}

}  // namespace
