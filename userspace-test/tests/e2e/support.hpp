// Support for the end-to-end tests: they run as root in the QEMU guest
// against the real uverbs ABI on /dev/infiniband/uverbs0 (xrc_sim).
//
// Environment:
//   XRC_E2E_DEVICE       device node (default /dev/infiniband/uverbs0)
//   XRC_SIM_DEBUGFS      xrc_sim debugfs dir (default /sys/kernel/debug/xrc_sim)
//   XRC_E2E_FUZZ_ITERATIONS  fuzzer calls (default 100000)
//   XRC_E2E_STRESS_PROCS / XRC_E2E_STRESS_SECONDS / XRC_E2E_SEED
//   XRC_E2E_REF_BOUND    per-file reference bound, enables the EOVERFLOW test
//   XRC_E2E_VERBS_DEVICE libibverbs device of the /verbs cases (default: the first)
#pragma once

#include "sim_debugfs.hpp"

#include <xrcrcv/xrcrcv.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <sys/types.h>
#include <vector>

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

// The errno for "xrcd_handle names no object of this file": the ioctl
// framework's IDR lookup answers ENOENT.  (A handle of an object of
// another type fails its type check with EINVAL.  libibverbs names an XRCD
// by its ibv_xrcd, so no case sends it a bad handle: those cases are
// raw-only.)
inline constexpr int kBadHandleErrno = ENOENT;

// Transport::verbs lives in support_verbs.cpp, built only against a
// libibverbs with the new verbs (XRC_E2E_VERBS); these are its objects,
// opaque here so that this header needs no libibverbs.
struct VerbsFile;  // an ibv_context from ibv_open_device()
struct VerbsXrcd;  // an ibv_xrcd from ibv_open_xrcd()
struct VerbsFileClose {
  void operator()(VerbsFile* f) const noexcept;
};
struct VerbsXrcdClose {
  void operator()(VerbsXrcd* x) const noexcept;
};
using VerbsFilePtr = std::unique_ptr<VerbsFile, VerbsFileClose>;
using VerbsXrcdPtr = std::unique_ptr<VerbsXrcd, VerbsXrcdClose>;

// An XRCD handle of a Peer's file, over the Peer's transport: OPEN_XRCD
// (a write command) for ioctl, ibv_open_xrcd() over verbs.  Closes in its
// destructor; close() reports (EBUSY while the file holds references).
class PeerXrcd {
 public:
  explicit PeerXrcd(Xrcd x) : raw_(std::move(x)) {}
  explicit PeerXrcd(VerbsXrcdPtr v) : verbs_(std::move(v)) {}

  [[nodiscard]] Status close();
  [[nodiscard]] bool owns() const;
  // Stop owning without closing: the file's close cleans up.
  void release();
  // The kernel handle, raw (ioctl) only (libibverbs keeps its own
  // private): for the raw-only cases.
  [[nodiscard]] std::uint32_t handle() const { return raw().handle(); }
  [[nodiscard]] const Xrcd& raw() const;
  [[nodiscard]] VerbsXrcd& verbs() const;

 private:
  std::optional<Xrcd> raw_;
  VerbsXrcdPtr verbs_;
};

// One uverbs file with an XRCD opened on a shared file: the common unit of
// these tests ("a file" in abi.md).  The four verbs go over `t`; over
// verbs, the file is an ibv_context and its XRCD an ibv_xrcd.
struct Peer {
  Transport t = Transport::ioctl;
  // ioctl: our own uverbs file.  A verbs Peer has none (an empty
  // Context): the cases that send raw commands on a.ctx are raw-only.
  Context ctx;
  VerbsFilePtr vfile;  // verbs: the ibv_context (outlives xrcd: declared first)
  PeerXrcd xrcd;

  static Peer open(const std::string& xrcd_file, Transport t = Transport::ioctl);
  [[nodiscard]] std::uint32_t h() const { return xrcd.handle(); }
  // REG of a number (kNewRcvQp: create; over verbs that is
  // IBV_XRC_RCV_QPN_NEW, libibverbs' own "create" number).
  [[nodiscard]] Result<std::uint32_t> reg(std::optional<std::uint32_t> qpn) const {
    return reg_on(xrcd, qpn);
  }
  [[nodiscard]] Result<std::uint32_t> create() const { return reg(kNewRcvQp); }
  [[nodiscard]] Status unreg(std::uint32_t qpn) const { return unreg_on(xrcd, qpn); }
  [[nodiscard]] Result<QpAttr> query(std::uint32_t qpn) const { return query_on(xrcd, qpn); }
  [[nodiscard]] Result<QpState> state(std::uint32_t qpn) const;
  [[nodiscard]] Status modify(std::uint32_t qpn, const QpModify& m) const {
    return modify_on(xrcd, qpn, m);
  }

  // Another XRCD handle of this file (the same XRCD if `file` is the same).
  [[nodiscard]] PeerXrcd open_xrcd(const std::string& file) const;
  // The verbs through one of this file's XRCD handles, over any transport.
  [[nodiscard]] Result<std::uint32_t> reg_on(const PeerXrcd& x,
                                             std::optional<std::uint32_t> qpn) const;
  [[nodiscard]] Status unreg_on(const PeerXrcd& x, std::uint32_t qpn) const;
  [[nodiscard]] Result<QpAttr> query_on(const PeerXrcd& x, std::uint32_t qpn,
                                        QpAttrMask mask = QpAttrMask::AllStandard) const;
  [[nodiscard]] Status modify_on(const PeerXrcd& x, std::uint32_t qpn, const QpModify& m) const;

  // Raw only: the same through any handle number (garbage included).
  [[nodiscard]] Result<std::uint32_t> reg_via(std::uint32_t xh,
                                              std::optional<std::uint32_t> qpn) const {
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

  // The file's async events: read(2) of the async fd over ioctl;
  // ibv_get_async_event() + ibv_ack_async_event() over verbs.
  [[nodiscard]] Result<std::vector<AsyncEvent>> events(std::chrono::milliseconds wait) const;
  [[nodiscard]] Result<std::optional<AsyncEvent>> next_event(std::chrono::milliseconds wait) const;

  // Drop the XRCD object without CLOSE_XRCD (the file close cleans up).
  void forget_xrcd() { xrcd.release(); }
  // Give up this process's share of the file (close(2) or
  // ibv_close_device()); 0 or the errno.  Forgets the XRCD first.
  [[nodiscard]] int close_file();
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

// The suites that run every rule over every transport: TEST_P on a
// fixture derived from this, instantiated with XRC_ALL_TRANSPORTS(Suite)
// (ioctl, and verbs when built against the patched libibverbs), or
// XRC_RAW_TRANSPORTS(Suite) for the cases that need the raw ABI (ioctl
// only).  Test names end in /ioctl or /verbs (scripts/e2e.sh and
// rdma-core/guest.sh count them so).
class TransportTest : public E2eTest, public ::testing::WithParamInterface<Transport> {
 protected:
  [[nodiscard]] Transport tr() const { return GetParam(); }
  [[nodiscard]] static int bad_handle() { return kBadHandleErrno; }
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
// Raw-only: cases that by nature need the raw ABI (handles, bytes,
// attributes libibverbs never sends) or a raw command beside the verbs.
#define XRC_RAW_TRANSPORTS(suite)                                                        \
  INSTANTIATE_TEST_SUITE_P(, suite, ::testing::Values(::xrcrcv::Transport::ioctl),      \
                           ::xrc_e2e::TransportName())
#ifdef XRC_E2E_VERBS
#define XRC_ALL_TRANSPORTS(suite)                                                        \
  INSTANTIATE_TEST_SUITE_P(, suite,                                                     \
                           ::testing::Values(::xrcrcv::Transport::ioctl,                \
                                             ::xrcrcv::Transport::verbs),               \
                           ::xrc_e2e::TransportName())
#else
#define XRC_ALL_TRANSPORTS(suite) XRC_RAW_TRANSPORTS(suite)
#endif

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
