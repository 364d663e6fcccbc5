#include "phases.hpp"

#include "system.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>

namespace xrc_bench {

namespace {

constexpr auto kNew = xrcrcv::kNewRcvQp;  // REG without a number: create

double us(std::int64_t ns, long ops) { return static_cast<double>(ns) / 1e3 / static_cast<double>(ops); }

Row row(std::string id, std::string section, std::string label, std::string unit,
        const std::vector<double>& v) {
  return Row{std::move(id), std::move(section), std::move(label), std::move(unit), summarize(v), {}};
}

std::vector<double> minus(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> r;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) r.push_back(a[i] - b[i]);
  return r;
}

// An UNREG of a number the file does not hold: the floor, and it must fail.
void unreg_miss(Ops& ops, std::uint32_t qp) {
  if (const int e = ops.unreg(qp); e != EINVAL)
    throw Fatal("UNREG of a number the file does not hold: expected EINVAL, got " +
                std::string(xrcrcv::errno_name(e)));
}

}  // namespace

bool Bench::wants(const std::string& phase) const {
  const std::string list = "," + opt_.phases + ",";
  return list.find("," + phase + ",") != std::string::npos;
}

void Bench::progress(const char* fmt, ...) const {
  std::fprintf(stderr, "xrc-bench: [%7.1fs] ", static_cast<double>(now_ns() - start_ns_) / 1e9);
  va_list ap;
  va_start(ap, fmt);
  std::vfprintf(stderr, fmt, ap);
  va_end(ap);
  std::fputc('\n', stderr);
  std::fflush(stderr);
}

void Bench::quiesce() const { (void)settle_slab(std::min(opt_.settle_ms, 3000L)); }

long long Bench::live_qps() const { return read_number(opt_.debugfs + "/live_qps").value_or(-1); }

// --------------------------------------------------------------- pairs
// Each series command against the mainline command(s) that do the same,
// and everything against the floor.  Kinds of batch, run in rotating order:
//   REG of B existing QPs (file's first reference), then UNREG of each
//   OPEN_QP of the same B QPs, then DESTROY_QP of each handle
//   REG of a QP the file already holds, B times, then B UNREGs (counter)
//   REG(NEW) B times, then UNREG of each (last reference: destroys)
//   CREATE_QP(XRC_TGT) B times, then DESTROY_QP of each (destroys)
//   UNREG of a number the file does not hold, B times (the floor)
//   QUERY_PORT, B times
//   REG+UNREG of one existing QP, B pairs, by a file that holds nothing
//   else (every pair inserts into and erases from the file's empty index)
//   OPEN_QP+DESTROY_QP of that QP, B pairs, by the same file
void Bench::pairs() {
  const int nb = opt_.batch;
  File owner = new_file();
  File bench = new_file();
  File lone = new_file();
  Ops& o = owner.ops();
  Ops& b = bench.ops();
  Ops& l = lone.ops();
  std::vector<std::uint32_t> shared(nb), handle(nb), qpn(nb);
  for (auto& q : shared) q = o.must_reg(kNew);
  const std::uint32_t held_qp = o.must_reg(kNew);
  b.must_reg(held_qp);
  // Owned by `owner`, never held by `bench` outside its own batch.
  const std::uint32_t miss_qp = shared[0];

  enum Op { kReg, kUnreg, kOpen, kDestroyOpen, kRegHeld, kUnregHeld, kRegNew, kUnregDestroy,
            kCreate, kDestroy, kFloor, kQueryPort, kRegLone, kOpenLone, kNumOps };
  std::vector<std::vector<double>> t(kNumOps);
  auto two = [&](bool rec, Op a, Op z, const std::function<void()>& first,
                 const std::function<void()>& second) {
    const auto t0 = now_ns();
    first();
    const auto t1 = now_ns();
    second();
    const auto t2 = now_ns();
    if (!rec) return;
    t[a].push_back(us(t1 - t0, nb));
    if (z != kNumOps) t[z].push_back(us(t2 - t1, nb));
  };
  const auto nothing = [] {};
  const std::vector<std::function<void(bool)>> kinds = {
      [&](bool rec) {
        two(rec, kReg, kUnreg, [&] { for (auto q : shared) b.must_reg(q); },
            [&] { for (auto q : shared) b.must_unreg(q); });
      },
      [&](bool rec) {
        two(rec, kOpen, kDestroyOpen,
            [&] { for (int i = 0; i < nb; ++i) handle[i] = b.must_open_qp(shared[i]); },
            [&] { for (auto h : handle) b.must_destroy_qp(h); });
      },
      [&](bool rec) {
        two(rec, kRegHeld, kUnregHeld, [&] { for (int i = 0; i < nb; ++i) b.must_reg(held_qp); },
            [&] { for (int i = 0; i < nb; ++i) b.must_unreg(held_qp); });
      },
      [&](bool rec) {
        two(rec, kRegNew, kUnregDestroy, [&] { for (auto& q : qpn) q = b.must_reg(kNew); },
            [&] { for (auto q : qpn) b.must_unreg(q); });
      },
      [&](bool rec) {
        two(rec, kCreate, kDestroy, [&] { for (auto& h : handle) h = b.must_create_qp(); },
            [&] { for (auto h : handle) b.must_destroy_qp(h); });
      },
      [&](bool rec) {
        two(rec, kFloor, kNumOps, [&] { for (int i = 0; i < nb; ++i) unreg_miss(b, miss_qp); },
            nothing);
      },
      [&](bool rec) {
        two(rec, kQueryPort, kNumOps, [&] { for (int i = 0; i < nb; ++i) b.must_query_port(); },
            nothing);
      },
      [&](bool rec) {
        two(rec, kRegLone, kNumOps, [&] {
          for (int i = 0; i < nb; ++i) {
            (void)l.must_reg(miss_qp);
            l.must_unreg(miss_qp);
          }
        }, nothing);
      },
      [&](bool rec) {
        two(rec, kOpenLone, kNumOps, [&] {
          for (int i = 0; i < nb; ++i) l.must_destroy_qp(l.must_open_qp(miss_qp));
        }, nothing);
      },
  };
  quiesce();
  progress("pairs: %d trials of %zu kinds x %d commands", opt_.trials, kinds.size(), nb);
  const int nk = static_cast<int>(kinds.size());
  for (int trial = -1; trial < opt_.trials; ++trial)  // trial -1 warms up
    for (int k = 0; k < nk; ++k) kinds[(k + trial + nk) % nk](trial >= 0);

  // Series against mainline.
  auto ratio = [&](const char* id, const char* label, const std::vector<double>& a,
                   const std::vector<double>& z) {
    rep_.add(row(id, "ratio", label, "x", ratios(a, z)));
  };
  ratio("ratio.reg_unreg_vs_open_destroy", "REG+UNREG (existing QP) / OPEN_QP+DESTROY_QP",
        sums(t[kReg], t[kUnreg]), sums(t[kOpen], t[kDestroyOpen]));
  ratio("ratio.reg_vs_open_qp", "  REG (file's first ref) / OPEN_QP", t[kReg], t[kOpen]);
  ratio("ratio.unreg_vs_destroy_open_qp", "  UNREG (file's last ref) / DESTROY_QP (open handle)",
        t[kUnreg], t[kDestroyOpen]);
  ratio("ratio.reg_new_unreg_vs_create_destroy", "REG(NEW)+UNREG(last) / CREATE_QP(XRC_TGT)+DESTROY_QP",
        sums(t[kRegNew], t[kUnregDestroy]), sums(t[kCreate], t[kDestroy]));
  ratio("ratio.reg_new_vs_create_qp", "  REG(NEW) / CREATE_QP(XRC_TGT)", t[kRegNew], t[kCreate]);
  ratio("ratio.unreg_destroy_vs_destroy_qp", "  UNREG(last: destroys) / DESTROY_QP (destroys)",
        t[kUnregDestroy], t[kDestroy]);
  ratio("ratio.reg_unreg_held_vs_open_destroy",
        "REG+UNREG (QP already held: counter) / OPEN_QP+DESTROY_QP", sums(t[kRegHeld], t[kUnregHeld]),
        sums(t[kOpen], t[kDestroyOpen]));

  ratio("ratio.reg_unreg_vs_open_destroy_lone",
        "REG+UNREG / OPEN_QP+DESTROY_QP, file holds nothing else", t[kRegLone], t[kOpenLone]);

  struct Def { Op op; const char* key; const char* label; };
  const Def defs[] = {
      {kReg, "reg_existing", "REG of an existing QP (the file's first reference)"},
      {kUnreg, "unreg_existing", "UNREG of the file's last reference (the QP lives on)"},
      {kOpen, "open_qp", "OPEN_QP of the same QP"},
      {kDestroyOpen, "destroy_open_qp", "DESTROY_QP of the OPEN_QP handle"},
      {kRegHeld, "reg_held", "REG of a QP the file already holds (count++)"},
      {kUnregHeld, "unreg_held", "UNREG of one of several references (count--)"},
      {kRegNew, "reg_new", "REG(NEW): create a receive QP"},
      {kUnregDestroy, "unreg_destroy", "UNREG of the QP's last reference (destroys it)"},
      {kCreate, "create_qp", "CREATE_QP(XRC_TGT)"},
      {kDestroy, "destroy_qp", "DESTROY_QP of that QP (destroys it)"},
      {kQueryPort, "query_port", "QUERY_PORT (the other floor candidate)"},
      {kRegLone, "reg_unreg_lone", "REG+UNREG pair, file holds nothing else"},
      {kOpenLone, "open_destroy_lone", "OPEN_QP+DESTROY_QP pair, file holds nothing else"},
      {kFloor, "floor", "floor: UNREG of a number the file does not hold (EINVAL)"},
  };
  for (const auto& d : defs)
    if (d.op != kFloor)
      rep_.add(row(std::string("floor.") + d.key, "floor", std::string(d.label), "x",
                   ratios(t[d.op], t[kFloor])));
  for (const auto& d : defs)
    rep_.add(row(std::string("lat.") + d.key, "latency", d.label, "us", t[d.op]));

  b.must_unreg(held_qp);
}

// -------------------------------------------------------------- profile
// Not one of `make bench`'s phases: the goal pair alone, for `make
// bench-profile`, so that every REG and UNREG sampled belongs to it.
// Batches of B REGs of existing QPs (the file's first reference), then
// their UNREGs, then B OPEN_QPs of the same QPs and their DESTROY_QPs.
void Bench::profile() {
  const int nb = opt_.batch;
  File owner = new_file();
  File bench = new_file();
  Ops& o = owner.ops();
  Ops& b = bench.ops();
  std::vector<std::uint32_t> shared(nb), handle(nb);
  for (auto& q : shared) q = o.must_reg(kNew);
  std::vector<double> reg, unreg, open, destroy;
  auto timed = [&](std::vector<double>& into, const std::function<void()>& batch) {
    const auto t0 = now_ns();
    batch();
    into.push_back(us(now_ns() - t0, nb));
  };
  quiesce();
  progress("profile: %d trials of REG, UNREG, OPEN_QP, DESTROY_QP x %d", opt_.trials, nb);
  for (int trial = 0; trial < opt_.trials; ++trial) {
    timed(reg, [&] { for (auto q : shared) b.must_reg(q); });
    timed(unreg, [&] { for (auto q : shared) b.must_unreg(q); });
    timed(open, [&] { for (int i = 0; i < nb; ++i) handle[i] = b.must_open_qp(shared[i]); });
    timed(destroy, [&] { for (auto h : handle) b.must_destroy_qp(h); });
  }
  progress("profile: medians, us: REG %.3f, UNREG %.3f, OPEN_QP %.3f, DESTROY_QP %.3f; "
           "REG+UNREG / OPEN_QP+DESTROY_QP %.3f",
           summarize(reg).median, summarize(unreg).median, summarize(open).median,
           summarize(destroy).median,
           summarize(ratios(sums(reg, unreg), sums(open, destroy))).median);
}

// A probe: B pairs of REG+UNREG of `qp` by `f` (the file's first and last
// reference each time), against B floor commands by `empty`, alternating
// which goes first.  The floor runs on a file that holds nothing, so its
// cost does not depend on what `f` holds.
Row Bench::probe(File& f, std::uint32_t qp, File& empty) {
  const int nb = opt_.batch;
  std::vector<double> pair, floor;
  auto pairs = [&](bool rec) {
    const auto t0 = now_ns();
    for (int i = 0; i < nb; ++i) {
      f.ops().must_reg(qp);
      f.ops().must_unreg(qp);
    }
    if (rec) pair.push_back(us(now_ns() - t0, nb));
  };
  auto floors = [&](bool rec) {
    const auto t0 = now_ns();
    for (int i = 0; i < nb; ++i) unreg_miss(empty.ops(), qp);
    if (rec) floor.push_back(us(now_ns() - t0, nb));
  };
  for (int trial = -1; trial < opt_.trials; ++trial) {
    if (trial & 1) {
      pairs(trial >= 0);
      floors(trial >= 0);
    } else {
      floors(trial >= 0);
      pairs(trial >= 0);
    }
  }
  Row r;
  r.unit = "us";
  r.s = summarize(pair);
  const Summary vf = summarize(ratios(pair, scaled(floor, 2.0)));
  r.extra = {{"vs_floor", vf.median}, {"vs_floor_p25", vf.p25}, {"vs_floor_p75", vf.p75},
             {"floor_us", summarize(floor).median}};
  return r;
}

static double extra(const Row& r, const std::string& key) {
  for (const auto& [k, v] : r.extra)
    if (k == key) return v;
  return NAN;
}

// ---------------------------------------------------------------- held
// The file holds N registrations on N distinct QPs (it created them with
// REG(NEW)), and registers and unregisters one more QP, owned elsewhere.
void Bench::held() {
  File owner = new_file();
  File bench = new_file();
  File empty = new_file();
  const std::uint32_t probe_qp = owner.ops().must_reg(kNew);
  long have = 0;
  double first = NAN;
  for (const long n : opt_.held) {
    progress("held: building %ld registrations", n);
    for (; have < n; ++have) (void)bench.ops().must_reg(kNew);
    quiesce();
    progress("held: %ld registrations, %d trials", n, opt_.trials);
    Row r = probe(bench, probe_qp, empty);
    r.id = "held." + std::to_string(n);
    r.section = "held";
    r.label = "REG+UNREG, file holds " + std::to_string(n);
    if (std::isnan(first)) first = extra(r, "vs_floor");
    r.extra.emplace_back("vs_first", extra(r, "vs_floor") / first);
    rep_.add(std::move(r));
  }
  progress("held: closing the file with %ld registrations", have);
}

// --------------------------------------------------------------- files
// K files hold a registration on one QP (the owner, which created it, and
// K-1 more); another file registers and unregisters it.
void Bench::files() {
  File owner = new_file();
  File bench = new_file();
  File empty = new_file();
  const std::uint32_t qp = owner.ops().must_reg(kNew);
  std::vector<std::unique_ptr<File>> others;
  long holders = 1;
  double first = NAN;
  for (const long k : opt_.files) {
    for (; holders < k; ++holders) {
      others.push_back(std::make_unique<File>(opt_.device, opt_.xrcd_file));
      (void)others.back()->ops().must_reg(qp);
    }
    quiesce();
    progress("files: %ld files on the QP, %d trials", k, opt_.trials);
    Row r = probe(bench, qp, empty);
    r.id = "files." + std::to_string(k);
    r.section = "files";
    r.label = "REG+UNREG, " + std::to_string(k) + " file(s) hold the QP";
    if (std::isnan(first)) first = extra(r, "vs_floor");
    r.extra.emplace_back("vs_first", extra(r, "vs_floor") / first);
    rep_.add(std::move(r));
  }
}

// --------------------------------------------------------------- close
// close(2) of a file holding N of one kind of thing, all variants in
// rotating order per trial; "empty" (a file with only its XRCD handle) is
// subtracted to get the cost per registration.
void Bench::close() {
  enum V { kEmpty, kReg, kOpen, kRegNew, kCreate, kNumV };
  static const char* const key[] = {"empty", "reg", "open_qp", "reg_new", "create_qp"};
  static const char* const what[] = {
      "empty file (XRCD handle only)",
      "REGs of QPs another file holds",
      "OPEN_QP handles on the same QPs",
      "REG(NEW) QPs (close destroys them)",
      "CREATE_QP(XRC_TGT) QPs (close destroys them)"};
  std::map<int, std::map<long, double>> per_reg;  // variant -> N -> us/reg
  std::map<int, std::pair<long, double>> last;    // variant -> (N, ms minus empty)
  for (const long n : opt_.close) {
    File owner = new_file();
    progress("close: owner creates %ld QPs", n);
    std::vector<std::uint32_t> qs(n);
    for (auto& q : qs) q = owner.ops().must_reg(kNew);
    std::vector<std::vector<double>> ms(kNumV);
    for (int trial = 0; trial < opt_.close_trials; ++trial) {
      for (int k = 0; k < kNumV; ++k) {
        const int v = (k + trial) % kNumV;
        File c = new_file();
        Ops& ops = c.ops();
        switch (v) {
          case kReg: for (auto q : qs) (void)ops.must_reg(q); break;
          case kOpen: for (auto q : qs) (void)ops.must_open_qp(q); break;
          case kRegNew: for (long i = 0; i < n; ++i) (void)ops.must_reg(kNew); break;
          case kCreate: for (long i = 0; i < n; ++i) (void)ops.must_create_qp(); break;
          default: break;
        }
        quiesce();
        const long long live = live_qps();
        const auto t0 = now_ns();
        c.close();
        const auto t1 = now_ns();
        const long long gone = live - live_qps();
        const long long want = (v == kRegNew || v == kCreate) ? n : 0;
        if (live >= 0 && gone != want)
          throw Fatal("close of a file with " + std::string(key[v]) + " x" + std::to_string(n) +
                      ": " + std::to_string(gone) + " QPs destroyed, expected " +
                      std::to_string(want));
        ms[v].push_back(static_cast<double>(t1 - t0) / 1e6);
      }
      progress("close: N=%ld trial %d/%d done", n, trial + 1, opt_.close_trials);
    }
    for (int v = 0; v < kNumV; ++v) {
      Row r = row("close." + std::string(key[v]) + "." + std::to_string(n), "close",
                  std::to_string(n) + ": " + what[v], "ms", ms[v]);
      if (v != kEmpty) {
        const double pr = summarize(scaled(minus(ms[v], ms[kEmpty]), 1e3 / static_cast<double>(n))).median;
        per_reg[v][n] = pr;
        r.extra.emplace_back("per_reg_us", pr);
        r.extra.emplace_back("per_reg_vs_smallest_n", pr / per_reg[v].begin()->second);
        // Linear means each step up in N costs the same per registration.
        const double here = summarize(minus(ms[v], ms[kEmpty])).median;
        if (last.count(v))
          r.extra.emplace_back("marginal_us", (here - last[v].second) * 1e3 /
                                                  static_cast<double>(n - last[v].first));
        last[v] = {n, here};
      }
      rep_.add(std::move(r));
    }
    rep_.add(row("close_ratio.reg_vs_open_qp." + std::to_string(n), "close",
                 "  " + std::to_string(n) + ": REGs / OPEN_QP handles (minus empty)", "x",
                 ratios(minus(ms[kReg], ms[kEmpty]), minus(ms[kOpen], ms[kEmpty]))));
    rep_.add(row("close_ratio.reg_new_vs_create_qp." + std::to_string(n), "close",
                 "  " + std::to_string(n) + ": REG(NEW) QPs / CREATE_QP QPs (minus empty)", "x",
                 ratios(minus(ms[kRegNew], ms[kEmpty]), minus(ms[kCreate], ms[kEmpty]))));
    progress("close: closing the owner of %ld QPs", n);
  }
}

// -------------------------------------------------------------- memory
namespace {

// Slab objects per item between two snapshots, for the caches that moved
// by at least one object per 100 items (so that an object shared by up to
// 100 items, such as an index node, still shows).
struct SlabDelta {
  double bytes = 0;    // object bytes per item, all caches
  double meminfo = 0;  // SUnreclaim bytes per item
  std::vector<std::pair<std::string, double>> objs, bytes_by_cache;
};

SlabDelta slab_delta(const SlabSnapshot& s0, const SlabSnapshot& s1, long items) {
  const auto n = static_cast<double>(items);
  SlabDelta d;
  d.bytes = static_cast<double>(s1.object_bytes() - s0.object_bytes()) / n;
  d.meminfo = static_cast<double>(s1.sunreclaim_kb - s0.sunreclaim_kb) * 1024.0 / n;
  for (const auto& [name, c1] : s1.caches) {
    const auto it = s0.caches.find(name);
    const long long objs = c1.active_objs - (it == s0.caches.end() ? 0 : it->second.active_objs);
    if (std::llabs(objs) * 100 < items) continue;
    d.objs.emplace_back(name, static_cast<double>(objs) / n);
    d.bytes_by_cache.emplace_back(name, static_cast<double>(objs * c1.objsize) / n);
  }
  return d;
}

}  // namespace

// Slab objects (and meminfo SUnreclaim) before and after files take
// registrations / handles / QPs, the files themselves already open:
//  - one file takes M of them, on M consecutive QP numbers (amortized);
//  - F files take one each (what a process holding a few pays).
void Bench::memory() {
  const long m = opt_.mem_regs;
  const long nf = std::min(opt_.single_files, m);
  enum V { kReg, kOpen, kRegNew, kCreate, kRegSingle, kOpenSingle, kNumV };
  static const char* const key[] = {"reg", "open_qp", "reg_new", "create_qp", "reg_single",
                                    "open_qp_single"};
  static const char* const what[] = {
      "REG of an existing QP (registration + its handle)",
      "OPEN_QP handle on the same QP (uobject + handle)",
      "REG(NEW): registration + handle + the QP",
      "CREATE_QP(XRC_TGT): uobject + handle + the QP",
      "REG, the file's only registration",
      "OPEN_QP, the file's only QP handle"};
  File owner = new_file();
  progress("memory: owner creates %ld QPs", m);
  std::vector<std::uint32_t> qs(m);
  for (auto& q : qs) q = owner.ops().must_reg(kNew);
  std::vector<std::vector<double>> bytes(kNumV), meminfo(kNumV);
  std::vector<SlabDelta> last(kNumV);
  long waited = 0;
  auto record = [&](int v, const SlabDelta& d) {
    bytes[v].push_back(d.bytes);
    meminfo[v].push_back(d.meminfo);
    last[v] = d;
  };
  for (int trial = 0; trial < opt_.mem_trials; ++trial) {
    for (int k = 0; k < 4; ++k) {
      const int v = (k + trial) % 4;
      File c = new_file();
      Ops& ops = c.ops();
      waited += settle_slab(opt_.settle_ms);
      const SlabSnapshot s0 = slab_snapshot();
      switch (v) {
        case kReg: for (auto q : qs) (void)ops.must_reg(q); break;
        case kOpen: for (auto q : qs) (void)ops.must_open_qp(q); break;
        case kRegNew: for (long i = 0; i < m; ++i) (void)ops.must_reg(kNew); break;
        default: for (long i = 0; i < m; ++i) (void)ops.must_create_qp(); break;
      }
      record(v, slab_delta(s0, slab_snapshot(), m));
      c.close();
    }
    for (int k = 0; k < 2; ++k) {
      const int v = kRegSingle + (k + trial) % 2;
      std::vector<std::unique_ptr<File>> fs;
      for (long i = 0; i < nf; ++i) fs.push_back(std::make_unique<File>(opt_.device, opt_.xrcd_file));
      waited += settle_slab(opt_.settle_ms);
      const SlabSnapshot s0 = slab_snapshot();
      for (long i = 0; i < nf; ++i) {
        if (v == kRegSingle) (void)fs[i]->ops().must_reg(qs[i]);
        else (void)fs[i]->ops().must_open_qp(qs[i]);
      }
      record(v, slab_delta(s0, slab_snapshot(), nf));
    }
    progress("memory: trial %d/%d done (%ld ms spent settling)", trial + 1, opt_.mem_trials, waited);
  }
  // How many bits the numbers span: what a radix index (an xarray) would
  // pay for, one node per 6 bits; a tree embedded in the record pays none.
  int bits = 0;
  while (bits < 32 && (qs.front() >> bits)) ++bits;
  for (int v = 0; v < kNumV; ++v) {
    Row r = row("mem." + std::string(key[v]), "memory", what[v], "bytes", bytes[v]);
    r.extra.emplace_back("meminfo_sunreclaim_bytes", summarize(meminfo[v]).median);
    if (v >= kRegSingle) {
      r.extra.emplace_back("files", static_cast<double>(nf));
      r.extra.emplace_back("qpn_bits", bits);
    }
    rep_.add(std::move(r));
    rep_.slab(key[v], last[v].objs, last[v].bytes_by_cache);
  }
  rep_.add(row("mem_ratio.reg_vs_open_qp", "memory", "  registration / OPEN_QP handle", "x",
               ratios(bytes[kReg], bytes[kOpen])));
  rep_.add(row("mem_ratio.reg_new_vs_create_qp", "memory", "  REG(NEW) / CREATE_QP(XRC_TGT)", "x",
               ratios(bytes[kRegNew], bytes[kCreate])));
  rep_.add(row("mem_ratio.reg_vs_open_qp_single", "memory",
               "  only registration / only OPEN_QP handle", "x",
               ratios(bytes[kRegSingle], bytes[kOpenSingle])));
}

// ----------------------------------------------------------------- run
void Bench::run() {
  start_ns_ = now_ns();
  if (!pin_to_cpu(opt_.cpu)) progress("cannot pin to CPU %d; running unpinned", opt_.cpu);

  const SystemInfo si = system_info();
  rep_.system("kernel", json_str(si.kernel));
  rep_.system("cmdline", json_str(si.cmdline));
  rep_.system("clocksource", json_str(si.clocksource));
  rep_.system("lsm", json_str(si.lsm));
  rep_.system("cpus", std::to_string(si.cpus));
  rep_.system("mem_total_kb", std::to_string(si.mem_total_kb));

  rep_.config("tiny", opt_.tiny ? "true" : "false");
  rep_.config("phases", json_str(opt_.phases));
  rep_.config("trials", std::to_string(opt_.trials));
  rep_.config("batch", std::to_string(opt_.batch));
  rep_.config("held", json_list(opt_.held));
  rep_.config("files", json_list(opt_.files));
  rep_.config("close", json_list(opt_.close));
  rep_.config("close_trials", std::to_string(opt_.close_trials));
  rep_.config("mem_regs", std::to_string(opt_.mem_regs));
  rep_.config("mem_trials", std::to_string(opt_.mem_trials));
  rep_.config("single_files", std::to_string(opt_.single_files));
  rep_.config("cpu", std::to_string(opt_.cpu));
  rep_.config("scale_pairs", std::to_string(opt_.scale_pairs));
  rep_.config("scale_trials", std::to_string(opt_.scale_trials));
  rep_.config("mpi_procs", std::to_string(opt_.mpi_procs));
  rep_.config("mpi_qps", json_list(opt_.mpi_qps));
  rep_.config("mpi_trials", std::to_string(opt_.mpi_trials));
  rep_.config("emul_transport",
              json_str("raw OPEN_QP/DESTROY_QP write commands (libibverbs is not in the bench guest)"));
  rep_.config("floor", json_str("UNREG_XRC_RCV_QP of a number the file does not hold"));

  // The most QPs alive at once, with room to spare; xrc_sim's default
  // capacity (65536) is too small for the 100,000 rows.
  long need = 4L * opt_.batch + 64;
  for (const long n : opt_.held) need = std::max(need, n + 64);
  for (const long n : opt_.close) need = std::max(need, 2 * n + 64);
  need = std::max(need, 2 * opt_.mem_regs + 64);
  for (const long n : opt_.mpi_qps) need = std::max(need, n + 64);
  const std::string knob = opt_.debugfs + "/max_qps";
  const auto max_qps = read_number(knob);
  if (max_qps && *max_qps < need && !write_text(knob, std::to_string(need) + "\n"))
    throw Fatal("cannot raise " + knob + " to " + std::to_string(need));
  rep_.system("max_qps", std::to_string(std::max<long long>(max_qps.value_or(-1), need)));

  const long long live0 = live_qps();
  progress("%s, %ld cpus, clocksource %s, LSMs %s, live_qps %lld, max_qps %lld -> %ld",
           si.kernel.c_str(), si.cpus, si.clocksource.c_str(), si.lsm.c_str(), live0,
           max_qps.value_or(-1), need);
  if (wants("pairs")) pairs();
  if (wants("held")) held();
  if (wants("files")) files();
  if (wants("close")) close();
  if (wants("memory")) memory();
  if (wants("scale")) scale();
  if (wants("mpi")) mpi();
  if (wants("emul")) emul();
  if (wants("profile")) profile();

  const long long live1 = live_qps();
  if (live1 != live0)
    throw Fatal("live_qps went from " + std::to_string(live0) + " to " + std::to_string(live1) +
                ": QPs leaked");
  if (max_qps && *max_qps < need) (void)write_text(knob, std::to_string(*max_qps) + "\n");
  progress("done, live_qps back to %lld", live1);
}

}  // namespace xrc_bench
