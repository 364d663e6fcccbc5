// Malformed ioctls on the XRCD methods: what the ioctl framework refuses
// before the method runs (unknown method, header reserved fields, length,
// driver id, a missing mandatory attribute, a wrong attribute size), and
// the methods' own EFAULT rows.  Nothing may change when a call fails.
// (Suite names start with "Ioctl": scripts/e2e.sh counts them as ioctl.)
#include "support.hpp"

#include <sys/mman.h>

namespace xrc_e2e {
namespace {

constexpr std::uint32_t kReg = IB_USER_VERBS_CMD_REG_XRC_RCV_QP;

class IoctlBadInput : public E2eTest {
 protected:
  Status call(const Peer& p, std::uint16_t method, std::span<const ib_uverbs_attr> attrs) {
    return raw::ioctl(p.ctx, UVERBS_OBJECT_XRCD, method, attrs, kReg);
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
  const auto attrs = wire::reg_rcv_qp_attrs(a.h(), IB_UVERBS_XRC_RCV_QPN_NEW, &out);
  EXPECT_ERRNO(call(a, UVERBS_METHOD_XRCD_QUERY_RCV_QP + 1, attrs), EPROTONOSUPPORT);
}

TEST_F(IoctlBadInput, NonZeroHeaderReservedIsRefused) {
  REQUIRE_COUNTERS();
  auto a = Peer::open(xrcd_file_, Transport::ioctl);
  const long before = live_qps();
  std::uint32_t out = 0;
  const auto attrs = wire::reg_rcv_qp_attrs(a.h(), IB_UVERBS_XRC_RCV_QPN_NEW, &out);
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
  const auto attrs = wire::reg_rcv_qp_attrs(a.h(), IB_UVERBS_XRC_RCV_QPN_NEW, &out);
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
  const auto attrs = wire::reg_rcv_qp_attrs(a.h(), IB_UVERBS_XRC_RCV_QPN_NEW, &out);
  // xrc_sim is RDMA_DRIVER_UNKNOWN (0)
  EXPECT_ERRNO(raw::ioctl(a.ctx, UVERBS_OBJECT_XRCD, UVERBS_METHOD_XRCD_REG_RCV_QP, attrs, kReg,
                          /*driver_id=*/7),
               EINVAL);
}

TEST_F(IoctlBadInput, MissingMandatoryAttributeIsRejected) {
  REQUIRE_COUNTERS();
  auto a = Peer::open(xrcd_file_, Transport::ioctl);
  auto qpn = MUST(a.create());
  const long before = live_qps();
  std::uint32_t out = 0;
  const auto reg = wire::reg_rcv_qp_attrs(a.h(), IB_UVERBS_XRC_RCV_QPN_NEW, &out);
  for (std::size_t drop = 0; drop < reg.size(); ++drop) {
    std::vector<ib_uverbs_attr> v;
    for (std::size_t i = 0; i < reg.size(); ++i)
      if (i != drop) v.push_back(reg[i]);
    EXPECT_ERRNO(call(a, UVERBS_METHOD_XRCD_REG_RCV_QP, v), EINVAL) << "without attr " << drop;
  }
  const auto unreg = wire::unreg_rcv_qp_attrs(a.h(), qpn);
  EXPECT_ERRNO(call(a, UVERBS_METHOD_XRCD_UNREG_RCV_QP, std::span(unreg).first(1)), EINVAL);
  EXPECT_EQ(live_qps(), before);
  ASSERT_OK(a.unreg(qpn));  // still exactly one reference
  EXPECT_ERRNO(a.unreg(qpn), EINVAL);
}

TEST_F(IoctlBadInput, QpNumberOfTheWrongSizeIsRejected) {
  REQUIRE_COUNTERS();
  auto a = Peer::open(xrcd_file_, Transport::ioctl);
  const long before = live_qps();
  std::uint32_t out = 0;
  for (std::uint16_t len : {std::uint16_t{2}, std::uint16_t{8}}) {
    auto attrs = wire::reg_rcv_qp_attrs(a.h(), IB_UVERBS_XRC_RCV_QPN_NEW, &out);
    attrs[1].len = len;
    if (len == 8) attrs[1].data = 0xffffffffULL;
    EXPECT_ERRNO(call(a, UVERBS_METHOD_XRCD_REG_RCV_QP, attrs), EINVAL) << "len " << len;
  }
  EXPECT_EQ(live_qps(), before);
}

TEST_F(IoctlBadInput, UnknownMandatoryAttributeIsRefused) {
  REQUIRE_COUNTERS();
  auto a = Peer::open(xrcd_file_, Transport::ioctl);
  const long before = live_qps();
  std::uint32_t out = 0;
  const auto reg = wire::reg_rcv_qp_attrs(a.h(), IB_UVERBS_XRC_RCV_QPN_NEW, &out);
  std::vector<ib_uverbs_attr> v(reg.begin(), reg.end());
  v.push_back(wire::ioctl_attr::in_u32(9, 1));  // MANDATORY, unknown to the method
  EXPECT_ERRNO(call(a, UVERBS_METHOD_XRCD_REG_RCV_QP, v), EPROTONOSUPPORT);
  EXPECT_EQ(live_qps(), before);
}

TEST_F(IoctlBadInput, UnwritableResponseOnCreateFailsEfaultAndLeavesNoQp) {
  REQUIRE_COUNTERS();
  auto a = Peer::open(xrcd_file_, Transport::ioctl);
  const long before = live_qps();
  ReadOnlyPage ro;
  for (void* p : {static_cast<void*>(nullptr), ro.get()}) {
    auto attrs = wire::reg_rcv_qp_attrs(a.h(), IB_UVERBS_XRC_RCV_QPN_NEW, nullptr);
    attrs[2] = wire::ioctl_attr::out_ptr(UVERBS_ATTR_REG_RCV_QP_RESP_NUM, p, 4);
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
  EXPECT_ERRNO(raw::ioctl(a.ctx, UVERBS_OBJECT_XRCD, UVERBS_METHOD_XRCD_QUERY_RCV_QP, attrs,
                          IB_USER_VERBS_CMD_QUERY_XRC_RCV_QP),
               EFAULT);
  EXPECT_OK(a.query(qpn));
}

// A handle that names no object is ENOENT over ioctl (XrcdHandle.*); one
// that names an object of another type fails the framework's type check
// in rdma_lookup_get_uobject() with EINVAL, over both interfaces.
TEST_F(IoctlBadInput, HandleOfAnotherObjectTypeIsNotAnXrcd) {
  auto a = Peer::open(xrcd_file_, Transport::ioctl);
  auto qpn = MUST(a.create());
  auto h = MUST(cmd::open_qp(a.ctx, a.h(), qpn));  // a QP handle, not an XRCD
  EXPECT_ERRNO(a.reg_via(h.handle, qpn), EINVAL);
  EXPECT_ERRNO(cmd::reg_xrc_rcv_qp(a.ctx, h.handle, qpn, Transport::write), EINVAL);
  EXPECT_OK(cmd::destroy_qp(a.ctx, h.handle));
}

}  // namespace
}  // namespace xrc_e2e
