// abi.md error table, the malformed-input rows: lengths, reserved fields,
// trailing bytes, response pointers.  Nothing may change when a call fails.
#include "support.hpp"

#include <fcntl.h>
#include <sys/mman.h>

namespace xrc_e2e {
namespace {

constexpr std::uint32_t kReg = IB_USER_VERBS_CMD_REG_XRC_RCV_QP;
constexpr std::uint32_t kUnreg = IB_USER_VERBS_CMD_UNREG_XRC_RCV_QP;
constexpr std::uint32_t kModify = IB_USER_VERBS_CMD_MODIFY_XRC_RCV_QP;
constexpr std::uint32_t kQuery = IB_USER_VERBS_CMD_QUERY_XRC_RCV_QP;

// A page the process can read but the kernel cannot write to.
class ReadOnlyPage {
 public:
  ReadOnlyPage() {
    p_ = ::mmap(nullptr, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p_ == MAP_FAILED) throw SetupFailure("mmap");
  }
  ~ReadOnlyPage() { ::munmap(p_, 4096); }
  [[nodiscard]] std::uint64_t addr() const { return wire::user_ptr(p_); }

 private:
  void* p_;
};

// Unwritable response addresses: NULL, a read-only page, a kernel address.
std::vector<std::uint64_t> unwritable(const ReadOnlyPage& ro) {
  return {0, ro.addr(), 0xffffffffff600000ULL};
}

::testing::AssertionResult FailsWithOneOf(const Status& s, std::initializer_list<int> allowed) {
  if (s) return ::testing::AssertionFailure() << "succeeded";
  for (int e : allowed)
    if (s.error().errnum == e) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << s.error().message();
}

class BadInput : public E2eTest {
 protected:
  // Sends `cmd` (header + the first `body` bytes of `s`) with consistent
  // in_words.
  template <class T>
  Status send_prefix(const Peer& p, std::uint32_t command, const T& s, std::size_t body,
                     std::uint16_t out_words) {
    auto bytes = wire::as_bytes(s).first(body);
    return raw::send(p.ctx, command, bytes, out_words);
  }
};

TEST_F(BadInput, CommandShorterThanItsStructIsRejected) {
  REQUIRE_COUNTERS();
  auto a = Peer::open(xrcd_file_);
  auto qpn = MUST(a.create());
  const long before = live_qps();
  ib_uverbs_reg_xrc_rcv_qp_resp resp{};
  ib_uverbs_query_qp_resp qresp{};
  const auto reg = wire::make_reg(a.h(), IB_UVERBS_XRC_RCV_QPN_NEW, &resp);
  const auto unreg = wire::make_unreg(a.h(), qpn);
  const auto mod = encode_modify_xrc_rcv_qp(a.h(), qpn, xrc_tgt_to_init().attr,
                                            xrc_tgt_to_init().mask);
  const auto query = wire::make_query(a.h(), qpn, 0, &qresp);
  EXPECT_TRUE(FailsWithOneOf(send_prefix(a, kReg, reg, 8, 2), {EINVAL, ENOSPC}));
  EXPECT_TRUE(FailsWithOneOf(send_prefix(a, kReg, reg, 12, 2), {EINVAL, ENOSPC}));
  EXPECT_TRUE(FailsWithOneOf(send_prefix(a, kUnreg, unreg, 4, 0), {EINVAL, ENOSPC}));
  EXPECT_TRUE(FailsWithOneOf(send_prefix(a, kModify, mod, 72, 0), {EINVAL, ENOSPC}));
  EXPECT_TRUE(FailsWithOneOf(send_prefix(a, kModify, mod, 112, 0), {EINVAL, ENOSPC}));
  // v3: the struct is 120 bytes with reserved2; v2's 116 is short now
  EXPECT_TRUE(FailsWithOneOf(send_prefix(a, kModify, mod, 116, 0), {EINVAL, ENOSPC}));
  EXPECT_TRUE(FailsWithOneOf(send_prefix(a, kQuery, query, 16, 32), {EINVAL, ENOSPC}));
  EXPECT_EQ(live_qps(), before);
  auto st = a.state(qpn);
  ASSERT_OK(st);
  EXPECT_EQ(*st, QpState::Reset);
  ASSERT_OK(a.unreg(qpn));  // still exactly one reference
  EXPECT_ERRNO(a.unreg(qpn), EINVAL);
}

TEST_F(BadInput, HeaderOnlyWriteIsRejected) {
  auto a = Peer::open(xrcd_file_);
  for (std::uint32_t c : {kReg, kUnreg, kModify, kQuery}) {
    const auto buf = wire::encode(wire::make_hdr(c, 0, 0), {});
    EXPECT_TRUE(FailsWithOneOf(raw::write_bytes(a.ctx, buf), {EINVAL, ENOSPC})) << c;
  }
}

TEST_F(BadInput, WriteShorterThanTheHeaderIsRejected) {
  auto a = Peer::open(xrcd_file_);
  const std::uint32_t partial = kReg;
  EXPECT_ERRNO(raw::write_bytes(a.ctx, wire::as_bytes(partial)), EINVAL);
}

TEST_F(BadInput, InWordsThatDisagreeWithTheWriteLengthAreRejected) {
  REQUIRE_COUNTERS();
  auto a = Peer::open(xrcd_file_);
  const long before = live_qps();
  ib_uverbs_reg_xrc_rcv_qp_resp resp{};
  const auto reg = wire::make_reg(a.h(), IB_UVERBS_XRC_RCV_QPN_NEW, &resp);
  for (int delta : {-1, +1, +100}) {
    auto h = wire::make_hdr(kReg, sizeof reg, sizeof resp);
    h.in_words = static_cast<__u16>(h.in_words + delta);
    EXPECT_ERRNO(raw::write_bytes(a.ctx, wire::encode(h, wire::as_bytes(reg))), EINVAL) << delta;
  }
  EXPECT_EQ(live_qps(), before);
}

TEST_F(BadInput, ZeroTrailingBytesAreAccepted) {
  auto a = Peer::open(xrcd_file_);
  const std::vector<std::byte> zeros(64);
  ib_uverbs_reg_xrc_rcv_qp_resp resp{};
  ASSERT_OK(raw::reg_xrc_rcv_qp(a.ctx, wire::make_reg(a.h(), IB_UVERBS_XRC_RCV_QPN_NEW, &resp),
                                zeros));
  const auto qpn = resp.qp_num;
  ib_uverbs_query_qp_resp qresp{};
  EXPECT_OK(raw::query_xrc_rcv_qp(a.ctx, wire::make_query(a.h(), qpn, 0, &qresp), zeros));
  const auto m = xrc_tgt_to_init();
  EXPECT_OK(raw::modify_xrc_rcv_qp(a.ctx, encode_modify_xrc_rcv_qp(a.h(), qpn, m.attr, m.mask),
                                   zeros));
  EXPECT_OK(raw::unreg_xrc_rcv_qp(a.ctx, wire::make_unreg(a.h(), qpn), zeros));
}

TEST_F(BadInput, NonZeroTrailingBytesAreRejectedByEveryCommand) {
  REQUIRE_COUNTERS();
  auto a = Peer::open(xrcd_file_);
  auto qpn = MUST(a.create());
  const long before = live_qps();
  std::vector<std::byte> tail(16);
  tail[13] = std::byte{1};  // a single bit, not in the first word
  ib_uverbs_reg_xrc_rcv_qp_resp resp{};
  ib_uverbs_query_qp_resp qresp{};
  EXPECT_ERRNO(raw::reg_xrc_rcv_qp(
                   a.ctx, wire::make_reg(a.h(), IB_UVERBS_XRC_RCV_QPN_NEW, &resp), tail),
               EINVAL);
  EXPECT_ERRNO(raw::reg_xrc_rcv_qp(a.ctx, wire::make_reg(a.h(), qpn, &resp), tail), EINVAL);
  EXPECT_ERRNO(raw::unreg_xrc_rcv_qp(a.ctx, wire::make_unreg(a.h(), qpn), tail), EINVAL);
  const auto m = xrc_tgt_to_init();
  EXPECT_ERRNO(raw::modify_xrc_rcv_qp(a.ctx, encode_modify_xrc_rcv_qp(a.h(), qpn, m.attr, m.mask),
                                      tail),
               EINVAL);
  EXPECT_ERRNO(raw::query_xrc_rcv_qp(a.ctx, wire::make_query(a.h(), qpn, 0, &qresp), tail),
               EINVAL);
  EXPECT_EQ(live_qps(), before);
  auto st = a.state(qpn);
  ASSERT_OK(st);
  EXPECT_EQ(*st, QpState::Reset);
  ASSERT_OK(a.unreg(qpn));
  EXPECT_ERRNO(a.unreg(qpn), EINVAL);
}

TEST_F(BadInput, NonZeroQueryReservedIsRejected) {
  auto a = Peer::open(xrcd_file_);
  auto qpn = MUST(a.create());
  ib_uverbs_query_qp_resp qresp{};
  auto q = wire::make_query(a.h(), qpn, 0, &qresp);
  q.reserved = 1;
  EXPECT_ERRNO(raw::query_xrc_rcv_qp(a.ctx, q), EINVAL);
}

TEST_F(BadInput, NonZeroModifyReservedIsRejectedAndTheQpIsUnchanged) {
  auto a = Peer::open(xrcd_file_);
  auto qpn = MUST(a.create());
  const auto m = xrc_tgt_to_init();
  for (int i : {0, 1}) {
    auto c = encode_modify_xrc_rcv_qp(a.h(), qpn, m.attr, m.mask);
    c.reserved[i] = 0x80;
    EXPECT_ERRNO(raw::modify_xrc_rcv_qp(a.ctx, c), EINVAL) << "reserved[" << i << "]";
  }
  for (std::uint32_t v : {1U, 0x100U, 0x80000000U}) {  // v3's explicit reserved2
    auto c = encode_modify_xrc_rcv_qp(a.h(), qpn, m.attr, m.mask);
    c.reserved2 = v;
    EXPECT_ERRNO(raw::modify_xrc_rcv_qp(a.ctx, c), EINVAL) << "reserved2 " << std::hex << v;
  }
  auto st = a.state(qpn);
  ASSERT_OK(st);
  EXPECT_EQ(*st, QpState::Reset);
}

TEST_F(BadInput, UnwritableResponseOnCreateFailsEfaultAndLeavesNoQp) {
  REQUIRE_COUNTERS();
  auto a = Peer::open(xrcd_file_);
  const long before = live_qps();
  ReadOnlyPage ro;
  for (std::uint64_t addr : unwritable(ro)) {
    auto c = wire::make_reg(a.h(), IB_UVERBS_XRC_RCV_QPN_NEW, nullptr);
    c.response = addr;
    EXPECT_ERRNO(raw::reg_xrc_rcv_qp(a.ctx, c), EFAULT) << std::hex << addr;
    EXPECT_EQ(wait_live_qps(before), before) << std::hex << addr;
  }
  EXPECT_OK(a.xrcd.close());  // and no reference was left behind
}

TEST_F(BadInput, UnwritableResponseOnRegisterLeavesNoReference) {
  REQUIRE_COUNTERS();
  const long before = live_qps();
  auto a = Peer::open(xrcd_file_);
  auto b = Peer::open(xrcd_file_);
  auto qpn = MUST(a.create());
  ReadOnlyPage ro;
  for (std::uint64_t addr : unwritable(ro)) {
    auto c = wire::make_reg(b.h(), qpn, nullptr);
    c.response = addr;
    EXPECT_ERRNO(raw::reg_xrc_rcv_qp(b.ctx, c), EFAULT) << std::hex << addr;
  }
  EXPECT_ERRNO(b.unreg(qpn), EINVAL);
  EXPECT_ERRNO(b.query(qpn), EINVAL);
  EXPECT_OK(b.xrcd.close());
  ASSERT_OK(a.unreg(qpn));
  EXPECT_EQ(wait_live_qps(before), before);
}

TEST_F(BadInput, UnwritableQueryResponseFailsEfault) {
  auto a = Peer::open(xrcd_file_);
  auto qpn = MUST(a.create());
  ReadOnlyPage ro;
  for (std::uint64_t addr : unwritable(ro)) {
    auto q = wire::make_query(a.h(), qpn, 0, nullptr);
    q.response = addr;
    EXPECT_ERRNO(raw::query_xrc_rcv_qp(a.ctx, q), EFAULT) << std::hex << addr;
  }
  EXPECT_OK(a.query(qpn));
}

TEST_F(BadInput, ResponseSpaceSmallerThanTheResponseIsRejected) {
  REQUIRE_COUNTERS();
  auto a = Peer::open(xrcd_file_);
  auto qpn = MUST(a.create());
  const long before = live_qps();
  ib_uverbs_reg_xrc_rcv_qp_resp resp{};
  ib_uverbs_query_qp_resp qresp{};
  for (std::uint16_t w : {std::uint16_t{0}, std::uint16_t{1}}) {
    EXPECT_TRUE(FailsWithOneOf(
        raw::reg_xrc_rcv_qp(a.ctx, wire::make_reg(a.h(), IB_UVERBS_XRC_RCV_QPN_NEW, &resp), {}, w),
        {EINVAL, ENOSPC}))
        << w;
  }
  EXPECT_TRUE(FailsWithOneOf(
      raw::query_xrc_rcv_qp(a.ctx, wire::make_query(a.h(), qpn, 0, &qresp), {}, 31),
      {EINVAL, ENOSPC}));
  EXPECT_EQ(live_qps(), before);
}

TEST_F(BadInput, FirstCommandNumberAfterTheNewOnesIsUnknown) {
  auto a = Peer::open(xrcd_file_);
  const std::array<std::byte, 8> body{};
  EXPECT_ERRNO(raw::send(a.ctx, 45, body, 0), EOPNOTSUPP);
}

TEST_F(BadInput, NewCommandsNeedAContextFirst) {
  // A file without GET_CONTEXT has no XRCDs and no references.
  UniqueFd fd(::open(device_path().c_str(), O_RDWR | O_CLOEXEC));
  ASSERT_TRUE(fd);
  const auto ctx = ContextRef{fd.get(), -1, nullptr};
  EXPECT_FALSE(cmd::reg_xrc_rcv_qp(ctx, 0, IB_UVERBS_XRC_RCV_QPN_NEW));
  EXPECT_FALSE(cmd::unreg_xrc_rcv_qp(ctx, 0, 0));
}

}  // namespace
}  // namespace xrc_e2e
