// The library's commands and RAII types, with the command fd replaced by a
// pipe: each test reads back exactly what would have reached the kernel.
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
  template <class T>
  static T as(const Captured& c) {
    T t{};
    std::memcpy(&t, c.body.data(), std::min(sizeof t, c.body.size()));
    return t;
  }

  UniqueFd rd_;
  std::optional<Context> ctx_;
};

TEST_F(CaptureTest, RegSendsTheSentinelWithAResponsePointerAndTwoOutWords) {
  // The pipe writes no response, so the library reports EPROTO.
  EXPECT_EQ(errno_of(cmd::reg_xrc_rcv_qp(*ctx_, 5, IB_UVERBS_XRC_RCV_QPN_NEW)), EPROTO);
  auto c = next();
  ASSERT_TRUE(c);
  EXPECT_EQ(c->hdr.command, 41U);
  EXPECT_EQ(c->hdr.in_words, 6);
  EXPECT_EQ(c->hdr.out_words, 2);
  const auto reg = as<ib_uverbs_reg_xrc_rcv_qp>(*c);
  EXPECT_NE(reg.response, 0U);
  EXPECT_EQ(reg.xrcd_handle, 5U);
  EXPECT_EQ(reg.qp_num, IB_UVERBS_XRC_RCV_QPN_NEW);
}

TEST_F(CaptureTest, QuerySendsZeroReservedAndTheRequestedMask) {
  (void)cmd::query_xrc_rcv_qp(*ctx_, 2, 0x77, QpAttrMask::State);
  auto c = next();
  ASSERT_TRUE(c);
  EXPECT_EQ(c->hdr.command, 44U);
  EXPECT_EQ(c->hdr.out_words, 32);
  const auto q = as<ib_uverbs_query_xrc_rcv_qp>(*c);
  EXPECT_EQ(q.qp_num, 0x77U);
  EXPECT_EQ(q.attr_mask, 1U);
  EXPECT_EQ(q.reserved, 0U);
}

TEST_F(CaptureTest, ModifySendsTheWholeStructWithZeroPadding) {
  const auto m = xrc_tgt_to_init();
  ASSERT_TRUE(cmd::modify_xrc_rcv_qp(*ctx_, 3, 0x10, m.attr, m.mask));
  auto c = next();
  ASSERT_TRUE(c);
  EXPECT_EQ(c->hdr.command, 43U);
  ASSERT_EQ(c->body.size(), 120U);
  EXPECT_EQ(c->body[116], std::byte{0});
  EXPECT_EQ(c->body[119], std::byte{0});
  const auto mod = as<ib_uverbs_modify_xrc_rcv_qp>(*c);
  EXPECT_EQ(mod.xrcd_handle, 3U);
  EXPECT_EQ(mod.qp_num, 0x10U);
  EXPECT_EQ(mod.attr_mask, to_bits(m.mask));
  EXPECT_EQ(mod.qp_state, 1);
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
  EXPECT_EQ(c->hdr.command, 42U);
  const auto u = as<ib_uverbs_unreg_xrc_rcv_qp>(*c);
  EXPECT_EQ(u.xrcd_handle, 7U);
  EXPECT_EQ(u.qp_num, 0x99U);
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
  EXPECT_EQ(c->hdr.command, 42U);
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
  EXPECT_EQ(as<ib_uverbs_unreg_xrc_rcv_qp>(*c).qp_num, 0xaU);
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

TEST_F(CaptureTest, RawSendKeepsGarbageFieldsAndCountsTrailingBytes) {
  ib_uverbs_unreg_xrc_rcv_qp u{};
  u.xrcd_handle = 0xdeadbeef;
  const std::array<std::byte, 8> tail{std::byte{1}};
  ASSERT_TRUE(raw::unreg_xrc_rcv_qp(*ctx_, u, tail));
  auto c = next();
  ASSERT_TRUE(c);
  EXPECT_EQ(c->hdr.in_words, 6);
  EXPECT_EQ(as<ib_uverbs_unreg_xrc_rcv_qp>(*c).xrcd_handle, 0xdeadbeefU);
  EXPECT_EQ(c->body[8], std::byte{1});
}

TEST(CommandErrors, FailedWriteCarriesTheErrnoAndTheCommand) {
  auto ctx = Context::adopt(UniqueFd(::open("/dev/null", O_RDONLY | O_CLOEXEC)), UniqueFd());
  auto r = cmd::unreg_xrc_rcv_qp(ctx, 1, 2);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().errnum, EBADF);
  EXPECT_EQ(r.error().command, 42U);
  EXPECT_EQ(r.error().what, "UNREG_XRC_RCV_QP");
}

TEST(CommandErrors, FailedRegLeavesNothingToUnregister) {
  auto ctx = Context::adopt(UniqueFd(::open("/dev/null", O_RDONLY | O_CLOEXEC)), UniqueFd());
  auto r = RcvQpRegistration::create({ctx.ref(), 1});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().command, 41U);
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
