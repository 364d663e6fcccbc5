// xrc_race: a concurrent race fuzzer for the XRC receive-QP verbs, run as
// root in the QEMU guest against xrc_sim.
//
// Several worker processes, each with several threads, share two XRCDs
// (by file) and make random calls on their own uverbs file: REG (new and
// by number), UNREG, MODIFY, QUERY (the XRCD ioctl methods), OPEN_QP,
// CREATE_QP(XRC_TGT), DESTROY_QP, OPEN_XRCD/CLOSE_XRCD, fork, and read
// their async events.  Workers close their file and open a new one now
// and then; the orchestrator kill -9s workers at random and starts new
// ones, and injects events (from xrc_sim's irq_work) on the numbers the
// workers publish, all the time.
//
// The oracle:
//  * every call's errno is one the contract's table allows for it (and,
//    for a call on a reference the calling thread holds, exactly the
//    answer the contract gives: a QP with a reference is never gone);
//  * at each round's end every worker stops and reports what its file
//    holds; xrc_sim's live_qps must equal the number of distinct QPs the
//    surviving references imply, and once every worker has exited,
//    live_qps and live_xrcds must be back where they started (no QP
//    outlives its last reference);
//  * the kernel's reports (KASAN, lockdep, kmemleak, WARN) fail the guest
//    run (guest/check-log.sh).
//
// Each thread draws its calls from a generator seeded from the run's
// seed, so a seed replays the same calls of every thread; the order in
// which threads and processes interleave is the scheduler's.
//
//   xrc_race [--seed N] [--seconds S] [--procs P] [--threads T]
//            [--round S] [--device PATH]
// Environment: XRC_RACE_SEED, XRC_RACE_SECONDS, XRC_RACE_PROCS,
// XRC_RACE_THREADS (the options win).  Exit 0 when every check held, 1
// when one failed, 2 on bad usage, 77 when the device is absent.
#include "sim_debugfs.hpp"

#include <xrcrcv/xrcrcv.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <random>
#include <shared_mutex>
#include <string>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

using namespace xrcrcv;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

constexpr std::uint32_t k2Pow24 = 1U << 24;
constexpr std::uint32_t kMlx4Bit = 1U << 23;
constexpr int kMaxWorkers = 16;
constexpr int kMaxHeld = 4096;
constexpr int kPublished = 256;
constexpr int kXrcds = 2;

// ------------------------------------------------------------ statistics
enum Op : int {
  kRegNew, kRegOwn, kRegPublished, kRegWrongXrcd, kRegBad, kUnregOwn, kUnregBad,
  kModifyOwn, kQueryOwn, kQueryPublished, kOpenQpOwn, kOpenQpPublished, kCreateQp,
  kDestroyQp, kSpareXrcd, kCloseXrcdBusy, kFork, kEvents, kOpCount
};
constexpr std::array<const char*, kOpCount> kOpNames = {
    "REG(new)", "REG(held)", "REG(published)", "REG(other xrcd)", "REG(bad number)",
    "UNREG(held)", "UNREG(not held)", "MODIFY(held)", "QUERY(held)", "QUERY(published)",
    "OPEN_QP(held)", "OPEN_QP(published)", "CREATE_QP(XRC_TGT)", "DESTROY_QP",
    "OPEN+CLOSE_XRCD(spare)", "CLOSE_XRCD(busy)", "fork", "read events"};

// Outcome columns: success, then the errnos the contract's table names.
constexpr std::array<int, 8> kErrnos = {0, EINVAL, ENOENT, EBUSY, EOVERFLOW, ENOMEM, EFAULT, -1};
int outcome_index(int e) {
  for (std::size_t i = 0; i + 1 < kErrnos.size(); ++i)
    if (kErrnos[i] == e) return static_cast<int>(i);
  return static_cast<int>(kErrnos.size() - 1);
}

// Shared by the orchestrator and every worker (MAP_SHARED, before fork).
struct Shared {
  std::atomic<std::uint64_t> published[kPublished];  // (xrcd << 32) | qpn, 0: empty
  std::atomic<int> stop;      // the round is over: workers stop and report
  std::atomic<int> release;   // reports read: workers exit
  std::atomic<std::uint64_t> stats[kOpCount][kErrnos.size()];
  std::atomic<std::uint64_t> calls, forks, closes, events_read, contended;
  // Per worker slot and XRCD: odd while a thread runs CLOSE_XRCD on the
  // file's main handle; bumped on either side of the call.  Shared, so a
  // forked child sees its parent's threads close.
  std::atomic<std::uint32_t> closing[kMaxWorkers][kXrcds];
  std::atomic<int> failures;
  std::atomic<int> failure_len;
  char failure[4096];
  struct Slot {
    std::atomic<int> reported;  // 1: held[] is this worker's file, quiescent
    std::uint32_t nheld;
    std::uint32_t held[kMaxHeld];
  } slot[kMaxWorkers];
};
Shared* g = nullptr;

struct Options {
  std::uint64_t seed = 0;
  double seconds = 90;
  double round = 30;
  int procs = 3;
  int threads = 3;
  std::string device = "/dev/infiniband/uverbs0";
  std::string xrcd_dir = "/tmp";
};
Options opt;
std::uint32_t qpn_first = 0x40;  // xrc_sim's lowest number (mlx4_qpn: 0x800040)

void fail(const std::string& what) {
  g->failures.fetch_add(1);
  std::string line = "[race] FAIL (pid " + std::to_string(::getpid()) + ", seed 0x";
  char hex[24];
  std::snprintf(hex, sizeof hex, "%llx", static_cast<unsigned long long>(opt.seed));
  line += std::string(hex) + "): " + what + "\n";
  std::fputs(line.c_str(), stdout);
  std::fflush(stdout);
  const int at = g->failure_len.fetch_add(static_cast<int>(line.size()));
  if (at >= 0 && at + line.size() < sizeof g->failure)
    std::memcpy(g->failure + at, line.data(), line.size());
}

void count(Op op, int e) {
  g->stats[op][outcome_index(e)].fetch_add(1, std::memory_order_relaxed);
  g->calls.fetch_add(1, std::memory_order_relaxed);
}

std::string hexnum(std::uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%x", v);
  return b;
}

// The outcome of a call must be one of `allowed` (0: success), or
// `contended` when that is not 0 (see CloseWatch).
template <class T>
bool expect(Op op, const std::expected<T, Error>& r, std::initializer_list<int> allowed,
            const std::string& what, int contended = 0) {
  const int e = errno_of(r);
  count(op, e);
  if (std::find(allowed.begin(), allowed.end(), e) != allowed.end()) return true;
  if (contended && e == contended) {
    g->contended.fetch_add(1, std::memory_order_relaxed);
    return true;
  }
  std::string want;
  for (int a : allowed) want += std::string(want.empty() ? "" : "|") + std::string(a ? errno_name(a) : "ok");
  fail(std::string(kOpNames[op]) + " " + what + ": " +
       (r ? std::string("succeeded") : r.error().message()) + ", expected " + want);
  return false;
}

// A handle that names no object of the file: the ioctl framework's IDR
// lookup answers ENOENT.
constexpr int kBadHandle = ENOENT;

// How a call reaches the kernel, for what a busy handle answers: the four
// verbs are ioctl methods; OPEN_QP and CREATE_QP are write commands.
enum class Via : std::uint8_t { write, ioctl };

// ---------------------------------------------------------------- worker
// One worker process: one uverbs file at a time, `opt.threads` threads on
// it.  Each thread holds its own references and QP handles, and checks
// exactly what the contract says of them.
struct File {
  File(Context c, int s) : ctx(std::move(c)), slot(s) {}
  Context ctx;
  int slot;  // the worker's, for g->closing
  std::array<std::uint32_t, kXrcds> xrcd{};  // main handles, never closed while threads run
  std::shared_mutex spares;  // shared: a spare handle is open; unique: none is
};

// CLOSE_XRCD locks the handle's uobject exclusively while it runs, even
// when it fails with EBUSY; any call that looks the handle up meanwhile
// gets what the RDMA core answers for a busy object, whatever the call:
// EBUSY from an ioctl method, EINVAL from a write command's lookup
// (OPEN_QP, CREATE_QP).  That is the
// framework's rule for every object, not this ABI's, so the oracle allows
// it, and only for a call that may have overlapped such a close: one
// started while a close ran (odd count), or one during which a close
// began (the count moved).
class CloseWatch {
 public:
  CloseWatch(const File& f, int x) : c_(g->closing[f.slot][x]), seen_(c_.load()) {}
  // Only after the call has returned: hence every call site keeps the
  // result in a local, never calls inside expect()'s argument list.
  int contended(Via v) const {
    const bool overlapped = (seen_ & 1) || c_.load() != seen_;
    return overlapped ? (v == Via::ioctl ? EBUSY : EINVAL) : 0;
  }

 private:
  const std::atomic<std::uint32_t>& c_;
  std::uint32_t seen_;
};

// A call on a QP the caller holds, made again for as long as a concurrent
// CLOSE_XRCD excuses its answer: for a write command the excuse (EINVAL)
// is also what a lost reference would answer, so such a call must end in
// an answer the oracle checks in full.  Excused tries are counted.
template <class Call>
auto on_held_qp(const File& f, int x, Via v, Call&& call) {
  for (;;) {
    const CloseWatch w(f, x);
    auto res = call();
    const int busy = w.contended(v);
    if (res || !busy || errno_of(res) != busy) return res;
    g->contended.fetch_add(1, std::memory_order_relaxed);
  }
}

struct Own {
  int x = 0;        // XRCD index
  long regs = 0;    // REG references this thread took
  std::vector<std::uint32_t> handles;  // OPEN_QP/CREATE_QP handles
};

class Thread {
 public:
  Thread(File& f, std::uint64_t seed) : f_(f), rng_(seed) {}
  void run(const std::atomic<bool>& epoch_over);
  // The QP numbers this thread holds a reference on.
  void held(std::vector<std::uint32_t>& out) const {
    for (auto& [q, o] : own_) out.push_back(q);
  }

 private:
  std::uint64_t r() { return rng_(); }
  bool chance(unsigned pct) { return r() % 100 < pct; }
  // The four verbs' transport: ioctl, the only one (series v4)
  static Transport tr() { return Transport::ioctl; }
  std::optional<std::pair<std::uint32_t, Own*>> pick_own() {
    if (own_.empty()) return std::nullopt;
    auto it = own_.begin();
    std::advance(it, static_cast<long>(r() % own_.size()));
    return std::pair{it->first, &it->second};
  }
  std::optional<std::pair<int, std::uint32_t>> pick_published() {
    for (int tries = 0; tries < 4; ++tries) {
      const auto v = g->published[r() % kPublished].load();
      if (v) return std::pair{static_cast<int>(v >> 32), static_cast<std::uint32_t>(v)};
    }
    return std::nullopt;
  }
  static void publish(std::uint64_t slot, int x, std::uint32_t q) {
    g->published[slot % kPublished].store((std::uint64_t{static_cast<std::uint32_t>(x)} << 32) | q);
  }
  void drop_if_empty(std::uint32_t q) {
    auto it = own_.find(q);
    if (it != own_.end() && it->second.regs == 0 && it->second.handles.empty()) own_.erase(it);
  }
  void step();
  void fork_child(std::uint32_t q, const Own& o);

  File& f_;
  std::mt19937_64 rng_;
  std::map<std::uint32_t, Own> own_;
};

void Thread::run(const std::atomic<bool>& epoch_over) {
  while (!g->stop.load(std::memory_order_relaxed) && !epoch_over.load(std::memory_order_relaxed))
    step();
}

void Thread::step() {
  const ContextRef c = f_.ctx;
  // Keep what one thread holds small: then most calls are on live QPs.
  unsigned pick = static_cast<unsigned>(r() % 100);
  if (own_.size() > 12 && pick < 30) pick = 40;  // an UNREG or DESTROY instead
  const auto mine = pick_own();
  // An UNREG picked on a QP this thread holds only by handle: DESTROY_QP.
  if (pick >= 32 && pick < 50 && mine && mine->second->regs == 0) pick = 85;

  if (pick < 8) {  // REG(new)
    const int x = static_cast<int>(r() % kXrcds);
    const auto t = tr();
    const CloseWatch w(f_, x);
    auto q = cmd::reg_xrc_rcv_qp(c, f_.xrcd[x], kNewRcvQp, t);
    if (!expect(kRegNew, q, {0, ENOMEM}, "xrcd " + std::to_string(x), w.contended(Via::ioctl)) || !q)
      return;
    if (*q < qpn_first || *q >= k2Pow24) fail("REG(new) answered number " + hexnum(*q));
    if (own_.contains(*q)) fail("REG(new) answered " + hexnum(*q) + ", a live QP this thread holds");
    own_[*q] = Own{x, 1, {}};
    publish(r(), x, *q);
  } else if (pick < 16) {  // REG of a number this thread holds: must succeed
    if (!mine || mine->second->regs > 3) return;
    const auto [q, o] = *mine;
    const auto t = tr();
    auto res = on_held_qp(f_, o->x, Via::ioctl, [&] { return cmd::reg_xrc_rcv_qp(c, f_.xrcd[o->x], q, t); });
    if (expect(kRegOwn, res, {0}, hexnum(q)) && res) ++o->regs;
  } else if (pick < 28) {  // REG of a published number: it may be gone
    auto p = pick_published();
    if (!p) return;
    const auto [x, q] = *p;
    if (own_.contains(q) && own_[q].regs > 3) return;
    const auto t = tr();
    const CloseWatch w(f_, x);
    auto res = cmd::reg_xrc_rcv_qp(c, f_.xrcd[x], q, t);
    if (!expect(kRegPublished, res, {0, EINVAL}, hexnum(q), w.contended(Via::ioctl)) || !res) return;
    auto& o = own_[q];
    o.x = x;
    ++o.regs;
  } else if (pick < 30) {  // REG through the other XRCD: never that QP
    if (!mine) return;
    const auto [q, o] = *mine;
    const auto t = tr();
    const CloseWatch w(f_, 1 - o->x);
    const auto res = cmd::reg_xrc_rcv_qp(c, f_.xrcd[1 - o->x], q, t);
    expect(kRegWrongXrcd, res, {EINVAL}, hexnum(q), w.contended(Via::ioctl));
  } else if (pick < 32) {  // REG of a number no receive QP can have
    std::uint32_t q = static_cast<std::uint32_t>(r()) | k2Pow24;
    if (mine && chance(50)) q = mine->first & ~kMlx4Bit;  // below xrc_sim's range with mlx4_qpn
    if (q >= qpn_first && q < k2Pow24) q |= k2Pow24;
    const auto t = tr();
    const int x = static_cast<int>(r() % kXrcds);
    std::uint32_t h = f_.xrcd[x];
    bool bad_h = chance(20);
    if (bad_h) h = 0x7fff0000U + static_cast<std::uint32_t>(r() % 0xffff);
    const CloseWatch w(f_, x);
    const auto res = cmd::reg_xrc_rcv_qp(c, h, q, t);
    expect(kRegBad, res, {bad_h ? kBadHandle : EINVAL}, hexnum(q) + (bad_h ? " bad handle" : ""),
           bad_h ? 0 : w.contended(Via::ioctl));
  } else if (pick < 50) {  // UNREG of a reference this thread took
    if (!mine) return;
    const auto [q, o] = *mine;
    const auto t = tr();
    const auto res =
        on_held_qp(f_, o->x, Via::ioctl, [&] { return cmd::unreg_xrc_rcv_qp(c, f_.xrcd[o->x], q, t); });
    if (expect(kUnregOwn, res, {0}, hexnum(q)) && res) {
      --o->regs;
      drop_if_empty(q);
    }
  } else if (pick < 52) {  // UNREG of a number no file can hold
    const std::uint32_t q = static_cast<std::uint32_t>(r()) | k2Pow24;
    const int x = static_cast<int>(r() % kXrcds);
    const auto t = tr();
    const CloseWatch w(f_, x);
    const auto res = cmd::unreg_xrc_rcv_qp(c, f_.xrcd[x], q, t);
    expect(kUnregBad, res, {EINVAL}, hexnum(q), w.contended(Via::ioctl));
  } else if (pick < 60) {  // MODIFY of a held QP: the state is shared, EINVAL is allowed
    if (!mine || mine->second->regs == 0) return;
    const auto [q, o] = *mine;
    static const QpModify kMods[] = {xrc_tgt_to_init(), xrc_tgt_to_rtr(), xrc_tgt_to_rts(),
                                     to_state_only(QpState::Reset), to_state_only(QpState::Err)};
    const auto& m = kMods[r() % std::size(kMods)];
    const auto t = tr();
    const auto res = on_held_qp(f_, o->x, Via::ioctl, [&] {
      return cmd::modify_xrc_rcv_qp(c, f_.xrcd[o->x], q, m.attr, m.mask, t);
    });
    expect(kModifyOwn, res, {0, EINVAL}, hexnum(q));
  } else if (pick < 68) {  // QUERY of a held QP: must answer
    if (!mine || mine->second->regs == 0) return;
    const auto [q, o] = *mine;
    const auto t = tr();
    auto a = on_held_qp(f_, o->x, Via::ioctl, [&] {
      return cmd::query_xrc_rcv_qp(c, f_.xrcd[o->x], q, QpAttrMask::AllStandard, t);
    });
    if (expect(kQueryOwn, a, {0}, hexnum(q)) && a &&
        static_cast<int>(a->qp_state) > 6)
      fail("QUERY " + hexnum(q) + " answered state " + std::to_string(int(a->qp_state)));
  } else if (pick < 71) {  // QUERY of a published number: held by the file or not
    auto p = pick_published();
    if (!p) return;
    const auto t = tr();
    const CloseWatch w(f_, p->first);
    const auto res = cmd::query_xrc_rcv_qp(c, f_.xrcd[p->first], p->second, QpAttrMask::State, t);
    expect(kQueryPublished, res, {0, EINVAL}, hexnum(p->second), w.contended(Via::ioctl));
  } else if (pick < 74) {  // OPEN_QP of a QP this thread holds: must open
    if (!mine) return;
    const auto [q, o] = *mine;
    auto h = on_held_qp(f_, o->x, Via::write, [&] { return cmd::open_qp(c, f_.xrcd[o->x], q, q); });
    if (expect(kOpenQpOwn, h, {0}, hexnum(q)) && h) {
      if (h->qp_num != q) fail("OPEN_QP " + hexnum(q) + " opened " + hexnum(h->qp_num));
      o->handles.push_back(h->handle);
    }
  } else if (pick < 78) {  // OPEN_QP of a published number
    auto p = pick_published();
    if (!p) return;
    const auto [x, q] = *p;
    auto h = cmd::open_qp(c, f_.xrcd[x], q, q);  // EINVAL covers a busy handle
    if (!expect(kOpenQpPublished, h, {0, EINVAL}, hexnum(q)) || !h) return;
    auto& o = own_[q];
    o.x = x;
    o.handles.push_back(h->handle);
  } else if (pick < 82) {  // CREATE_QP(XRC_TGT)
    const int x = static_cast<int>(r() % kXrcds);
    const CloseWatch w(f_, x);
    auto h = cmd::create_qp_xrc_tgt(c, f_.xrcd[x]);
    if (!expect(kCreateQp, h, {0, ENOMEM}, "xrcd " + std::to_string(x),
                w.contended(Via::write)) ||
        !h)
      return;
    own_[h->qp_num] = Own{x, 0, {h->handle}};
    publish(r(), x, h->qp_num);
  } else if (pick < 90) {  // DESTROY_QP of a handle this thread made
    if (!mine || mine->second->handles.empty()) return;
    const auto [q, o] = *mine;
    const auto h = o->handles.back();
    if (expect(kDestroyQp, cmd::destroy_qp(c, h), {0}, "handle " + std::to_string(h))) {
      o->handles.pop_back();
      drop_if_empty(q);
    }
  } else if (pick < 93) {  // a second handle on an XRCD: REG through it, close it
    const int x = static_cast<int>(r() % kXrcds);
    std::shared_lock lock(f_.spares);
    auto spare = Xrcd::open(c, opt.xrcd_dir + "/xrc-race-xrcd-" + std::to_string(x));
    if (!expect(kSpareXrcd, spare, {0}, "OPEN_XRCD " + std::to_string(x)) || !spare) return;
    // A reference taken through one handle is the file's, on the XRCD.
    if (mine && mine->second->x == x && mine->second->regs > 0 && mine->second->regs < 4) {
      const auto q = mine->first;
      if (expect(kRegOwn, cmd::reg_xrc_rcv_qp(c, spare->handle(), q, tr()), {0},
                 hexnum(q) + " via a spare handle"))
        ++mine->second->regs;
    }
    // Closing one of two handles succeeds: the references stay reachable.
    expect(kSpareXrcd, spare->close(), {0}, "CLOSE_XRCD of a spare");
  } else if (pick < 95) {  // CLOSE_XRCD of the only handle on an XRCD the file uses
    if (!mine) return;
    const auto [q, o] = *mine;
    std::unique_lock lock(f_.spares);  // no spare handle is open now
    auto& closing = g->closing[f_.slot][o->x];
    closing.fetch_add(1);
    expect(kCloseXrcdBusy, cmd::close_xrcd(c, f_.xrcd[o->x]), {EBUSY},
           "xrcd " + std::to_string(o->x) + " holding " + hexnum(q));
    closing.fetch_add(1);
  } else if (pick < 96) {  // fork: the child shares the file, and its references
    if (!mine || mine->second->regs == 0) return;
    fork_child(mine->first, *mine->second);
  } else {  // read what events are queued; they must be well formed
    auto ev = read_events(c, 0ms, 64);
    count(kEvents, errno_of(ev));
    if (!ev) {
      fail("reading async events: " + ev.error().message());
      return;
    }
    g->events_read.fetch_add(ev->size(), std::memory_order_relaxed);
    for (auto& e : *ev) {
      if (!e.is_xrc_rcv()) continue;  // an OPEN_QP/CREATE_QP handle's: element is ours
      const auto q = *e.xrc_qp_num();
      const auto t = e.type();
      const bool qp_event = (t >= 1 && t <= 7) || t == 16;
      if (!qp_event || q < qpn_first || q >= k2Pow24)
        fail("malformed receive-QP event: " + e.describe());
    }
  }
}

// In the child: the ioctl methods serve it, on the parent's references
// (the file is shared).
void Thread::fork_child(std::uint32_t q, const Own& o) {
  g->forks.fetch_add(1, std::memory_order_relaxed);
  const ContextRef c = f_.ctx;
  const std::uint32_t xh = f_.xrcd[o.x];
  const pid_t pid = ::fork();
  if (pid < 0) {
    fail(std::string("fork: ") + std::strerror(errno));
    return;
  }
  if (pid == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    int rc = 0;
    // The parent's other threads run on: one may be closing xh.
    constexpr auto kIoctl = Transport::ioctl;
    auto res = on_held_qp(f_, o.x, Via::ioctl, [&] { return cmd::reg_xrc_rcv_qp(c, xh, q, kIoctl); });
    if (!expect(kFork, res, {0}, "child: REG " + hexnum(q) + " over ioctl")) rc = 1;
    const auto qres = on_held_qp(f_, o.x, Via::ioctl, [&] {
      return cmd::query_xrc_rcv_qp(c, xh, q, QpAttrMask::State, kIoctl);
    });
    if (!expect(kFork, qres, {0}, "child: QUERY " + hexnum(q))) rc = 1;
    if (res) {
      const auto u =
          on_held_qp(f_, o.x, Via::ioctl, [&] { return cmd::unreg_xrc_rcv_qp(c, xh, q, kIoctl); });
      if (!expect(kFork, u, {0}, "child: UNREG " + hexnum(q))) rc = 1;
    }
    std::fflush(stdout);
    ::_exit(rc);
  }
  int st = 0;
  while (::waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
    fail("forked child of a worker failed (status " + std::to_string(st) + ")");
}

// A worker: files one after another (close() with references held), each
// with opt.threads threads, until the round stops; then it reports what
// its file holds and exits when the orchestrator has read it.
[[noreturn]] void worker(int slot, std::uint64_t seed) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  std::mt19937_64 rng(seed);
  for (int epoch = 0;; ++epoch) {
    auto ctx = Context::open(opt.device);
    if (!ctx) {
      fail("worker: open context: " + ctx.error().message());
      ::_exit(1);
    }
    File f(std::move(*ctx), slot);
    for (int x = 0; x < kXrcds; ++x) {
      auto xr = Xrcd::open(f.ctx, opt.xrcd_dir + "/xrc-race-xrcd-" + std::to_string(x));
      if (!xr) {
        fail("worker: open XRCD: " + xr.error().message());
        ::_exit(1);
      }
      f.xrcd[x] = xr->release();  // CLOSE_XRCD is the threads' business, or close()'s
    }
    std::atomic<bool> epoch_over{false};
    std::vector<std::unique_ptr<Thread>> ts;
    std::vector<std::jthread> running;
    for (int t = 0; t < opt.threads; ++t)
      ts.push_back(std::make_unique<Thread>(f, rng() ^ (std::uint64_t(t) << 56)));
    for (auto& t : ts) running.emplace_back([&t, &epoch_over] { t->run(epoch_over); });
    // An epoch lasts 1 to 8 seconds, unless the round ends first.
    const auto end = Clock::now() + std::chrono::milliseconds(1000 + rng() % 7000);
    while (!g->stop.load() && Clock::now() < end) std::this_thread::sleep_for(20ms);
    epoch_over = true;
    running.clear();  // join
    if (g->stop.load()) {
      std::vector<std::uint32_t> held;
      for (auto& t : ts) t->held(held);
      std::sort(held.begin(), held.end());
      held.erase(std::unique(held.begin(), held.end()), held.end());
      auto& s = g->slot[slot];
      s.nheld = static_cast<std::uint32_t>(std::min<std::size_t>(held.size(), kMaxHeld));
      std::copy_n(held.begin(), s.nheld, s.held);
      s.reported.store(1);
      while (!g->release.load()) std::this_thread::sleep_for(10ms);
      std::fflush(stdout);
      ::_exit(0);  // exit with the file's references held: exit closes it
    }
    g->closes.fetch_add(1, std::memory_order_relaxed);
    // f goes out of scope: close() of a file with references and handles
  }
}

// ---------------------------------------------------------- orchestrator
pid_t spawn(int slot, std::uint64_t seed) {
  g->slot[slot].reported.store(0);
  // A killed worker may have died closing: even the count out, never back
  // (a grandchild still dying may hold an earlier value).
  for (auto& c : g->closing[slot])
    if (c.load() & 1) c.fetch_add(1);
  std::fflush(stdout);
  const pid_t pid = ::fork();
  if (pid < 0) {
    std::perror("fork");
    std::exit(1);
  }
  if (pid == 0) worker(slot, seed);
  return pid;
}

bool reap(pid_t pid, bool killed) {
  int st = 0;
  while (::waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  if (killed && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL) return true;
  if (WIFEXITED(st) && WEXITSTATUS(st) == 0) return true;
  fail("worker " + std::to_string(pid) + " ended with status " + std::to_string(st));
  return false;
}

// Where each thread of a stuck worker waits (wchan and kernel stack), so
// that a failure tells a kernel deadlock from a wait in the test itself.
void report_stuck(pid_t pid) {
  const std::string dir = "/proc/" + std::to_string(pid) + "/task";
  struct Closedir {
    void operator()(DIR* p) const { ::closedir(p); }
  };
  const std::unique_ptr<DIR, Closedir> d(::opendir(dir.c_str()));
  if (!d) return;
  while (const dirent* e = ::readdir(d.get())) {
    if (e->d_name[0] == '.') continue;
    const std::string t = dir + "/" + e->d_name;
    std::string wchan, line;
    std::getline(std::ifstream(t + "/wchan"), wchan);
    std::printf("[race] worker %d thread %s waits in %s\n", pid, e->d_name, wchan.c_str());
    std::ifstream stack(t + "/stack");
    while (std::getline(stack, line)) std::printf("[race]     %s\n", line.c_str());
  }
  std::fflush(stdout);
}

long counter(const sim::Debugfs& d, const char* name) {
  auto v = d.read_counter(name);
  if (!v) {
    fail(std::string("reading ") + name + ": " + v.error().message());
    return -1;
  }
  return *v;
}

// live_qps settles to `expect` (a forked child or a dying file may still
// be closing); returns the last value read.
long settle(const sim::Debugfs& d, long expect) {
  long v = -1;
  for (int i = 0; i < 300; ++i) {
    v = counter(d, "live_qps");
    if (v == expect) break;
    std::this_thread::sleep_for(10ms);
  }
  return v;
}

std::uint64_t parse_u64(const char* s) { return std::strtoull(s, nullptr, 0); }

std::uint64_t fresh_seed() {
  std::uint64_t s = 0;
  if (auto fd = ::open("/dev/urandom", O_RDONLY); fd >= 0) {
    if (::read(fd, &s, sizeof s) != sizeof s) s = 0;
    ::close(fd);
  }
  if (!s) s = static_cast<std::uint64_t>(Clock::now().time_since_epoch().count());
  return s;
}

int usage() {
  std::fprintf(stderr,
               "usage: xrc_race [--seed N] [--seconds S] [--procs P] [--threads T] [--round S]"
               " [--device PATH]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (const char* e = std::getenv("XRC_RACE_SEED")) opt.seed = parse_u64(e);
  if (const char* e = std::getenv("XRC_RACE_SECONDS")) opt.seconds = std::atof(e);
  if (const char* e = std::getenv("XRC_RACE_PROCS")) opt.procs = std::atoi(e);
  if (const char* e = std::getenv("XRC_RACE_THREADS")) opt.threads = std::atoi(e);
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) return usage();
    const char* v = argv[++i];
    if (a == "--seed") opt.seed = parse_u64(v);
    else if (a == "--seconds") opt.seconds = std::atof(v);
    else if (a == "--procs") opt.procs = std::atoi(v);
    else if (a == "--threads") opt.threads = std::atoi(v);
    else if (a == "--round") opt.round = std::atof(v);
    else if (a == "--device") opt.device = v;
    else return usage();
  }
  if (opt.procs < 1 || opt.procs > kMaxWorkers || opt.threads < 1 || opt.threads > 64 ||
      opt.seconds <= 0 || opt.round <= 0)
    return usage();
  if (!opt.seed) opt.seed = fresh_seed();
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  std::printf("[race] seed=0x%llx procs=%d threads=%d seconds=%g round=%g"
              " (replay: xrc_race --seed 0x%llx --seconds %g --procs %d --threads %d)\n",
              static_cast<unsigned long long>(opt.seed), opt.procs, opt.threads, opt.seconds,
              opt.round, static_cast<unsigned long long>(opt.seed), opt.seconds, opt.procs,
              opt.threads);
  if (::access(opt.device.c_str(), F_OK) != 0) {
    std::printf("[race] %s is absent: run me in the guest with xrc_sim\n", opt.device.c_str());
    return 77;
  }
  sim::Debugfs::ensure_mounted();
  const sim::Debugfs dbg;
  if (!dbg.has_counters() || !dbg.has_inject()) {
    std::printf("[race] FAIL: xrc_sim's debugfs (live_qps, inject_event) is not in %s\n",
                dbg.dir().c_str());
    return 1;
  }
  if (FILE* p = std::fopen("/sys/module/xrc_sim/parameters/mlx4_qpn", "r")) {
    if (std::fgetc(p) == 'Y') qpn_first |= kMlx4Bit;
    std::fclose(p);
  }

  void* mem = ::mmap(nullptr, sizeof(Shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                     -1, 0);
  if (mem == MAP_FAILED) {
    std::perror("mmap");
    return 1;
  }
  g = new (mem) Shared{};
  const long base_qps = counter(dbg, "live_qps");
  const long base_xrcds = counter(dbg, "live_xrcds");
  const long base_irq = dbg.read_counter("irq_events").value_or(-1);

  std::mt19937_64 rng(opt.seed);
  auto seconds = [](double s) {
    return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
  };
  const auto deadline = Clock::now() + seconds(opt.seconds);
  long kills = 0, injected = 0, inject_gone = 0, rounds = 0, checks = 0;
  for (int round = 0; Clock::now() < deadline; ++round) {
    ++rounds;
    g->stop = 0;
    g->release = 0;
    for (auto& p : g->published) p = 0;
    std::array<pid_t, kMaxWorkers> pid{};
    int generation = 0;
    auto worker_seed = [&](int slot) {
      return opt.seed ^ (std::uint64_t(round) << 48) ^ (std::uint64_t(slot) << 40) ^
             (std::uint64_t(++generation) * 0x9e3779b97f4a7c15ULL);
    };
    for (int s = 0; s < opt.procs; ++s) pid[s] = spawn(s, worker_seed(s));

    // Events, from the device's interrupt, on whatever numbers are out there.
    std::atomic<bool> inject_stop{false};
    std::jthread injector([&] {
      std::mt19937_64 ir(opt.seed ^ 0x1e7ULL ^ std::uint64_t(round));
      static constexpr std::uint32_t kTypes[] = {1, 2, 3, 4, 5, 6, 7, 16};
      while (!inject_stop.load()) {
        const auto v = g->published[ir() % kPublished].load();
        if (!v) {
          std::this_thread::sleep_for(1ms);
          continue;
        }
        auto res = dbg.inject_event(static_cast<std::uint32_t>(v), kTypes[ir() % std::size(kTypes)]);
        if (res) ++injected;
        else if (res.error().errnum == ENOENT) ++inject_gone;
        else fail("inject_event: " + res.error().message());
        std::this_thread::sleep_for(std::chrono::microseconds(200 + ir() % 800));
      }
    });

    // kill -9 a worker now and then, and start another in its place.
    const auto round_end = std::min(deadline, Clock::now() + seconds(opt.round));
    auto next_kill = Clock::now() + std::chrono::milliseconds(500 + rng() % 3000);
    while (Clock::now() < round_end) {
      std::this_thread::sleep_for(20ms);
      if (Clock::now() < next_kill) continue;
      const int s = static_cast<int>(rng() % opt.procs);
      ::kill(pid[s], SIGKILL);
      reap(pid[s], true);
      ++kills;
      pid[s] = spawn(s, worker_seed(s));
      next_kill = Clock::now() + std::chrono::milliseconds(500 + rng() % 3000);
    }

    // Quiescence: every worker stops and reports what its file holds.
    g->stop = 1;
    inject_stop = true;
    injector.join();
    const auto wait_end = Clock::now() + 60s;
    for (int s = 0; s < opt.procs; ++s)
      while (!g->slot[s].reported.load() && Clock::now() < wait_end)
        std::this_thread::sleep_for(10ms);
    std::vector<std::uint32_t> all;
    bool complete = true;
    for (int s = 0; s < opt.procs; ++s) {
      if (!g->slot[s].reported.load()) {
        fail("worker " + std::to_string(pid[s]) + " did not reach quiescence in 60 s");
        report_stuck(pid[s]);
        complete = false;
        continue;
      }
      all.insert(all.end(), g->slot[s].held, g->slot[s].held + g->slot[s].nheld);
    }
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    if (complete) {
      ++checks;
      const long expect = base_qps + static_cast<long>(all.size());
      const long got = settle(dbg, expect);
      std::printf("[race] round %d: quiescent, %zu QPs held by %d files, live_qps %ld (base %ld)\n",
                  round + 1, all.size(), opt.procs, got, base_qps);
      if (got != expect)
        fail("round " + std::to_string(round + 1) + ": live_qps " + std::to_string(got) +
             ", the surviving references imply " + std::to_string(expect));
    }
    g->release = 1;
    // A worker that never reported is stuck (its failure is recorded):
    // kill it rather than wait for it, so that the run still ends with
    // its result line.
    for (int s = 0; s < opt.procs; ++s) {
      const bool stuck = !g->slot[s].reported.load();
      if (stuck) ::kill(pid[s], SIGKILL);
      reap(pid[s], stuck);
    }
    const long after = settle(dbg, base_qps);
    if (after != base_qps)
      fail("round " + std::to_string(round + 1) + ": every file closed, live_qps " +
           std::to_string(after) + ", base " + std::to_string(base_qps));
    if (const long x = counter(dbg, "live_xrcds"); x != base_xrcds)
      fail("every file closed, live_xrcds " + std::to_string(x) + ", base " +
           std::to_string(base_xrcds));
  }
  for (int x = 0; x < kXrcds; ++x)
    ::unlink((opt.xrcd_dir + "/xrc-race-xrcd-" + std::to_string(x)).c_str());

  std::printf("[race] %-24s", "call");
  for (int e : kErrnos) std::printf(" %7s", e == 0 ? "ok" : e < 0 ? "other" : std::string(errno_name(e)).c_str());
  std::printf("\n");
  for (int op = 0; op < kOpCount; ++op) {
    std::printf("[race] %-24s", kOpNames[op]);
    for (std::size_t i = 0; i < kErrnos.size(); ++i)
      std::printf(" %7llu", static_cast<unsigned long long>(g->stats[op][i].load()));
    std::printf("\n");
  }
  const long irq = base_irq >= 0 ? dbg.read_counter("irq_events").value_or(-1) - base_irq : -1;
  const int failures = g->failures.load();
  std::printf("XRC-RACE result=%s seed=0x%llx calls=%llu procs=%d threads=%d rounds=%ld"
              " quiescence_checks=%ld kills=%ld forks=%llu closes=%llu events_injected=%ld"
              " events_to_gone_qps=%ld irq_events=%ld events_read=%llu busy_during_close=%llu"
              " failures=%d\n",
              failures ? "failed" : "passed", static_cast<unsigned long long>(opt.seed),
              static_cast<unsigned long long>(g->calls.load()), opt.procs, opt.threads, rounds,
              checks, kills, static_cast<unsigned long long>(g->forks.load()),
              static_cast<unsigned long long>(g->closes.load()), injected, inject_gone, irq,
              static_cast<unsigned long long>(g->events_read.load()),
              static_cast<unsigned long long>(g->contended.load()), failures);
  return failures ? 1 : 0;
}
