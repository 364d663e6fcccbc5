// Malformed ioctls on the XRCD methods: what the ioctl framework refuses
// before the method runs (unknown method, header reserved fields, length,
// driver id, a missing mandatory attribute, an unknown mandatory one, an
// IDR of the wrong type, a wrong attribute size, attribute reserved
// fields, trailing bytes), what it lets through (an unknown optional
// attribute, zero trailing bytes), and the methods' own EFAULT rows.
// Nothing may change when a call fails.
#include "support.hpp"

#include <sys/mman.h>

namespace xrc_e2e {
namespace {

constexpr std::uint32_t kReg = kCmdRegXrcRcvQp;

class IoctlBadInput : public E2eTest {
 protected:
  Status call(const Peer& p, std::uint16_t method, std::span<const ib_uverbs_attr> attrs) {
    return raw::xrcd_method(p.ctx, method, attrs);
  }
};

class ReadOnlyPage {
 public:
  ReadOnlyPage() {
    p_ = ::mmap(nullptr, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p_ == MAP_FAILED) throw SetupFailure("mmap");
  }
  ~ReadOnlyPage() { ::munmap(p_, 4096); }
  [[nodiscard]] void* get() const { return p_; }

 private:
  void* p_;
};

TEST_F(IoctlBadInput, MethodAfterTheNewOnesIsUnknown) {
  auto a = Peer::open(xrcd_file_, Transport::ioctl);
  std::uint32_t out = 0;
  const auto attrs = wire::create_rcv_qp_attrs(a.h(), &out);
  EXPECT_ERRNO(call(a, UVERBS_METHOD_XRCD_QUERY_RCV_QP + 1, attrs), EPROTONOSUPPORT);
}

TEST_F(IoctlBadInput, NonZeroHeaderReservedIsRefused) {
  REQUIRE_COUNTERS();
  auto a = Peer::open(xrcd_file_, Transport::ioctl);
  const long before = live_qps();
  std::uint32_t out = 0;
  const auto attrs = wire::create_rcv_qp_attrs(a.h(), &out);
  for (int which : {1, 2}) {
    auto buf = wire::encode_ioctl(UVERBS_OBJECT_XRCD, UVERBS_METHOD_XRCD_REG_RCV_QP, attrs);
    auto h = wire::decode_ioctl_hdr(buf);
    if (which == 1)
      h.reserved1 = 1;
    else
      h.reserved2 = 1;
    std::memcpy(buf.data(), &h, sizeof h);
    EXPECT_ERRNO(raw::ioctl_buffer(a.ctx, buf, kReg), EPROTONOSUPPORT) << "reserved" << which;
  }
  EXPECT_EQ(live_qps(), before);
}

TEST_F(IoctlBadInput, LengthThatDisagreesWithNumAttrsIsRejected) {
  REQUIRE_COUNTERS();
  auto a = Peer::open(xrcd_file_, Transport::ioctl);
  const long before = live_qps();
  std::uint32_t out = 0;
  const auto attrs = wire::create_rcv_qp_attrs(a.h(), &out);
  for (int delta : {-16, +16}) {
    auto buf = wire::encode_ioctl(UVERBS_OBJECT_XRCD, UVERBS_METHOD_XRCD_REG_RCV_QP, attrs);
    buf.resize(buf.size() + 2);
    auto h = wire::decode_ioctl_hdr(buf);
    h.length = static_cast<__u16>(h.length + delta);
    std::memcpy(buf.data(), &h, sizeof h);
    EXPECT_ERRNO(raw::ioctl_buffer(a.ctx, buf, kReg), EINVAL) << delta;
  }
  EXPECT_EQ(live_qps(), before);
}

TEST_F(IoctlBadInput, AnotherDriversIdIsRejected) {
  auto a = Peer::open(xrcd_file_, Transport::ioctl);
  std::uint32_t out = 0;
  const auto attrs = wire::create_rcv_qp_attrs(a.h(), &out);
  // xrc_sim is RDMA_DRIVER_UNKNOWN (0)
  EXPECT_ERRNO(raw::ioctl(a.ctx, UVERBS_OBJECT_XRCD, UVERBS_METHOD_XRCD_REG_RCV_QP, attrs, kReg,
                          /*driver_id=*/7),
               EINVAL);
}

// Every attribute but REG's number is mandatory: without one, the
// framework refuses the call (EINVAL) before the method runs.  (REG
// without its number is no error: it creates, RegisterNewRaw.*.)
TEST_F(IoctlBadInput, MissingMandatoryAttributeIsRejected) {
  REQUIRE_COUNTERS();
  auto a = Peer::open(xrcd_file_, Transport::ioctl);
  auto qpn = MUST(a.create());
  const long before = live_qps();
  std::uint32_t out = 0;
  ib_uverbs_query_qp_resp resp{};
  const auto body = encode_modify_qp(0, xrc_tgt_to_init().attr, xrc_tgt_to_init().mask);
  const auto reg = wire::reg_rcv_qp_attrs(a.h(), qpn, &out);
  const auto unreg = wire::unreg_rcv_qp_attrs(a.h(), qpn);
  const auto modify = wire::modify_rcv_qp_attrs(a.h(), qpn, &body);
  const auto query = wire::query_rcv_qp_attrs(a.h(), qpn, 0, &resp);
  for (std::uint16_t id : {UVERBS_ATTR_REG_RCV_QP_XRCD_HANDLE, UVERBS_ATTR_REG_RCV_QP_RESP_NUM}) {
    EXPECT_ERRNO(call(a, UVERBS_METHOD_XRCD_REG_RCV_QP, wire::without_attr(reg, id)), EINVAL)
        << "REG without attr " << id;
    EXPECT_ERRNO(call(a, UVERBS_METHOD_XRCD_REG_RCV_QP,
                      wire::without_attr(wire::create_rcv_qp_attrs(a.h(), &out), id)),
                 EINVAL)
        << "create without attr " << id;
  }
  for (const auto& x : unreg)
    EXPECT_ERRNO(call(a, UVERBS_METHOD_XRCD_UNREG_RCV_QP, wire::without_attr(unreg, x.attr_id)),
                 EINVAL)
        << "UNREG without attr " << x.attr_id;
  for (const auto& x : modify)
    EXPECT_ERRNO(
        call(a, UVERBS_METHOD_XRCD_MODIFY_RCV_QP, wire::without_attr(modify, x.attr_id)), EINVAL)
        << "MODIFY without attr " << x.attr_id;
  for (const auto& x : query)
    EXPECT_ERRNO(call(a, UVERBS_METHOD_XRCD_QUERY_RCV_QP, wire::without_attr(query, x.attr_id)),
                 EINVAL)
        << "QUERY without attr " << x.attr_id;
  EXPECT_EQ(live_qps(), before);
  auto st = a.state(qpn);
  ASSERT_OK(st);
  EXPECT_EQ(*st, QpState::Reset);
  ASSERT_OK(a.unreg(qpn));  // still exactly one reference
  EXPECT_ERRNO(a.unreg(qpn), EINVAL);
}

TEST_F(IoctlBadInput, QpNumberOfTheWrongSizeIsRejected) {
  REQUIRE_COUNTERS();
  auto a = Peer::open(xrcd_file_, Transport::ioctl);
  std::uint32_t out = 0;
  auto qpn = MUST(a.create());
  const long before = live_qps();
  for (std::uint16_t len : {std::uint16_t{2}, std::uint16_t{8}}) {
    auto attrs = wire::reg_rcv_qp_attrs(a.h(), qpn, &out);
    attrs[1].len = len;
    if (len == 8) attrs[1].data = qpn;
    EXPECT_ERRNO(call(a, UVERBS_METHOD_XRCD_REG_RCV_QP, attrs), EINVAL) << "len " << len;
  }
  EXPECT_EQ(live_qps(), before);
}

TEST_F(IoctlBadInput, UnknownMandatoryAttributeIsRefused) {
  REQUIRE_COUNTERS();
  auto a = Peer::open(xrcd_file_, Transport::ioctl);
  const long before = live_qps();
  std::uint32_t out = 0;
  const auto reg = wire::create_rcv_qp_attrs(a.h(), &out);
  std::vector<ib_uverbs_attr> v(reg.begin(), reg.end());
  v.push_back(wire::ioctl_attr::in_u32(9, 1));  // MANDATORY, unknown to the method
  EXPECT_ERRNO(call(a, UVERBS_METHOD_XRCD_REG_RCV_QP, v), EPROTONOSUPPORT);
  EXPECT_EQ(live_qps(), before);
  auto qpn = MUST(a.create());
  EXPECT_ERRNO(call(a, UVERBS_METHOD_XRCD_UNREG_RCV_QP,
                    wire::with_attr(wire::unreg_rcv_qp_attrs(a.h(), qpn),
                                    wire::ioctl_attr::in_u32(9, 1))),
               EPROTONOSUPPORT);
  ASSERT_OK(a.unreg(qpn));  // the refused UNREG dropped nothing
  EXPECT_EQ(wait_live_qps(before), before);
}

// The same unknown attribute without UVERBS_ATTR_F_MANDATORY is ignored,
// as the framework ignores any optional attribute it does not know.
TEST_F(IoctlBadInput, UnknownOptionalAttributeIsIgnored) {
  REQUIRE_COUNTERS();
  auto a = Peer::open(xrcd_file_, Transport::ioctl);
  const long before = live_qps();
  std::uint32_t out = 0xffffffffU;
  const auto extra = wire::ioctl_attr::not_mandatory(wire::ioctl_attr::in_u32(9, 1));
  ASSERT_OK(call(a, UVERBS_METHOD_XRCD_REG_RCV_QP,
                 wire::with_attr(wire::create_rcv_qp_attrs(a.h(), &out), extra)));
  EXPECT_LT(out, 1U << 24);
  EXPECT_EQ(live_qps(), before + 1);
  ib_uverbs_query_qp_resp resp{};
  EXPECT_OK(call(a, UVERBS_METHOD_XRCD_QUERY_RCV_QP,
                 wire::with_attr(wire::query_rcv_qp_attrs(a.h(), out, 0, &resp), extra)));
  ASSERT_OK(call(a, UVERBS_METHOD_XRCD_UNREG_RCV_QP,
                 wire::with_attr(wire::unreg_rcv_qp_attrs(a.h(), out), extra)));
  EXPECT_EQ(wait_live_qps(before), before);
}

// An attribute's reserved field must be zero (the framework: EINVAL).
TEST_F(IoctlBadInput, NonZeroAttributeReservedIsRejected) {
  REQUIRE_COUNTERS();
  auto a = Peer::open(xrcd_file_, Transport::ioctl);
  auto qpn = MUST(a.create());
  const long before = live_qps();
  std::uint32_t out = 0;
  for (std::size_t i = 0; i < 3; ++i) {
    auto attrs = wire::reg_rcv_qp_attrs(a.h(), qpn, &out);
    attrs[i].attr_data.reserved = 1;
    EXPECT_ERRNO(call(a, UVERBS_METHOD_XRCD_REG_RCV_QP, attrs), EINVAL) << "attr " << i;
  }
  EXPECT_EQ(live_qps(), before);
  ASSERT_OK(a.unreg(qpn));  // still exactly one reference
  EXPECT_ERRNO(a.unreg(qpn), EINVAL);
}

// MODIFY's attribute is MODIFY_QP's struct; bytes after it must be zero
// (UVERBS_ATTR_STRUCT: zero ones are accepted, others refused with
// EOPNOTSUPP), as for every extensible struct of the ioctl methods.
TEST_F(IoctlBadInput, BytesAfterTheModifyStructMustBeZero) {
  auto a = Peer::open(xrcd_file_, Transport::ioctl);
  auto qpn = MUST(a.create());
  struct Longer {
    ib_uverbs_modify_qp m;
    std::uint64_t tail[2];
  } body{};
  body.m = encode_modify_qp(0, xrc_tgt_to_init().attr, xrc_tgt_to_init().mask);
  auto attrs = wire::modify_rcv_qp_attrs(a.h(), qpn, &body.m);
  attrs[2] = wire::ioctl_attr::in_ptr(UVERBS_ATTR_MODIFY_RCV_QP_ATTR, &body, sizeof body);
  body.tail[1] = 1ULL << 40;
  EXPECT_ERRNO(call(a, UVERBS_METHOD_XRCD_MODIFY_RCV_QP, attrs), EOPNOTSUPP);
  auto st = a.state(qpn);
  ASSERT_OK(st);
  EXPECT_EQ(*st, QpState::Reset);
  body.tail[1] = 0;
  ASSERT_OK(call(a, UVERBS_METHOD_XRCD_MODIFY_RCV_QP, attrs));
  st = a.state(qpn);
  ASSERT_OK(st);
  EXPECT_EQ(*st, QpState::Init);
}

// A PTR_OUT shorter than the answer is refused (EINVAL) before the method
// runs: no QP, no reference.
TEST_F(IoctlBadInput, ResponseSpaceSmallerThanTheResponseIsRejected) {
  REQUIRE_COUNTERS();
  auto a = Peer::open(xrcd_file_, Transport::ioctl);
  auto qpn = MUST(a.create());
  const long before = live_qps();
  std::uint32_t out = 0;
  for (std::uint16_t len : {std::uint16_t{0}, std::uint16_t{2}}) {
    auto c = wire::create_rcv_qp_attrs(a.h(), &out);
    c[1].len = len;
    EXPECT_ERRNO(call(a, UVERBS_METHOD_XRCD_REG_RCV_QP, c), EINVAL) << "create, len " << len;
  }
  ib_uverbs_query_qp_resp resp{};
  auto q = wire::query_rcv_qp_attrs(a.h(), qpn, 0, &resp);
  q[3].len = sizeof resp - 1;
  EXPECT_ERRNO(call(a, UVERBS_METHOD_XRCD_QUERY_RCV_QP, q), EINVAL);
  EXPECT_EQ(live_qps(), before);
}

TEST_F(IoctlBadInput, UnwritableResponseOnCreateFailsEfaultAndLeavesNoQp) {
  REQUIRE_COUNTERS();
  auto a = Peer::open(xrcd_file_, Transport::ioctl);
  const long before = live_qps();
  ReadOnlyPage ro;
  for (void* p : {static_cast<void*>(nullptr), ro.get()}) {
    auto attrs = wire::create_rcv_qp_attrs(a.h(), nullptr);
    attrs[1] = wire::ioctl_attr::out_ptr(UVERBS_ATTR_REG_RCV_QP_RESP_NUM, p, 4);
    EXPECT_ERRNO(call(a, UVERBS_METHOD_XRCD_REG_RCV_QP, attrs), EFAULT) << p;
    EXPECT_EQ(wait_live_qps(before), before) << p;
  }
  EXPECT_OK(a.xrcd.close());  // and no reference was left behind
}

TEST_F(IoctlBadInput, UnwritableResponseOnRegisterLeavesNoReference) {
  auto a = Peer::open(xrcd_file_, Transport::ioctl);
  auto b = Peer::open(xrcd_file_, Transport::ioctl);
  auto qpn = MUST(a.create());
  ReadOnlyPage ro;
  auto attrs = wire::reg_rcv_qp_attrs(b.h(), qpn, nullptr);
  attrs[2] = wire::ioctl_attr::out_ptr(UVERBS_ATTR_REG_RCV_QP_RESP_NUM, ro.get(), 4);
  EXPECT_ERRNO(call(b, UVERBS_METHOD_XRCD_REG_RCV_QP, attrs), EFAULT);
  EXPECT_ERRNO(b.unreg(qpn), EINVAL);
  EXPECT_OK(b.xrcd.close());
}

TEST_F(IoctlBadInput, UnwritableQueryResponseFailsEfault) {
  auto a = Peer::open(xrcd_file_, Transport::ioctl);
  auto qpn = MUST(a.create());
  ReadOnlyPage ro;
  auto attrs = wire::query_rcv_qp_attrs(a.h(), qpn, 0, nullptr);
  attrs[3] = wire::ioctl_attr::out_ptr(UVERBS_ATTR_QUERY_RCV_QP_RESP, ro.get(),
                                       sizeof(ib_uverbs_query_qp_resp));
  EXPECT_ERRNO(call(a, UVERBS_METHOD_XRCD_QUERY_RCV_QP, attrs), EFAULT);
  EXPECT_OK(a.query(qpn));
}

// A handle that names no object is ENOENT (XrcdHandleRaw.*); one that
// names an object of another type (a QP handle where the XRCD is
// expected) fails the framework's type check in rdma_lookup_get_uobject()
// with EINVAL, for every method, and changes nothing.
TEST_F(IoctlBadInput, HandleOfAnotherObjectTypeIsNotAnXrcd) {
  REQUIRE_COUNTERS();
  auto a = Peer::open(xrcd_file_, Transport::ioctl);
  auto qpn = MUST(a.create());
  auto h = MUST(cmd::open_qp(a.ctx, a.h(), qpn));  // a QP handle, not an XRCD
  const long before = live_qps();
  EXPECT_ERRNO(a.reg_via(h.handle, qpn), EINVAL);
  EXPECT_ERRNO(a.reg_via(h.handle, kNewRcvQp), EINVAL);
  EXPECT_ERRNO(a.unreg_via(h.handle, qpn), EINVAL);
  EXPECT_ERRNO(a.query_via(h.handle, qpn), EINVAL);
  EXPECT_ERRNO(a.modify_via(h.handle, qpn, xrc_tgt_to_init()), EINVAL);
  EXPECT_EQ(live_qps(), before);
  EXPECT_OK(cmd::destroy_qp(a.ctx, h.handle));
  auto st = a.state(qpn);
  ASSERT_OK(st);
  EXPECT_EQ(*st, QpState::Reset);
  ASSERT_OK(a.unreg(qpn));  // still exactly one reference
  EXPECT_ERRNO(a.unreg(qpn), EINVAL);
}

}  // namespace
}  // namespace xrc_e2e
