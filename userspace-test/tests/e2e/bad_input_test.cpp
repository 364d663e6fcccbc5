// Series v3's write commands 41-44 are gone in v4: a write() of those
// numbers gets what any command the kernel does not have gets (7.3's
// ib_uverbs_write(): EOPNOTSUPP from uapi_get_method(), before the header
// is even checked), and nothing changes.  The malformed-input rows of the
// contract are ioctl rows now: ioctl_bad_input_test.cpp.
#include "support.hpp"

#include <fcntl.h>

namespace xrc_e2e {
namespace {

class BadInput : public E2eTest {};

TEST_F(BadInput, WriteOfTheFormerCommandNumbersIsAnUnknownCommand) {
  REQUIRE_COUNTERS();
  auto a = Peer::open(xrcd_file_);
  auto qpn = MUST(a.create());
  const long before = live_qps();
  // What v3's REG/UNREG/MODIFY/QUERY looked like: a response pointer or
  // the XRCD handle first, then the number (0xffffffff: v3's "create").
  std::uint32_t resp[32] = {};
  struct {
    std::uint64_t response;
    std::uint32_t xrcd_handle, qp_num;
  } reg{wire::user_ptr(resp), a.h(), 0xffffffffU};
  struct {
    std::uint32_t xrcd_handle, qp_num;
  } unreg{a.h(), qpn};
  std::array<std::byte, 120> modify{};
  std::memcpy(modify.data(), &unreg, sizeof unreg);
  struct {
    std::uint64_t response;
    std::uint32_t xrcd_handle, qp_num, attr_mask, reserved;
  } query{wire::user_ptr(resp), a.h(), qpn, 0, 0};
  EXPECT_ERRNO(raw::send_struct(a.ctx, 41, reg, 2), EOPNOTSUPP);
  EXPECT_ERRNO(raw::send_struct(a.ctx, 42, unreg, 0), EOPNOTSUPP);
  EXPECT_ERRNO(raw::send(a.ctx, 43, modify, 0), EOPNOTSUPP);
  EXPECT_ERRNO(raw::send_struct(a.ctx, 44, query, 32), EOPNOTSUPP);
  EXPECT_EQ(live_qps(), before);
  auto st = a.state(qpn);
  ASSERT_OK(st);
  EXPECT_EQ(*st, QpState::Reset);  // the MODIFY did nothing
  ASSERT_OK(a.unreg(qpn));         // the UNREG did nothing: still one reference
  EXPECT_ERRNO(a.unreg(qpn), EINVAL);
}

TEST_F(BadInput, HeaderOnlyWriteOfTheFormerNumbersIsUnknownToo) {
  auto a = Peer::open(xrcd_file_);
  for (std::uint32_t c : {41U, 42U, 43U, 44U, 45U}) {
    const auto buf = wire::encode(wire::make_hdr(c, 0, 0), {});
    EXPECT_ERRNO(raw::write_bytes(a.ctx, buf), EOPNOTSUPP) << c;
  }
}

TEST_F(BadInput, WriteShorterThanTheHeaderIsRejected) {
  auto a = Peer::open(xrcd_file_);
  const std::uint32_t partial = 41;
  EXPECT_ERRNO(raw::write_bytes(a.ctx, wire::as_bytes(partial)), EINVAL);
}

TEST_F(BadInput, NewMethodsNeedAContextFirst) {
  // A file without GET_CONTEXT has no XRCDs and no references.
  UniqueFd fd(::open(device_path().c_str(), O_RDWR | O_CLOEXEC));
  ASSERT_TRUE(fd);
  const auto ctx = ContextRef{fd.get(), -1, nullptr};
  EXPECT_FALSE(cmd::reg_xrc_rcv_qp(ctx, 0, kNewRcvQp));
  EXPECT_FALSE(cmd::unreg_xrc_rcv_qp(ctx, 0, 0));
}

}  // namespace
}  // namespace xrc_e2e
