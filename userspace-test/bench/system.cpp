#include "system.hpp"

#include <chrono>
#include <cerrno>
#include <cstdlib>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <sched.h>
#include <sstream>
#include <sys/utsname.h>
#include <thread>
#include <unistd.h>

namespace xrc_bench {

std::int64_t now_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

std::optional<std::string> read_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) return std::nullopt;
  while (!line.empty() && (line.back() == '\n' || line.back() == ' ')) line.pop_back();
  return line;
}

std::optional<long long> read_number(const std::string& path) {
  auto s = read_line(path);
  if (!s) return std::nullopt;
  try {
    return std::stoll(*s, nullptr, 0);
  } catch (...) {
    return std::nullopt;
  }
}

bool write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  if (!out) return false;
  out << text;
  out.flush();
  return static_cast<bool>(out);
}

long long SlabSnapshot::object_bytes() const {
  long long sum = 0;
  for (const auto& [name, c] : caches) sum += c.active_objs * c.objsize;
  return sum;
}

static long long meminfo_kb(const std::string& text, const std::string& key) {
  const auto pos = text.find("\n" + key + ":");
  if (pos == std::string::npos) return -1;
  return std::atoll(text.c_str() + pos + key.size() + 2);
}

SlabSnapshot slab_snapshot() {
  (void)write_text("/proc/sys/vm/stat_refresh", "1\n");
  SlabSnapshot s;
  std::ifstream slab("/proc/slabinfo");
  std::string line;
  while (std::getline(slab, line)) {
    if (line.empty() || line[0] == '#' || line.starts_with("slabinfo")) continue;
    std::istringstream ls(line);
    std::string name;
    SlabCache c;
    long long num_objs = 0;
    if (ls >> name >> c.active_objs >> num_objs >> c.objsize) s.caches[name] = c;
  }
  std::ifstream mi("/proc/meminfo");
  std::stringstream buf;
  buf << "\n" << mi.rdbuf();
  const std::string text = buf.str();
  s.slab_kb = meminfo_kb(text, "Slab");
  s.sunreclaim_kb = meminfo_kb(text, "SUnreclaim");
  return s;
}

long settle_slab(long max_ms) {
  const auto start = now_ns();
  auto elapsed_ms = [&] { return static_cast<long>((now_ns() - start) / 1'000'000); };
  long long last = -1;
  int still = 0;
  while (elapsed_ms() < max_ms) {
    (void)write_text("/proc/sys/vm/drop_caches", "2\n");
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    const long long now = slab_snapshot().object_bytes();
    // Within 4 KiB twice in a row: nothing is left in flight.
    still = (last >= 0 && std::llabs(now - last) <= 4096) ? still + 1 : 0;
    if (still >= 2) break;
    last = now;
  }
  return elapsed_ms();
}

bool pin_to_cpu(int cpu) {
  if (cpu < 0) return true;
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return sched_setaffinity(0, sizeof set, &set) == 0;
}

bool unpin() {
  cpu_set_t set;
  CPU_ZERO(&set);
  const long n = sysconf(_SC_NPROCESSORS_ONLN);
  for (long i = 0; i < n && i < CPU_SETSIZE; ++i) CPU_SET(i, &set);
  return sched_setaffinity(0, sizeof set, &set) == 0;
}

SystemInfo system_info() {
  SystemInfo si;
  utsname u{};
  if (uname(&u) == 0) si.kernel = u.release;
  si.cmdline = read_line("/proc/cmdline").value_or("");
  si.clocksource =
      read_line("/sys/devices/system/clocksource/clocksource0/current_clocksource").value_or("?");
  // securityfs must be mounted (the bench guest's script does); "?" if not
  si.lsm = read_line("/sys/kernel/security/lsm").value_or("?");
  si.cpus = sysconf(_SC_NPROCESSORS_ONLN);
  std::ifstream mi("/proc/meminfo");
  std::stringstream buf;
  buf << "\n" << mi.rdbuf();
  si.mem_total_kb = meminfo_kb(buf.str(), "MemTotal");
  return si;
}

}  // namespace xrc_bench
