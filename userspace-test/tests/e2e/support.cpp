#include "support.hpp"
#include "verbs_peer.hpp"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace xrc_e2e {

std::string device_path() {
  if (const char* e = std::getenv("XRC_E2E_DEVICE"); e && *e) return e;
  return kDefaultDevice;
}

bool device_present() { return Device(device_path()).exists(); }

long env_long(const char* name, long fallback) {
  if (const char* e = std::getenv(name); e && *e) {
    char* end = nullptr;
    const long v = std::strtol(e, &end, 0);
    if (end && *end == '\0') return v;
  }
  return fallback;
}

xrcrcv::sim::Debugfs& sim() {
  static xrcrcv::sim::Debugfs d = [] {
    xrcrcv::sim::Debugfs::ensure_mounted();
    return xrcrcv::sim::Debugfs();
  }();
  return d;
}

std::string temp_xrcd_path() {
  static std::atomic<unsigned> n{0};
  return "/tmp/xrc-e2e-" + std::to_string(::getpid()) + "-" + std::to_string(n++) + ".xrcd";
}

// ------------------------------------------------------------- PeerXrcd
Status PeerXrcd::close() { return verbs_ ? verbs_peer::close_xrcd(*verbs_) : raw_->close(); }

bool PeerXrcd::owns() const { return verbs_ ? verbs_peer::owns(*verbs_) : raw_->owns(); }

void PeerXrcd::release() {
  if (verbs_)
    verbs_peer::release(*verbs_);
  else
    (void)raw_->release();
}

const Xrcd& PeerXrcd::raw() const {
  if (!raw_) throw SetupFailure("a raw XRCD handle asked of a libibverbs XRCD");
  return *raw_;
}

VerbsXrcd& PeerXrcd::verbs() const {
  if (!verbs_) throw SetupFailure("an ibv_xrcd asked of a raw XRCD handle");
  return *verbs_;
}

// ----------------------------------------------------------------- Peer
Peer Peer::open(const std::string& xrcd_file, Transport t) {
  if (t == Transport::verbs) {
    auto file = verbs_peer::open_file();
    auto x = verbs_peer::open_xrcd(*file, xrcd_file);
    return Peer{t, Context::adopt(UniqueFd(), UniqueFd()), std::move(file), PeerXrcd(std::move(x))};
  }
  auto ctx = must(Context::open(device_path()), "open context");
  auto xrcd = must(Xrcd::open(ctx, xrcd_file), "open XRCD");
  return Peer{t, std::move(ctx), nullptr, PeerXrcd(std::move(xrcd))};
}

Result<QpState> Peer::state(std::uint32_t qpn) const {
  auto a = query_on(xrcd, qpn, QpAttrMask::State);
  if (!a) return std::unexpected(a.error());
  return a->qp_state;
}

PeerXrcd Peer::open_xrcd(const std::string& file) const {
  if (vfile) return PeerXrcd(verbs_peer::open_xrcd(*vfile, file));
  return PeerXrcd(must(Xrcd::open(ctx, file), "open XRCD"));
}

Result<std::uint32_t> Peer::reg_on(const PeerXrcd& x, std::optional<std::uint32_t> qpn) const {
  // libibverbs keeps the seed's in-band "create" number at its own level
  if (vfile) return verbs_peer::reg(x.verbs(), qpn.value_or(verbs_peer::kIbvXrcRcvQpnNew));
  return cmd::reg_xrc_rcv_qp(ctx, x.handle(), qpn, t);
}

Status Peer::unreg_on(const PeerXrcd& x, std::uint32_t qpn) const {
  if (vfile) return verbs_peer::unreg(x.verbs(), qpn);
  return cmd::unreg_xrc_rcv_qp(ctx, x.handle(), qpn, t);
}

Result<QpAttr> Peer::query_on(const PeerXrcd& x, std::uint32_t qpn, QpAttrMask mask) const {
  if (vfile) return verbs_peer::query(x.verbs(), qpn, mask);
  return cmd::query_xrc_rcv_qp(ctx, x.handle(), qpn, mask, t);
}

Status Peer::modify_on(const PeerXrcd& x, std::uint32_t qpn, const QpModify& m) const {
  if (vfile) return verbs_peer::modify(x.verbs(), qpn, m);
  return cmd::modify_xrc_rcv_qp(ctx, x.handle(), qpn, m.attr, m.mask, t);
}

Result<std::vector<AsyncEvent>> Peer::events(std::chrono::milliseconds wait) const {
  if (vfile) return verbs_peer::events(*vfile, wait);
  return read_events(ctx, wait);
}

Result<std::optional<AsyncEvent>> Peer::next_event(std::chrono::milliseconds wait) const {
  if (vfile) return verbs_peer::next_event(*vfile, wait);
  return xrcrcv::next_event(ctx.async_fd(), wait);
}

int Peer::close_file() {
  // The XRCD object must not outlive the file it names: over verbs its
  // ibv_close_xrcd() would use a freed ibv_context.
  forget_xrcd();
  if (vfile) return verbs_peer::close_file(std::move(vfile));
  return ctx.close();
}

// -------------------------------------------------------------- Channel
bool Channel::send(const Msg& m) const {
  for (;;) {
    const ssize_t n = ::send(fd_.get(), &m, sizeof m, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    return n == static_cast<ssize_t>(sizeof m);
  }
}

std::optional<Msg> Channel::recv(std::chrono::milliseconds timeout) const {
  pollfd p{fd_.get(), POLLIN, 0};
  for (;;) {
    const int rc = ::poll(&p, 1, static_cast<int>(timeout.count()));
    if (rc < 0 && errno == EINTR) continue;
    if (rc <= 0) return std::nullopt;
    break;
  }
  Msg m;
  const ssize_t n = ::recv(fd_.get(), &m, sizeof m, 0);
  if (n != static_cast<ssize_t>(sizeof m)) return std::nullopt;
  return m;
}

// ---------------------------------------------------------------- Child
void child_fail(const char* file, int line, const std::string& what) {
  std::fprintf(stderr, "[child %d] %s:%d: check failed: %s\n", ::getpid(), file, line,
               what.c_str());
  std::fflush(stderr);
  ::_exit(99);
}

Child Child::spawn(std::function<int(Channel&)> fn, Fds fds) {
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0)
    throw SetupFailure("socketpair failed");
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(sv[0]);
    ::close(sv[1]);
    throw SetupFailure("fork failed");
  }
  if (pid == 0) {
    ::close(sv[0]);
    int ch = sv[1];
    if (fds == Fds::CloseInherited) {
      // Keep stdio and the channel: move the channel to 3, close the rest.
      if (ch != 3) {
        if (::dup2(ch, 3) < 0) ::_exit(96);
        ch = 3;
      }
      ::close_range(4, ~0U, 0);
    }
    int rc = 0;
    try {
      Channel c(ch);
      rc = fn(c);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "[child %d] exception: %s\n", ::getpid(), e.what());
      rc = 97;
    } catch (...) {
      rc = 97;
    }
    std::fflush(nullptr);
    ::_exit(rc);
  }
  ::close(sv[1]);
  return Child(pid, Channel(sv[0]));
}

Child::Child(Child&& o) noexcept : pid_(std::exchange(o.pid_, -1)), ch_(std::move(o.ch_)) {}

Child::~Child() {
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    int st = 0;
    while (::waitpid(pid_, &st, 0) < 0 && errno == EINTR) {
    }
  }
}

void Child::kill(int sig) {
  if (pid_ > 0) ::kill(pid_, sig);
}

int Child::wait(std::chrono::milliseconds timeout) {
  if (pid_ <= 0) return -1;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  int st = 0;
  for (;;) {
    const pid_t r = ::waitpid(pid_, &st, WNOHANG);
    if (r == pid_) break;
    if (r < 0 && errno != EINTR) return -1;
    if (std::chrono::steady_clock::now() > deadline) return -1;
    std::this_thread::sleep_for(5ms);
  }
  pid_ = -1;
  if (WIFEXITED(st)) return WEXITSTATUS(st);
  if (WIFSIGNALED(st)) return 128 + WTERMSIG(st);
  return -1;
}

// -------------------------------------------------------------- fixture
void E2eTest::SetUp() {
  if (!device_present())
    GTEST_SKIP() << "no " << device_path() << ": end-to-end tests run in the QEMU guest";
  xrcd_file_ = temp_xrcd_path();
  counters_ = sim().has_counters();
  if (counters_) {
    base_qps_ = sim().live_qps().value_or(-1);
    base_xrcds_ = sim().live_xrcds().value_or(-1);
  }
}

void E2eTest::TearDown() {
  if (!xrcd_file_.empty()) ::unlink(xrcd_file_.c_str());
  if (!counters_ || IsSkipped()) return;
  EXPECT_EQ(wait_live_qps(base_qps_), base_qps_) << "the test leaked receive QPs";
  long x = -1;
  for (int i = 0; i < 200; ++i) {
    x = sim().live_xrcds().value_or(-1);
    if (x == base_xrcds_) break;
    std::this_thread::sleep_for(10ms);
  }
  EXPECT_EQ(x, base_xrcds_) << "the test leaked XRCDs";
}

long E2eTest::live_qps() {
  auto v = sim().live_qps();
  if (!v) throw SetupFailure("live_qps: " + v.error().message());
  return *v;
}

long E2eTest::live_xrcds() {
  auto v = sim().live_xrcds();
  if (!v) throw SetupFailure("live_xrcds: " + v.error().message());
  return *v;
}

long E2eTest::wait_live_qps(long expected) {
  long v = -1;
  for (int i = 0; i < 200; ++i) {
    v = sim().live_qps().value_or(-1);
    if (v == expected) break;
    std::this_thread::sleep_for(10ms);
  }
  return v;
}


}  // namespace xrc_e2e
