// Support for the end-to-end tests: they run as root in the QEMU guest
// against the real uverbs ABI on /dev/infiniband/uverbs0 (xrc_sim).
//
// Environment:
//   XRC_E2E_DEVICE       device node (default /dev/infiniband/uverbs0)
//   XRC_SIM_DEBUGFS      xrc_sim debugfs dir (default /sys/kernel/debug/xrc_sim)
//   XRC_E2E_FUZZ_ITERATIONS  fuzzer calls (default 100000)
//   XRC_E2E_STRESS_PROCS / XRC_E2E_STRESS_SECONDS / XRC_E2E_SEED
//   XRC_E2E_REF_BOUND    per-file reference bound, enables the EOVERFLOW test
#pragma once

#include "sim_debugfs.hpp"

#include <xrcrcv/xrcrcv.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <sys/types.h>

namespace xrc_e2e {

using namespace xrcrcv;
using namespace std::chrono_literals;

std::string device_path();
bool device_present();
long env_long(const char* name, long fallback);

// The xrc_sim debugfs (mounted on first use if needed).
xrcrcv::sim::Debugfs& sim();

// Thrown by must() so a failed setup step ends the test with its message.
struct SetupFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

template <class T>
T must(Result<T> r, const char* what) {
  if (!r) throw SetupFailure(std::string(what) + ": " + r.error().message());
  return std::move(*r);
}
inline void must(Status s, const char* what) {
  if (!s) throw SetupFailure(std::string(what) + ": " + s.error().message());
}
#define MUST(expr) ::xrc_e2e::must((expr), #expr)

// gtest check that a result failed with a given errno.
template <class T>
::testing::AssertionResult FailsWith(const std::expected<T, Error>& r, int errnum) {
  if (r) return ::testing::AssertionFailure() << "succeeded, expected " << errno_name(errnum);
  if (r.error().errnum != errnum)
    return ::testing::AssertionFailure()
           << r.error().message() << ", expected " << errno_name(errnum);
  return ::testing::AssertionSuccess();
}
#define EXPECT_ERRNO(expr, e) EXPECT_TRUE(::xrc_e2e::FailsWith((expr), (e)))
#define ASSERT_ERRNO(expr, e) ASSERT_TRUE(::xrc_e2e::FailsWith((expr), (e)))
template <class T>
::testing::AssertionResult Succeeds(const std::expected<T, Error>& r) {
  if (r) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << r.error().message();
}
#define EXPECT_OK(expr) EXPECT_TRUE(::xrc_e2e::Succeeds((expr))) << #expr
#define ASSERT_OK(expr) ASSERT_TRUE(::xrc_e2e::Succeeds((expr))) << #expr

// A fresh path for an XRCD file, removed by the fixture.
std::string temp_xrcd_path();

// The errno for "xrcd_handle not an XRCD of this file": the write command
// answers EINVAL, the ioctl framework's IDR lookup ENOENT (series v3).
[[nodiscard]] constexpr int bad_handle_errno(Transport t) {
  return t == Transport::ioctl ? ENOENT : EINVAL;
}

// One uverbs file with an XRCD opened on a shared file: the common unit of
// these tests ("a file" in abi.md).  The four verbs go over `t`.
struct Peer {
  Context ctx;
  Xrcd xrcd;
  Transport t = Transport::write;
  static Peer open(const std::string& xrcd_file, Transport t = Transport::write);
  [[nodiscard]] std::uint32_t h() const { return xrcd.handle(); }
  [[nodiscard]] Result<std::uint32_t> reg(std::uint32_t qpn) const { return reg_via(h(), qpn); }
  [[nodiscard]] Result<std::uint32_t> create() const { return reg(IB_UVERBS_XRC_RCV_QPN_NEW); }
  [[nodiscard]] Status unreg(std::uint32_t qpn) const { return unreg_via(h(), qpn); }
  [[nodiscard]] Result<QpAttr> query(std::uint32_t qpn) const { return query_via(h(), qpn); }
  [[nodiscard]] Result<QpState> state(std::uint32_t qpn) const;
  [[nodiscard]] Status modify(std::uint32_t qpn, const QpModify& m) const {
    return modify_via(h(), qpn, m);
  }
  // The same through another XRCD handle of this file (or garbage).
  [[nodiscard]] Result<std::uint32_t> reg_via(std::uint32_t xh, std::uint32_t qpn) const {
    return cmd::reg_xrc_rcv_qp(ctx, xh, qpn, t);
  }
  [[nodiscard]] Status unreg_via(std::uint32_t xh, std::uint32_t qpn) const {
    return cmd::unreg_xrc_rcv_qp(ctx, xh, qpn, t);
  }
  [[nodiscard]] Result<QpAttr> query_via(std::uint32_t xh, std::uint32_t qpn) const {
    return cmd::query_xrc_rcv_qp(ctx, xh, qpn, QpAttrMask::AllStandard, t);
  }
  [[nodiscard]] Status modify_via(std::uint32_t xh, std::uint32_t qpn, const QpModify& m) const {
    return cmd::modify_xrc_rcv_qp(ctx, xh, qpn, m.attr, m.mask, t);
  }
  [[nodiscard]] int bad_handle() const { return bad_handle_errno(t); }
  // Drop the XRCD object without CLOSE_XRCD (the file close cleans up).
  void forget_xrcd() { (void)xrcd.release(); }
};

// ------------------------------------------------------------ processes
// Fixed-size message on a SOCK_SEQPACKET pair between a test and a child.
struct Msg {
  std::int32_t tag = 0;
  std::uint32_t a = 0;
  std::uint32_t b = 0;
  std::uint32_t c = 0;
};

class Channel {
 public:
  Channel() = default;
  explicit Channel(int fd) : fd_(fd) {}
  bool send(const Msg& m) const;
  bool send(std::int32_t tag, std::uint32_t a = 0, std::uint32_t b = 0, std::uint32_t c = 0) const {
    return send(Msg{tag, a, b, c});
  }
  // nullopt on timeout or when the other side is gone.
  std::optional<Msg> recv(std::chrono::milliseconds timeout = 20s) const;
  [[nodiscard]] int fd() const { return fd_.get(); }

 private:
  UniqueFd fd_;
};

// In a child: report a failed check on stderr and _exit(99).
[[noreturn]] void child_fail(const char* file, int line, const std::string& what);
#define CHILD_CHECK(cond)                                               \
  do {                                                                  \
    if (!(cond)) ::xrc_e2e::child_fail(__FILE__, __LINE__, #cond);      \
  } while (0)
#define CHILD_OK(expr)                                                  \
  ([&]() -> decltype(auto) {                                            \
    auto xrc_v_ = (expr);                                               \
    if (!xrc_v_) ::xrc_e2e::child_fail(__FILE__, __LINE__,              \
                                       std::string(#expr) + ": " + xrc_v_.error().message()); \
    return xrc_v_;                                                      \
  }())
#define CHILD_ERRNO(expr, e)                                            \
  do {                                                                  \
    auto xrc_v_ = (expr);                                               \
    if (xrc_v_) ::xrc_e2e::child_fail(__FILE__, __LINE__, std::string(#expr) + " succeeded"); \
    if (xrc_v_.error().errnum != (e))                                   \
      ::xrc_e2e::child_fail(__FILE__, __LINE__,                         \
                            std::string(#expr) + ": " + xrc_v_.error().message()); \
  } while (0)

// A forked process.  By default the child closes every inherited
// descriptor but stdio and its channel first, so it shares no uverbs file
// with the test: it opens its own, as a separate process would.
class Child {
 public:
  enum class Fds { CloseInherited, Inherit };
  // fn's return value is the child's exit status.
  static Child spawn(std::function<int(Channel&)> fn, Fds fds = Fds::CloseInherited);

  Child(Child&& o) noexcept;
  Child& operator=(Child&&) = delete;
  ~Child();  // SIGKILL and reap if still running

  [[nodiscard]] pid_t pid() const { return pid_; }
  Channel& channel() { return ch_; }
  void kill(int sig = SIGKILL);
  // Exit status, or 128 + signal number; -1 when it outlives `timeout`.
  int wait(std::chrono::milliseconds timeout = 60s);

 private:
  Child(pid_t pid, Channel ch) : pid_(pid), ch_(std::move(ch)) {}
  pid_t pid_ = -1;
  Channel ch_;
};

// ------------------------------------------------------------- fixture
// Every test starts and ends with the xrc_sim counters at the same values
// (when the counters exist): nothing may leak.
class E2eTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  // Counters, or skip the test if xrc_sim's debugfs is not there.
  long live_qps();
  long live_xrcds();
  bool has_counters() const { return counters_; }
  // Wait (up to 2 s) for live_qps to reach `expected`; returns the last value.
  long wait_live_qps(long expected);

  std::string xrcd_file_;
  long base_qps_ = 0;
  long base_xrcds_ = 0;
  bool counters_ = false;
};

// The suites that run every rule over both transports: TEST_P on a
// fixture derived from this, instantiated with XRC_BOTH_TRANSPORTS(Suite).
// Test names end in /write or /ioctl (scripts/e2e.sh counts them so).
class TransportTest : public E2eTest, public ::testing::WithParamInterface<Transport> {
 protected:
  [[nodiscard]] Transport tr() const { return GetParam(); }
  [[nodiscard]] int bad_handle() const { return bad_handle_errno(tr()); }
  // A new file on this test's XRCD file (or another), over this transport.
  Peer open() const { return Peer::open(xrcd_file_, tr()); }
  Peer open(const std::string& file) const { return Peer::open(file, tr()); }
};

}  // namespace xrc_e2e

namespace xrcrcv {
// gtest prints a failed parameterised test's parameter with this.
inline void PrintTo(Transport t, std::ostream* os) { *os << to_string(t); }
}  // namespace xrcrcv

namespace xrc_e2e {

struct TransportName {
  std::string operator()(const ::testing::TestParamInfo<Transport>& i) const {
    return std::string(to_string(i.param));
  }
};
#define XRC_BOTH_TRANSPORTS(suite)                                                       \
  INSTANTIATE_TEST_SUITE_P(, suite,                                                     \
                           ::testing::Values(::xrcrcv::Transport::write,                \
                                             ::xrcrcv::Transport::ioctl),               \
                           ::xrc_e2e::TransportName())

#define REQUIRE_INJECT()                                                        \
  do {                                                                          \
    if (!::xrc_e2e::sim().has_inject())                                         \
      GTEST_SKIP() << "xrc_sim inject_event not found in " << ::xrc_e2e::sim().dir(); \
  } while (0)
#define REQUIRE_COUNTERS()                                                      \
  do {                                                                          \
    if (!has_counters()) GTEST_SKIP() << "xrc_sim debugfs counters not found";  \
  } while (0)

}  // namespace xrc_e2e
