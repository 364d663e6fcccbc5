// The scenarios beyond one file: throughput on two vCPUs (scale), P
// processes sharing N receive QPs the way MPI ranks do (mpi), and the
// userspace alternative, MLNX_OFED's emulation of the legacy verbs over
// OPEN_QP (emul).  Same rules as phases.cpp: everything is measured side
// by side with the mainline way, and ratios are taken within a trial.
#include "phases.hpp"

#include "system.hpp"

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <functional>
#include <latch>
#include <map>
#include <memory>
#include <sched.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <linux/futex.h>

namespace xrc_bench {

namespace {

constexpr auto kNew = xrcrcv::kNewRcvQp;  // REG without a number: create

Row row(std::string id, std::string section, std::string label, std::string unit,
        const std::vector<double>& v) {
  return Row{std::move(id), std::move(section), std::move(label), std::move(unit), summarize(v), {}};
}

}  // namespace

// --------------------------------------------------------------- scale
// Throughput of REG+UNREG pairs (a file's first and last reference to a QP
// another file holds) against OPEN_QP+DESTROY_QP pairs, with one worker
// thread on CPU 0, two files with a worker each on CPUs 0 and 1, two
// worker threads of one file on CPUs 0 and 1, and the same with an XRCD
// handle each (to the registration layer one owner per handle, as two
// files are; to OPEN_QP it is all the same).  Each worker cycles on its
// own QP.  Throughput = all pairs / (last worker's end - first one's
// start); scaling = throughput with two / with one, in the same trial.
void Bench::scale() {
  enum Kind { kReg, kOpen };
  enum Mode { kOne, kFiles2, kThreads2, kHandles2, kNumModes };
  static const char* const kind_key[] = {"reg_unreg", "open_destroy"};
  static const char* const mode_key[] = {"1", "files2", "threads2", "handles2"};
  const long np = opt_.scale_pairs;
  File owner = new_file();
  const std::uint32_t qp[2] = {owner.ops().must_reg(kNew), owner.ops().must_reg(kNew)};
  File a = new_file();
  File b = new_file();
  std::unique_ptr<Ops> ops[kNumModes][2];
  ops[kOne][0] = a.more_ops();
  ops[kFiles2][0] = a.more_ops();
  ops[kFiles2][1] = b.more_ops();
  ops[kThreads2][0] = a.more_ops();
  ops[kThreads2][1] = a.more_ops();
  ops[kHandles2][0] = a.more_ops();
  ops[kHandles2][1] = a.ops_on_another_xrcd_handle();

  // One timed run: pairs per second over all workers.
  auto run = [&](Kind kind, Mode mode) {
    const int nw = mode == kOne ? 1 : 2;
    std::latch start(nw);
    std::int64_t t0[2] = {}, t1[2] = {};
    std::string err[2];
    auto work = [&](int w) {
      Ops& o = *ops[mode][w];
      if (!pin_to_cpu(w)) err[w] = "cannot pin to CPU " + std::to_string(w);
      start.arrive_and_wait();
      t0[w] = now_ns();
      try {
        for (long i = 0; i < np; ++i) {
          if (kind == kReg) {
            (void)o.must_reg(qp[w]);
            o.must_unreg(qp[w]);
          } else {
            o.must_destroy_qp(o.must_open_qp(qp[w]));
          }
        }
      } catch (const Fatal& e) {
        err[w] = e.what();
      }
      t1[w] = now_ns();
    };
    std::vector<std::thread> th;
    for (int w = 0; w < nw; ++w) th.emplace_back(work, w);
    for (auto& t : th) t.join();
    for (int w = 0; w < nw; ++w)
      if (!err[w].empty()) throw Fatal("scale: " + err[w]);
    const std::int64_t begin = nw == 1 ? t0[0] : std::min(t0[0], t0[1]);
    const std::int64_t end = nw == 1 ? t1[0] : std::max(t1[0], t1[1]);
    return static_cast<double>(nw * np) / (static_cast<double>(end - begin) / 1e9);
  };

  std::vector<double> thr[2][kNumModes];
  quiesce();
  progress("scale: %d trials of %d runs x %ld pairs per worker", opt_.scale_trials,
           2 * kNumModes, np);
  const int nr = 2 * kNumModes;
  for (int trial = -1; trial < opt_.scale_trials; ++trial) {  // -1 warms up
    for (int k = 0; k < nr; ++k) {
      const int r = (k + trial + nr) % nr;
      const double v = run(static_cast<Kind>(r / kNumModes), static_cast<Mode>(r % kNumModes));
      if (trial >= 0) thr[r / kNumModes][r % kNumModes].push_back(v / 1e3);
    }
  }
  (void)pin_to_cpu(opt_.cpu);

  static const char* const mode_label[] = {
      "1 file, 1 thread", "2 files on 2 vCPUs", "2 threads of 1 file on 2 vCPUs",
      "2 threads of 1 file, an XRCD handle each, on 2 vCPUs"};
  static const char* const kind_label[] = {"REG+UNREG", "OPEN_QP+DESTROY_QP"};
  for (int k = 0; k < 2; ++k)
    for (int m = 0; m < kNumModes; ++m)
      rep_.add(row(std::string("scale.thr.") + kind_key[k] + "." + mode_key[m], "scale",
                   std::string(kind_label[k]) + " throughput, " + mode_label[m], "kpairs/s",
                   thr[k][m]));
  for (int m = kFiles2; m < kNumModes; ++m) {
    std::vector<double> sc[2];
    for (int k = 0; k < 2; ++k) {
      sc[k] = ratios(thr[k][m], thr[k][kOne]);
      rep_.add(row(std::string("scale.") + kind_key[k] + "." + mode_key[m], "scale",
                   std::string("  ") + kind_label[k] + " scaling: " + mode_label[m] + " / 1", "x",
                   sc[k]));
    }
    rep_.add(row(std::string("scale_ratio.") + mode_key[m], "scale",
                 std::string("  REG+UNREG scaling / OPEN_QP+DESTROY_QP scaling, ") + mode_label[m],
                 "x", ratios(sc[0], sc[1])));
  }
}

// ----------------------------------------------------------------- mpi
namespace {

long futex(std::atomic<std::uint32_t>* word, int op, std::uint32_t val) {
  static_assert(sizeof(std::atomic<std::uint32_t>) == sizeof(std::uint32_t));
  return syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(word), op, val, nullptr, nullptr, 0);
}

// Shared between the parent and its P children (MAP_SHARED, so the
// futexes are not private).
struct Slot {
  std::atomic<std::uint32_t> state;  // 0 nobody, 1 being created, 2 created
  std::uint32_t qpn;
};
struct Shared {
  std::atomic<std::uint32_t> ready, go, done, close, closed, failed;
  char error[256];
  Slot slots[1];  // N of them
};

void bump(std::atomic<std::uint32_t>& c) {
  c.fetch_add(1);
  (void)futex(&c, FUTEX_WAKE, INT_MAX);
}

// Block until `c` reaches `want` (or, with `fail`, until something failed).
void wait_for(std::atomic<std::uint32_t>& c, std::uint32_t want,
              const std::atomic<std::uint32_t>* fail = nullptr) {
  for (;;) {
    const std::uint32_t v = c.load();
    if (v >= want || (fail && fail->load())) return;
    (void)futex(&c, FUTEX_WAIT, v);
  }
}

class SharedMap {
 public:
  explicit SharedMap(long slots)
      : bytes_(sizeof(Shared) + static_cast<std::size_t>(slots) * sizeof(Slot)),
        p_(mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0)) {
    if (p_ == MAP_FAILED) throw Fatal(std::string("mmap: ") + std::strerror(errno));
  }
  SharedMap(const SharedMap&) = delete;
  SharedMap& operator=(const SharedMap&) = delete;
  ~SharedMap() { munmap(p_, bytes_); }
  Shared& operator*() const { return *static_cast<Shared*>(p_); }
  Shared* operator->() const { return static_cast<Shared*>(p_); }

 private:
  std::size_t bytes_;
  void* p_;
};

// One rank: open a file, and at "go" register the N QPs from its own
// offset on, creating each one nobody has created yet.  Never returns.
[[noreturn]] void rank(Shared& sh, long r, long p, long n, bool reg, const Options& opt) {
  int rc = 0;
  auto fail = [&](const std::string& what) {
    if (sh.failed.exchange(1) == 0)
      std::snprintf(sh.error, sizeof sh.error, "rank %ld: %s", r, what.c_str());
    rc = 1;
  };
  (void)unpin();
  std::unique_ptr<File> f;
  try {
    f = std::make_unique<File>(opt.device, opt.xrcd_file);
  } catch (const Fatal& e) {
    fail(e.what());
  }
  bump(sh.ready);
  wait_for(sh.go, 1);
  if (f) {
    try {
      Ops& o = f->ops();
      for (long i = 0; i < n && !sh.failed.load(); ++i) {
        Slot& s = sh.slots[(r * n / p + i) % n];
        std::uint32_t zero = 0;
        if (s.state.compare_exchange_strong(zero, 1)) {
          std::uint32_t qpn = 0;
          if (reg) qpn = o.must_reg(kNew);
          else (void)o.must_create_qp(&qpn);
          s.qpn = qpn;
          s.state.store(2);
        } else {
          while (s.state.load() != 2) {
            if (sh.failed.load()) throw Fatal("another rank failed");
            sched_yield();
          }
          if (reg) (void)o.must_reg(s.qpn);
          else (void)o.must_open_qp(s.qpn);
        }
      }
    } catch (const Fatal& e) {
      fail(e.what());
    }
  }
  bump(sh.done);
  wait_for(sh.close, 1);
  if (f) {
    try {
      f->close();
    } catch (const Fatal& e) {
      fail(e.what());
    }
  }
  bump(sh.closed);
  _exit(rc);
}

}  // namespace

// P processes (ranks), each with its own uverbs file on the shared XRCD,
// each taking the same N receive QPs, which whichever rank comes first
// creates: REG(NEW) then REG by the others, against CREATE_QP(XRC_TGT)
// then OPEN_QP by the others.  Rank r starts at QP r*N/P, so the
// creations are spread over the ranks.  Timed by the parent: from "go"
// until every rank holds all N; slab bytes with all of them held; from
// "close" until every rank's close(2) has returned.
void Bench::mpi() {
  const long p = opt_.mpi_procs;
  static const char* const key[] = {"reg", "open_qp"};
  for (const long n : opt_.mpi_qps) {
    std::vector<double> ms[2], close_ms[2], bytes[2], meminfo[2];
    for (int trial = 0; trial < opt_.mpi_trials; ++trial) {
      for (int k = 0; k < 2; ++k) {
        const int v = (k + trial) % 2;
        SharedMap sh(n);
        std::vector<pid_t> kids;
        std::fflush(nullptr);
        const long long live0 = live_qps();
        for (long r = 0; r < p; ++r) {
          const pid_t pid = fork();
          if (pid < 0) {
            // Let the ranks already forked run through and exit.
            const int e = errno;
            sh->failed.store(1);
            for (auto* w : {&sh->go, &sh->close}) {
              w->store(1);
              (void)futex(w, FUTEX_WAKE, INT_MAX);
            }
            for (const pid_t kid : kids) (void)waitpid(kid, nullptr, 0);
            throw Fatal(std::string("fork: ") + std::strerror(e));
          }
          if (pid == 0) rank(*sh, r, p, n, v == 0, opt_);
          kids.push_back(pid);
        }
        wait_for(sh->ready, static_cast<std::uint32_t>(p));
        (void)settle_slab(opt_.settle_ms);
        const SlabSnapshot s0 = slab_snapshot();
        const auto t0 = now_ns();
        sh->go.store(1);
        (void)futex(&sh->go, FUTEX_WAKE, INT_MAX);
        wait_for(sh->done, static_cast<std::uint32_t>(p));
        const auto t1 = now_ns();
        (void)settle_slab(opt_.settle_ms);
        const SlabSnapshot s1 = slab_snapshot();
        const long long live = live_qps();
        const auto t2 = now_ns();
        sh->close.store(1);
        (void)futex(&sh->close, FUTEX_WAKE, INT_MAX);
        wait_for(sh->closed, static_cast<std::uint32_t>(p));
        const auto t3 = now_ns();
        bool ok = true;
        for (const pid_t pid : kids) {
          int st = 0;
          if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0) ok = false;
        }
        if (sh->failed.load() || !ok)
          throw Fatal(std::string("mpi: ") + (sh->failed.load() ? sh->error : "a rank died"));
        if (live0 >= 0 && (live - live0 != n || live_qps() != live0))
          throw Fatal("mpi: " + std::to_string(live - live0) + " QPs alive with every rank, " +
                      std::to_string(live_qps() - live0) + " after, expected " +
                      std::to_string(n) + " and 0");
        const double regs = static_cast<double>(p * n);
        ms[v].push_back(static_cast<double>(t1 - t0) / 1e6);
        close_ms[v].push_back(static_cast<double>(t3 - t2) / 1e6);
        bytes[v].push_back(static_cast<double>(s1.object_bytes() - s0.object_bytes()) / regs);
        meminfo[v].push_back(static_cast<double>(s1.sunreclaim_kb - s0.sunreclaim_kb) * 1024.0 / regs);
      }
      progress("mpi: %ld ranks x %ld QPs, trial %d/%d done", p, n, trial + 1, opt_.mpi_trials);
    }
    const std::string ns = std::to_string(n);
    const double regs = static_cast<double>(p * n);
    const std::string what = std::to_string(p) + " ranks x " + ns + " QPs";
    static const char* const via[] = {"REG(NEW)/REG", "CREATE_QP/OPEN_QP"};
    for (int v = 0; v < 2; ++v) {
      Row t = row("mpi." + std::string(key[v]) + ".time." + ns, "mpi",
                  what + ", " + via[v] + ": all ranks take all QPs", "ms", ms[v]);
      t.extra = {{"regs", regs}, {"per_reg_us", t.s.median * 1e3 / regs}};
      rep_.add(std::move(t));
      Row m = row("mpi." + std::string(key[v]) + ".bytes." + ns, "mpi",
                  what + ", " + via[v] + ": slab bytes per registration", "bytes", bytes[v]);
      m.extra = {{"regs", regs}, {"total_mb", m.s.median * regs / 1048576.0},
                 {"meminfo_sunreclaim_bytes", summarize(meminfo[v]).median}};
      rep_.add(std::move(m));
      Row c = row("mpi." + std::string(key[v]) + ".close." + ns, "mpi",
                  what + ", " + via[v] + ": close() of all ranks", "ms", close_ms[v]);
      c.extra = {{"regs", regs}, {"per_reg_us", c.s.median * 1e3 / regs}};
      rep_.add(std::move(c));
    }
    rep_.add(row("mpi_ratio.time." + ns, "mpi", "  " + what + ": time, REG / OPEN_QP", "x",
                 ratios(ms[0], ms[1])));
    rep_.add(row("mpi_ratio.bytes." + ns, "mpi", "  " + what + ": slab, REG / OPEN_QP", "x",
                 ratios(bytes[0], bytes[1])));
    rep_.add(row("mpi_ratio.close." + ns, "mpi", "  " + what + ": close(), REG / OPEN_QP", "x",
                 ratios(close_ms[0], close_ms[1])));
  }
}

// ---------------------------------------------------------------- emul
namespace {

// MLNX_OFED's emulation of the legacy XRC receive-QP verbs in
// libibverbs, over OPEN_QP: a process-global tree from QP number to an
// open handle and a count.  Here over the raw write commands (the same
// ones ibv_open_qp() and ibv_destroy_qp() send), not over libibverbs.
class Emulation {
 public:
  explicit Emulation(Ops& ops) : ops_(ops) {}

  // ibv_reg_xrc_rcv_qp(): the first registration opens a handle.
  int reg(std::uint32_t qpn) {
    if (const auto it = tree_.find(qpn); it != tree_.end()) {
      ++it->second.count;
      return 0;
    }
    std::uint32_t handle = 0;
    if (const int e = ops_.open_qp(qpn, &handle)) return e;
    tree_.emplace(qpn, Entry{handle, 1});
    return 0;
  }

  // ibv_unreg_xrc_rcv_qp(): the last one destroys the handle.
  int unreg(std::uint32_t qpn) {
    const auto it = tree_.find(qpn);
    if (it == tree_.end()) return EINVAL;
    if (--it->second.count > 0) return 0;
    const int e = ops_.destroy_qp(it->second.handle);
    tree_.erase(it);
    return e;
  }

 private:
  struct Entry {
    std::uint32_t handle;
    unsigned count;
  };
  Ops& ops_;
  std::map<std::uint32_t, Entry> tree_;
};

void must(int e, const char* what) {
  if (e) throw Fatal(std::string(what) + ": " + std::string(xrcrcv::errno_name(e)));
}

}  // namespace

// REG+UNREG through the kernel against the emulation, B each per trial in
// rotating order: of B QPs another file holds (the file's / process's
// first and last reference: the emulation pays OPEN_QP + DESTROY_QP), and
// of a QP already held (both only count).
void Bench::emul() {
  const int nb = opt_.batch;
  File owner = new_file();
  File kern = new_file();
  File user = new_file();
  Emulation em(user.ops());
  Ops& k = kern.ops();
  std::vector<std::uint32_t> shared(nb);
  for (auto& q : shared) q = owner.ops().must_reg(kNew);
  const std::uint32_t held_qp = owner.ops().must_reg(kNew);
  k.must_reg(held_qp);
  must(em.reg(held_qp), "emulated REG");

  enum Op { kKernel, kEmul, kKernelHeld, kEmulHeld, kNumOps };
  std::vector<double> t[kNumOps];
  auto timed = [&](bool rec, Op op, const std::function<void()>& fn) {
    const auto t0 = now_ns();
    fn();
    if (rec) t[op].push_back(static_cast<double>(now_ns() - t0) / 1e3 / nb);
  };
  const std::vector<std::function<void(bool)>> kinds = {
      [&](bool rec) {
        timed(rec, kKernel, [&] {
          for (auto q : shared) (void)k.must_reg(q);
          for (auto q : shared) k.must_unreg(q);
        });
      },
      [&](bool rec) {
        timed(rec, kEmul, [&] {
          for (auto q : shared) must(em.reg(q), "emulated REG");
          for (auto q : shared) must(em.unreg(q), "emulated UNREG");
        });
      },
      [&](bool rec) {
        timed(rec, kKernelHeld, [&] {
          for (int i = 0; i < nb; ++i) (void)k.must_reg(held_qp);
          for (int i = 0; i < nb; ++i) k.must_unreg(held_qp);
        });
      },
      [&](bool rec) {
        timed(rec, kEmulHeld, [&] {
          for (int i = 0; i < nb; ++i) must(em.reg(held_qp), "emulated REG");
          for (int i = 0; i < nb; ++i) must(em.unreg(held_qp), "emulated UNREG");
        });
      },
  };
  quiesce();
  progress("emul: %d trials of %zu kinds x %d pairs", opt_.trials, kinds.size(), nb);
  const int nk = static_cast<int>(kinds.size());
  for (int trial = -1; trial < opt_.trials; ++trial)
    for (int i = 0; i < nk; ++i) kinds[(i + trial + nk) % nk](trial >= 0);

  rep_.add(row("emul.ratio.reg_unreg", "emul",
               "REG+UNREG (existing QP) in the kernel / in the OFED-style emulation", "x",
               ratios(t[kKernel], t[kEmul])));
  rep_.add(row("emul.ratio.reg_unreg_held", "emul",
               "  the same, QP already held (kernel counter / userspace counter)", "x",
               ratios(t[kKernelHeld], t[kEmulHeld])));
  rep_.add(row("emul.lat.kernel", "emul", "  kernel REG+UNREG pair (first ref)", "us", t[kKernel]));
  rep_.add(row("emul.lat.emul", "emul", "  emulated pair: tree + OPEN_QP + DESTROY_QP", "us",
               t[kEmul]));
  rep_.add(row("emul.lat.kernel_held", "emul", "  kernel REG+UNREG pair (QP held)", "us",
               t[kKernelHeld]));
  rep_.add(row("emul.lat.emul_held", "emul", "  emulated pair, QP held (tree only)", "us",
               t[kEmulHeld]));
  k.must_unreg(held_qp);
  must(em.unreg(held_qp), "emulated UNREG");
}

}  // namespace xrc_bench
