// xrc_bench: the XRC receive-QP commands against the mainline way of doing
// the same, side by side, in the QEMU guest (see README.md here).
#include "phases.hpp"
#include "system.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <sys/resource.h>
#include <unistd.h>

using namespace xrc_bench;

namespace {

const char kUsage[] = R"(usage: xrc_bench [options]
  --tiny              tiny sizes (the make-test run); later options override
  --trials N          timed trials per comparison (31)
  --batch N           commands per timed batch (100)
  --held LIST         registrations held by the file (1,1000,10000,100000)
  --files LIST        files registered on one QP (1,2,4,8,16,32,64)
  --close LIST        registrations in the file that is closed (1000,10000,100000)
  --close-trials N    (15)
  --mem-regs N        registrations per memory measurement (20000)
  --mem-trials N      (5)
  --single-files N    files holding one registration each, for memory (2000)
  --settle-ms N       longest wait for the slab to settle (6000; 3000 before timing)
  --scale-pairs N     REG+UNREG pairs per worker per scaling trial (2000)
  --scale-trials N    (11)
  --mpi-procs P       processes in the MPI-shaped scenario (64)
  --mpi-qps LIST      shared receive QPs each process registers (16,160,1000,1600,16000)
  --mpi-trials N      (3)
  --phases LIST       pairs,held,files,close,memory,scale,mpi,emul (all),
                      or profile: the goal pair alone, for make bench-profile
  --cpu N             pin to CPU N, -1 not at all (0)
  --device PATH       uverbs device (/dev/infiniband/uverbs0)
  --xrcd-file PATH    file whose inode names the shared XRCD (/tmp/xrc-bench.xrcd)
  --debugfs DIR       xrc_sim debugfs (/sys/kernel/debug/xrc_sim)
  --json PATH         write the results as JSON there (else to stdout)
  --self-test         check encoding, statistics and JSON; needs no device
)";

[[noreturn]] void usage_error(const std::string& msg) {
  std::fprintf(stderr, "xrc_bench: %s\n%s", msg.c_str(), kUsage);
  std::exit(2);
}

long number(const std::string& opt, const char* s) {
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(s, &end, 10);
  if (errno || end == s || *end) usage_error(opt + ": not a number: " + s);
  return v;
}

std::vector<long> list(const std::string& opt, const std::string& s) {
  std::vector<long> v;
  std::size_t pos = 0;
  while (pos <= s.size()) {
    const auto comma = s.find(',', pos);
    const std::string item = s.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    const long n = number(opt, item.c_str());
    if (n < 1 || (!v.empty() && n <= v.back())) usage_error(opt + ": want increasing numbers >= 1");
    v.push_back(n);
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return v;
}

void tiny(Options& o) {
  o.tiny = true;
  o.trials = 3;
  o.batch = 4;
  o.held = {1, 10, 100};
  o.files = {1, 2, 4};
  o.close = {10, 100};
  o.close_trials = 1;
  o.mem_regs = 200;
  o.mem_trials = 1;
  o.single_files = 20;
  o.settle_ms = 1000;
  o.scale_pairs = 20;
  o.scale_trials = 2;
  o.mpi_procs = 4;
  o.mpi_qps = {4, 16};
  o.mpi_trials = 1;
}

Options parse(int argc, char** argv, bool* self_test) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto val = [&]() -> const char* {
      if (i + 1 >= argc) usage_error(a + " needs a value");
      return argv[++i];
    };
    if (a == "--tiny") tiny(o);
    else if (a == "--self-test") *self_test = true;
    else if (a == "--trials") o.trials = static_cast<int>(number(a, val()));
    else if (a == "--batch") o.batch = static_cast<int>(number(a, val()));
    else if (a == "--held") o.held = list(a, val());
    else if (a == "--files") o.files = list(a, val());
    else if (a == "--close") o.close = list(a, val());
    else if (a == "--close-trials") o.close_trials = static_cast<int>(number(a, val()));
    else if (a == "--mem-regs") o.mem_regs = number(a, val());
    else if (a == "--mem-trials") o.mem_trials = static_cast<int>(number(a, val()));
    else if (a == "--single-files") o.single_files = number(a, val());
    else if (a == "--settle-ms") o.settle_ms = number(a, val());
    else if (a == "--scale-pairs") o.scale_pairs = number(a, val());
    else if (a == "--scale-trials") o.scale_trials = static_cast<int>(number(a, val()));
    else if (a == "--mpi-procs") o.mpi_procs = number(a, val());
    else if (a == "--mpi-qps") o.mpi_qps = list(a, val());
    else if (a == "--mpi-trials") o.mpi_trials = static_cast<int>(number(a, val()));
    else if (a == "--phases") o.phases = val();
    else if (a == "--cpu") o.cpu = static_cast<int>(number(a, val()));
    else if (a == "--device") o.device = val();
    else if (a == "--xrcd-file") o.xrcd_file = val();
    else if (a == "--debugfs") o.debugfs = val();
    else if (a == "--json") o.json_path = val();
    else if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    } else usage_error("unknown option " + a);
  }
  if (o.trials < 1 || o.batch < 1 || o.close_trials < 1 || o.mem_trials < 1 || o.mem_regs < 1 ||
      o.single_files < 1 || o.single_files > 20000 || o.scale_pairs < 1 || o.scale_trials < 1 ||
      o.mpi_procs < 1 || o.mpi_procs > 1024 || o.mpi_trials < 1)
    usage_error("trials, batch and sizes must be >= 1 (--single-files at most 20000, --mpi-procs 1024)");
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  bool want_self_test = false;
  const Options opt = parse(argc, argv, &want_self_test);
  if (want_self_test) return self_test();

  if (access(opt.device.c_str(), R_OK | W_OK) != 0) {
    std::fprintf(stderr, "xrc_bench: no usable %s (%s): run it in the guest (scripts/bench.sh)\n",
                 opt.device.c_str(), std::strerror(errno));
    return 1;
  }
  // Every file takes two descriptors: make room for --single-files.
  const auto want = static_cast<rlim_t>(2 * opt.single_files + 64);
  rlimit rl{};
  if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < want) {
    rl.rlim_cur = want;
    rl.rlim_max = std::max(rl.rlim_max, want);
    if (setrlimit(RLIMIT_NOFILE, &rl) != 0) {
      std::fprintf(stderr, "xrc_bench: cannot allow %lu descriptors (%s): lower --single-files\n",
                   static_cast<unsigned long>(want), std::strerror(errno));
      return 1;
    }
  }
  Report rep;
  const auto t0 = now_ns();
  try {
    Bench(opt, rep).run();
  } catch (const Fatal& e) {
    std::fprintf(stderr, "xrc_bench: FAILED: %s\n", e.what());
    return 1;
  }
  const double wall = static_cast<double>(now_ns() - t0) / 1e9;
  std::printf("\nxrc_bench: %s sizes, %.1f s\n", opt.tiny ? "tiny" : "full", wall);
  rep.print_table(stdout);
  const std::string json = rep.json(wall);
  if (opt.json_path.empty()) {
    std::fputs(json.c_str(), stdout);
  } else {
    std::ofstream out(opt.json_path);
    out << json;
    if (!out.flush()) {
      std::fprintf(stderr, "xrc_bench: cannot write %s\n", opt.json_path.c_str());
      return 1;
    }
  }
  return 0;
}
