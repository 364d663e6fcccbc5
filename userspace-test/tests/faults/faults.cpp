// xrc_faults: injected kernel faults under each of the four verbs (the
// XRCD ioctl methods: the only way they reach the kernel), run as root in the QEMU guest against xrc_sim on
// a kernel with FAULT_INJECTION, FAILSLAB, FAIL_PAGE_ALLOC and
// FAULT_INJECTION_USERCOPY.
//
// For every call shape below and every N from 1 up, the calling thread
// writes N to /proc/thread-self/fail-nth, so that the N-th fault point
// of its own next system call (a slab or page allocation, or a user
// copy) fails, and nothing else on the machine does; the sweep of a
// shape ends at the first N the call no longer reaches (fail-nth reads
// back non-zero).  failslab and fail_page_alloc are told to fail
// sleeping (GFP_KERNEL) allocations too, and order-0 pages.
//
// After each injected fault:
//  * a failed call's errno must be ENOMEM or EFAULT (what an allocation
//    or a user copy failure gives; the contract's table has EFAULT for a
//    response that cannot be written);
//  * a failed call changed nothing: xrc_sim's live_qps and live_xrcds,
//    QUERY's answer and the references of both files are what they were
//    before (references are counted by unregistering them one by one);
//  * a call that succeeded anyway (the fault hit an allocation with a
//    fallback, such as kmemleak's own) did exactly what it does without
//    a fault;
//  * leaks are kmemleak's to report, in the guest's final scan.
//
//   xrc_faults [--device PATH] [--max-n N]
// Exit 0 when every check held, 1 when one failed, 77 without the device
// or without fault injection.
#include "sim_debugfs.hpp"

#include <xrcrcv/xrcrcv.hpp>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using namespace xrcrcv;

// REG without a number: create
constexpr auto kNew = kNewRcvQp;

std::string g_device = "/dev/infiniband/uverbs0";
int g_failures = 0;

void fail(const std::string& what) {
  ++g_failures;
  std::printf("[faults] FAIL: %s\n", what.c_str());
}

// A file descriptor that closes itself.
struct Fd {
  int fd = -1;
  explicit Fd(int f) : fd(f) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

bool write_file(const std::string& path, const std::string& v) {
  Fd f(::open(path.c_str(), O_WRONLY));
  return f.fd >= 0 && ::write(f.fd, v.data(), v.size()) == static_cast<ssize_t>(v.size());
}
std::optional<std::string> read_file(const std::string& path) {
  Fd f(::open(path.c_str(), O_RDONLY));
  if (f.fd < 0) return std::nullopt;
  char b[64];
  const ssize_t n = ::read(f.fd, b, sizeof b - 1);
  if (n < 0) return std::nullopt;
  return std::string(b, static_cast<std::size_t>(n));
}

// The debugfs knobs this run needs, set for its lifetime and put back.
class FaultKnobs {
 public:
  bool set() {
    static const char* kDir = "/sys/kernel/debug/";
    const std::array<std::pair<std::string, std::string>, 6> knobs = {{
        {"failslab/ignore-gfp-wait", "N"},       // fail GFP_KERNEL slab allocations too
        {"failslab/verbose", "0"},               // no stack dump per fault
        {"fail_page_alloc/ignore-gfp-wait", "N"},
        {"fail_page_alloc/min-order", "0"},      // and single pages
        {"fail_page_alloc/verbose", "0"},
        {"fail_usercopy/verbose", "0"},
    }};
    for (auto& [k, v] : knobs) {
      const std::string path = kDir + k;
      auto old = read_file(path);
      if (!old || !write_file(path, v)) {
        std::printf("[faults] cannot set %s (a kernel without fault injection?)\n", path.c_str());
        return false;
      }
      saved_.emplace_back(path, *old);
    }
    return true;
  }
  ~FaultKnobs() {
    for (auto it = saved_.rbegin(); it != saved_.rend(); ++it) (void)write_file(it->first, it->second);
  }

 private:
  std::vector<std::pair<std::string, std::string>> saved_;
};

// /proc/thread-self/fail-nth of the calling thread.
class FailNth {
 public:
  FailNth() : fd_(::open("/proc/thread-self/fail-nth", O_RDWR)) {}
  [[nodiscard]] bool ok() const { return fd_.fd >= 0; }
  void arm(unsigned n) const {
    const std::string v = std::to_string(n);
    if (::pwrite(fd_.fd, v.data(), v.size(), 0) != static_cast<ssize_t>(v.size()))
      fail(std::string("writing fail-nth: ") + std::strerror(errno));
  }
  // Disarm; true when the armed fault was injected.
  bool disarm() const {
    char b[32] = {};
    const ssize_t n = ::pread(fd_.fd, b, sizeof b - 1, 0);
    const bool injected = n > 0 && std::atoi(b) == 0;
    (void)::pwrite(fd_.fd, "0", 1, 0);
    return injected;
  }

 private:
  Fd fd_;
};

struct Files {
  Context a, b;  // two uverbs files on one XRCD
  std::uint32_t xa = 0, xb = 0;
};

// How many references `ctx` holds on `q` (dropping them all, one by one).
int drain(const Context& ctx, std::uint32_t x, std::uint32_t q, Transport t) {
  int n = 0;
  while (n < 16 && cmd::unreg_xrc_rcv_qp(ctx, x, q, t)) ++n;
  return n;
}

// One call shape: what is set up before the call, the call, and what is
// checked after it (both for a failed and for a successful call); each
// leaves nothing behind.
struct Shape {
  std::string name;
  // Sets up; returns the QP number the call is about (0: none).
  std::function<std::uint32_t(Files&, Transport)> setup;
  std::function<Status(Files&, Transport, std::uint32_t q, std::uint32_t& out)> call;
  // Checks the state after the call and tears down; returns what is wrong.
  std::function<std::optional<std::string>(Files&, Transport, std::uint32_t q, bool ok,
                                           std::uint32_t out)>
      check;
};

template <class T>
Status as_status(const Result<T>& r) {
  if (r) return {};
  return std::unexpected(r.error());
}

std::string refs_msg(const char* who, int got, int want) {
  return std::string(who) + " holds " + std::to_string(got) + " references, expected " +
         std::to_string(want);
}

std::vector<Shape> shapes(const sim::Debugfs& dbg) {
  auto live = [&dbg] { return dbg.live_qps().value_or(-1); };
  auto base = std::make_shared<long>(0);
  std::vector<Shape> v;

  v.push_back({"REG(new)",
               [=](Files&, Transport) -> std::uint32_t { *base = live(); return 0; },
               [](Files& f, Transport t, std::uint32_t, std::uint32_t& out) {
                 auto r = cmd::reg_xrc_rcv_qp(f.a, f.xa, kNew, t);
                 if (r) out = *r;
                 return as_status(r);
               },
               [=](Files& f, Transport t, std::uint32_t, bool ok,
                   std::uint32_t out) -> std::optional<std::string> {
                 if (!ok) {
                   if (live() != *base) return "live_qps " + std::to_string(live()) + ", was " + std::to_string(*base);
                   return std::nullopt;
                 }
                 if (live() != *base + 1) return "succeeded, but live_qps did not grow by one";
                 if (int n = drain(f.a, f.xa, out, t); n != 1) return refs_msg("A", n, 1);
                 return std::nullopt;
               }});

  // B registers a QP A created: B had no reference before.
  v.push_back({"REG(existing)",
               [=](Files& f, Transport t) -> std::uint32_t {
                 auto q = cmd::reg_xrc_rcv_qp(f.a, f.xa, kNew, t);
                 *base = live();
                 return q ? *q : 0;
               },
               [](Files& f, Transport t, std::uint32_t q, std::uint32_t&) {
                 return as_status(cmd::reg_xrc_rcv_qp(f.b, f.xb, q, t));
               },
               [=](Files& f, Transport t, std::uint32_t q, bool ok,
                   std::uint32_t) -> std::optional<std::string> {
                 std::optional<std::string> bad;
                 if (live() != *base) bad = "live_qps changed";
                 if (int n = drain(f.b, f.xb, q, t); n != (ok ? 1 : 0)) bad = refs_msg("B", n, ok);
                 if (int n = drain(f.a, f.xa, q, t); n != 1) bad = refs_msg("A", n, 1);
                 return bad;
               }});

  // A registers a QP it already holds (the counter path).
  v.push_back({"REG(held)",
               [=](Files& f, Transport t) -> std::uint32_t {
                 auto q = cmd::reg_xrc_rcv_qp(f.a, f.xa, kNew, t);
                 *base = live();
                 return q ? *q : 0;
               },
               [](Files& f, Transport t, std::uint32_t q, std::uint32_t&) {
                 return as_status(cmd::reg_xrc_rcv_qp(f.a, f.xa, q, t));
               },
               [=](Files& f, Transport t, std::uint32_t q, bool ok,
                   std::uint32_t) -> std::optional<std::string> {
                 std::optional<std::string> bad;
                 if (live() != *base) bad = "live_qps changed";
                 if (int n = drain(f.a, f.xa, q, t); n != (ok ? 2 : 1)) bad = refs_msg("A", n, ok ? 2 : 1);
                 return bad;
               }});

  // UNREG of one of two files' references: nothing is destroyed.
  v.push_back({"UNREG(not last)",
               [=](Files& f, Transport t) -> std::uint32_t {
                 auto q = cmd::reg_xrc_rcv_qp(f.a, f.xa, kNew, t);
                 if (q) (void)cmd::reg_xrc_rcv_qp(f.b, f.xb, *q, t);
                 *base = live();
                 return q ? *q : 0;
               },
               [](Files& f, Transport t, std::uint32_t q, std::uint32_t&) {
                 return cmd::unreg_xrc_rcv_qp(f.b, f.xb, q, t);
               },
               [=](Files& f, Transport t, std::uint32_t q, bool ok,
                   std::uint32_t) -> std::optional<std::string> {
                 std::optional<std::string> bad;
                 if (live() != *base) bad = "live_qps changed";
                 if (int n = drain(f.b, f.xb, q, t); n != (ok ? 0 : 1)) bad = refs_msg("B", n, !ok);
                 if (int n = drain(f.a, f.xa, q, t); n != 1) bad = refs_msg("A", n, 1);
                 return bad;
               }});

  // UNREG of the last reference: destroys the QP.
  v.push_back({"UNREG(last)",
               [=](Files& f, Transport t) -> std::uint32_t {
                 auto q = cmd::reg_xrc_rcv_qp(f.a, f.xa, kNew, t);
                 *base = live();
                 return q ? *q : 0;
               },
               [](Files& f, Transport t, std::uint32_t q, std::uint32_t&) {
                 return cmd::unreg_xrc_rcv_qp(f.a, f.xa, q, t);
               },
               [=](Files& f, Transport t, std::uint32_t q, bool ok,
                   std::uint32_t) -> std::optional<std::string> {
                 if (ok) {
                   if (live() != *base - 1) return "succeeded, but the QP lives on";
                   return std::nullopt;
                 }
                 std::optional<std::string> bad;
                 if (live() != *base) bad = "failed, but live_qps changed";
                 if (!cmd::query_xrc_rcv_qp(f.a, f.xa, q, QpAttrMask::State, t))
                   bad = "failed, but the QP is gone for its holder";
                 if (int n = drain(f.a, f.xa, q, t); n != 1) bad = refs_msg("A", n, 1);
                 return bad;
               }});

  // MODIFY RESET -> INIT.
  v.push_back({"MODIFY",
               [=](Files& f, Transport t) -> std::uint32_t {
                 auto q = cmd::reg_xrc_rcv_qp(f.a, f.xa, kNew, t);
                 *base = live();
                 return q ? *q : 0;
               },
               [](Files& f, Transport t, std::uint32_t q, std::uint32_t&) {
                 const auto m = xrc_tgt_to_init();
                 return cmd::modify_xrc_rcv_qp(f.a, f.xa, q, m.attr, m.mask, t);
               },
               [=](Files& f, Transport t, std::uint32_t q, bool ok,
                   std::uint32_t) -> std::optional<std::string> {
                 std::optional<std::string> bad;
                 auto a = cmd::query_xrc_rcv_qp(f.a, f.xa, q, QpAttrMask::AllStandard, t);
                 const auto want = ok ? QpState::Init : QpState::Reset;
                 if (!a) bad = "QUERY after it: " + a.error().message();
                 else if (a->qp_state != want)
                   bad = "QP in " + std::string(to_string(a->qp_state)) + ", expected " +
                         std::string(to_string(want));
                 if (live() != *base) bad = "live_qps changed";
                 if (int n = drain(f.a, f.xa, q, t); n != 1) bad = refs_msg("A", n, 1);
                 return bad;
               }});

  // QUERY of an INIT QP: changes nothing, fails or answers right.
  auto before = std::make_shared<QpAttr>();
  auto answer = std::make_shared<std::optional<QpAttr>>();
  v.push_back({"QUERY",
               [=](Files& f, Transport t) -> std::uint32_t {
                 auto q = cmd::reg_xrc_rcv_qp(f.a, f.xa, kNew, t);
                 if (!q) return 0;
                 const auto m = xrc_tgt_to_init();
                 (void)cmd::modify_xrc_rcv_qp(f.a, f.xa, *q, m.attr, m.mask, t);
                 if (auto a = cmd::query_xrc_rcv_qp(f.a, f.xa, *q, QpAttrMask::AllStandard, t))
                   *before = *a;
                 *base = live();
                 return *q;
               },
               [=](Files& f, Transport t, std::uint32_t q, std::uint32_t&) {
                 auto a = cmd::query_xrc_rcv_qp(f.a, f.xa, q, QpAttrMask::AllStandard, t);
                 *answer = a ? std::optional<QpAttr>(*a) : std::nullopt;
                 return as_status(a);
               },
               [=](Files& f, Transport t, std::uint32_t q, bool,
                   std::uint32_t) -> std::optional<std::string> {
                 std::optional<std::string> bad;
                 if (*answer && !(**answer == *before)) bad = "answered other attributes";
                 auto a = cmd::query_xrc_rcv_qp(f.a, f.xa, q, QpAttrMask::AllStandard, t);
                 if (!a || !(*a == *before)) bad = "the QP's attributes changed";
                 if (live() != *base) bad = "live_qps changed";
                 if (int n = drain(f.a, f.xa, q, t); n != 1) bad = refs_msg("A", n, 1);
                 return bad;
               }});
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  unsigned max_n = 400;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--device") g_device = argv[i + 1];
    else if (a == "--max-n") max_n = static_cast<unsigned>(std::atoi(argv[i + 1]));
    else {
      std::fprintf(stderr, "usage: xrc_faults [--device PATH] [--max-n N]\n");
      return 2;
    }
  }
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  if (::access(g_device.c_str(), F_OK) != 0) {
    std::printf("[faults] %s is absent: run me in the guest with xrc_sim\n", g_device.c_str());
    return 77;
  }
  sim::Debugfs::ensure_mounted();
  const sim::Debugfs dbg;
  FaultKnobs knobs;
  FailNth nth;
  if (!nth.ok() || !knobs.set()) {
    std::printf("XRC-FAULTS result=unavailable (no /proc/thread-self/fail-nth or debugfs knobs)\n");
    return 77;
  }

  auto a = Context::open(g_device);
  auto b = Context::open(g_device);
  if (!a || !b) {
    std::printf("[faults] FAIL: open: %s\n", (!a ? a : b).error().message().c_str());
    return 1;
  }
  const std::string xfile = "/tmp/xrc-faults-xrcd";
  auto xa = Xrcd::open(*a, xfile);
  auto xb = Xrcd::open(*b, xfile);
  if (!xa || !xb) {
    std::printf("[faults] FAIL: OPEN_XRCD\n");
    return 1;
  }
  Files f{std::move(*a), std::move(*b), xa->handle(), xb->handle()};
  const long base_qps = dbg.live_qps().value_or(-1);
  const long base_xrcds = dbg.live_xrcds().value_or(-1);

  long injected = 0, failed_calls = 0, absorbed = 0, survived = 0;
  std::map<std::string, long> by_errno;
  for (auto& s : shapes(dbg)) {
    for (Transport t : {Transport::ioctl}) {
      long s_inj = 0, s_failed = 0, s_abs = 0;
      unsigned n = 1;
      bool reached_end = false;
      for (; n <= max_n; ++n) {
        const std::uint32_t q = s.setup(f, t);
        if (s.name != "REG(new)" && q == 0) {
          fail(s.name + ": setup failed");
          break;
        }
        std::uint32_t out = 0;
        nth.arm(n);
        const Status r = s.call(f, t, q, out);
        const bool hit = nth.disarm();
        const int before = g_failures;
        if (!r && (!hit || (r.error().errnum != ENOMEM && r.error().errnum != EFAULT)))
          fail(s.name + "/" + std::string(to_string(t)) + ", fault " + std::to_string(n) +
               (hit ? "" : " (not reached)") + ": " + r.error().message() +
               (hit ? ", expected ENOMEM or EFAULT" : ""));
        if (auto bad = s.check(f, t, q, bool(r), out))
          fail(s.name + "/" + std::string(to_string(t)) + ", fault " + std::to_string(n) + ", " +
               (r ? "call succeeded" : r.error().message()) + ": " + *bad);
        if (dbg.live_qps().value_or(-1) != base_qps) {
          fail(s.name + "/" + std::string(to_string(t)) + ", fault " + std::to_string(n) +
               ": live_qps " + std::to_string(dbg.live_qps().value_or(-1)) + " after teardown");
          return 1;  // the state is lost: later figures would mean nothing
        }
        if (!hit) {
          reached_end = true;
          break;
        }
        ++s_inj;
        if (r) ++s_abs;
        else {
          ++s_failed;
          ++by_errno[std::string(errno_name(r.error().errnum))];
        }
        if (g_failures == before) ++survived;
      }
      if (!reached_end) fail(s.name + ": still reaching fault points at N=" + std::to_string(max_n));
      std::printf("[faults] %-16s %-5s fault points %3ld: call failed %3ld, succeeded anyway %3ld\n",
                  s.name.c_str(), std::string(to_string(t)).c_str(), s_inj, s_failed, s_abs);
      injected += s_inj;
      failed_calls += s_failed;
      absorbed += s_abs;
    }
  }
  if (dbg.live_xrcds().value_or(-1) != base_xrcds) fail("live_xrcds changed");
  std::string errnos;
  for (auto& [e, c] : by_errno) errnos += (errnos.empty() ? "" : ",") + e + ":" + std::to_string(c);
  std::printf("XRC-FAULTS result=%s injected=%ld survived=%ld failed_calls=%ld absorbed=%ld"
              " errnos=%s failures=%d\n",
              g_failures ? "failed" : "passed", injected, survived, failed_calls, absorbed,
              errnos.empty() ? "none" : errnos.c_str(), g_failures);
  ::unlink(xfile.c_str());
  return g_failures ? 1 : 0;
}
