// The measurements.  Each phase opens its own uverbs files on one shared
// XRCD, builds what it needs untimed, then times batches of one command
// kind at a time, rotating the order of the kinds from trial to trial so
// that drift (TCG, a neighbour's build) falls on every kind alike.
#pragma once

#include "ops.hpp"
#include "report.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace xrc_bench {

struct Options {
  std::string device = xrcrcv::kDefaultDevice;
  std::string xrcd_file = "/tmp/xrc-bench.xrcd";
  std::string debugfs = "/sys/kernel/debug/xrc_sim";
  std::string json_path;  // also write the JSON here
  std::string phases = "pairs,held,files,close,memory,scale,mpi,emul";
  int trials = 31;                 // timed trials per comparison
  int batch = 100;                 // commands per timed batch
  std::vector<long> held = {1, 1000, 10000, 100000};
  std::vector<long> files = {1, 2, 4, 8, 16, 32, 64};
  std::vector<long> close = {1000, 10000, 100000};
  int close_trials = 15;
  long mem_regs = 20000;
  int mem_trials = 5;
  long single_files = 2000;        // files with one registration each
  long settle_ms = 6000;           // at most, waiting for the slab to settle
  int cpu = 0;                     // pin to this CPU; -1: don't
  long scale_pairs = 2000;         // REG+UNREG pairs per worker per scale trial
  int scale_trials = 11;
  long mpi_procs = 64;             // processes of the MPI-shaped scenario
  std::vector<long> mpi_qps = {16, 160, 1000, 1600, 16000};  // shared QPs each registers
  int mpi_trials = 3;
  bool tiny = false;
};

class Bench {
 public:
  Bench(const Options& opt, Report& rep) : opt_(opt), rep_(rep) {}
  void run();

 private:
  void pairs();
  void held();
  void files();
  void close();
  void memory();
  void scale();
  void mpi();
  void emul();
  void profile();

  [[nodiscard]] bool wants(const std::string& phase) const;
  File new_file() { return File(opt_.device, opt_.xrcd_file); }
  void progress(const char* fmt, ...) const __attribute__((format(printf, 2, 3)));
  long long live_qps() const;
  // Before timing: let the work a bulk teardown left behind (RCU
  // callbacks, kfree_rcu batches) drain, so that it is not billed to the
  // next measurement.
  void quiesce() const;
  // B pairs of REG+UNREG of `qp` by `f` against B floor commands by
  // `empty`, interleaved; a row with the pair's latency and vs_floor.
  Row probe(File& f, std::uint32_t qp, File& empty);

  const Options& opt_;
  Report& rep_;
  std::int64_t start_ns_ = 0;
};

}  // namespace xrc_bench
