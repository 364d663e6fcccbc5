// Contract: a device without XRC answers the XRC receive-QP verbs with
// EOPNOTSUPP.  Over ioctl the device has no XRCD object, so its methods do
// not exist for it and the framework answers EPROTONOSUPPORT, as for any
// method a kernel lacks (libibverbs turns that into EOPNOTSUPP; with no
// ibv_xrcd to open, its verbs are never reached here).
// These run only in the guest's second pass, with xrc_sim loaded as `insmod xrc_sim.ko xrc=0` and
// XRC_E2E_NO_XRC=1 (tests/guest-run.sh); in the normal pass they skip,
// and tests/e2e-skip-allow.txt says so.
#include "support.hpp"

#include <cstdlib>
#include <fcntl.h>

namespace xrc_e2e {
namespace {

class NoXrc : public TransportTest {
 protected:
  void SetUp() override {
    TransportTest::SetUp();
    if (IsSkipped()) return;
    const char* e = std::getenv("XRC_E2E_NO_XRC");
    if (!e || std::string(e) != "1")
      GTEST_SKIP() << "runs in the xrc=0 pass (XRC_E2E_NO_XRC=1, xrc_sim loaded with xrc=0)";
    auto on = sim::Debugfs::xrc_enabled();
    ASSERT_OK(on);
    ASSERT_FALSE(*on) << "XRC_E2E_NO_XRC=1 but xrc_sim offers XRC";
    ctx_.emplace(MUST(Context::open(device_path())));
  }
  // What the kernel answered, for the log and the report.
  template <class T>
  void note(const char* what, const Result<T>& r) {
    const std::string v = r ? "succeeded" : r.error().message();
    RecordProperty(what, v);
    std::printf("[  NO-XRC  ] %s over %s: %s\n", what, std::string(to_string(tr())).c_str(),
                v.c_str());
  }
  // What a method answers on this device: it has no XRCD object
  [[nodiscard]] static int unsupported() { return EPROTONOSUPPORT; }
  std::optional<Context> ctx_;
};

TEST_P(NoXrc, OpenXrcdIsNotSupported) {
  auto x = Xrcd::open_fd(*ctx_, -1, O_CREAT);
  note("OPEN_XRCD", x);
  EXPECT_ERRNO(x, EOPNOTSUPP);
}

TEST_P(NoXrc, RegOfANewQpIsNotSupported) {
  REQUIRE_COUNTERS();
  const long before = live_qps();
  for (std::uint32_t h : {0U, 1U}) {
    auto r = cmd::reg_xrc_rcv_qp(*ctx_, h, kNewRcvQp, tr());
    note("REG new", r);
    EXPECT_ERRNO(r, unsupported()) << "handle " << h;
  }
  EXPECT_EQ(live_qps(), before);
}

TEST_P(NoXrc, RegOfANumberIsNotSupported) {
  auto r = cmd::reg_xrc_rcv_qp(*ctx_, 0, 0x40, tr());
  note("REG 0x40", r);
  EXPECT_ERRNO(r, unsupported());
}

TEST_P(NoXrc, UnregModifyAndQueryAreNotSupported) {
  auto u = cmd::unreg_xrc_rcv_qp(*ctx_, 0, 0x40, tr());
  note("UNREG", u);
  EXPECT_ERRNO(u, unsupported());
  const auto m = xrc_tgt_to_init();
  auto mo = cmd::modify_xrc_rcv_qp(*ctx_, 0, 0x40, m.attr, m.mask, tr());
  note("MODIFY", mo);
  EXPECT_ERRNO(mo, unsupported());
  auto q = cmd::query_xrc_rcv_qp(*ctx_, 0, 0x40, QpAttrMask::State, tr());
  note("QUERY", q);
  EXPECT_ERRNO(q, unsupported());
}

// Raw only: without XRC there is no ibv_xrcd to call the verbs on
// (ibv_open_xrcd() fails first); the commands go with made-up handles.
XRC_RAW_TRANSPORTS(NoXrc);

}  // namespace
}  // namespace xrc_e2e
