// What the bench reads from the guest kernel: clocks, /proc/slabinfo,
// /proc/meminfo, xrc_sim's debugfs, and a few facts for the report.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace xrc_bench {

// CLOCK_MONOTONIC in nanoseconds (vDSO when the clocksource allows it).
std::int64_t now_ns();

// First line of a file, trimmed; nullopt if it cannot be read.
std::optional<std::string> read_line(const std::string& path);
std::optional<long long> read_number(const std::string& path);
bool write_text(const std::string& path, const std::string& text);

// Slab usage: per cache, active objects and object size (/proc/slabinfo).
struct SlabCache {
  long long active_objs = 0;
  long long objsize = 0;
};
struct SlabSnapshot {
  std::map<std::string, SlabCache> caches;
  long long slab_kb = 0;        // /proc/meminfo Slab
  long long sunreclaim_kb = 0;  // /proc/meminfo SUnreclaim
  [[nodiscard]] long long object_bytes() const;  // sum of active_objs * objsize
};
// Folds the per-CPU vmstat deltas first (vm/stat_refresh) so that the
// meminfo figures are exact; needs root, and works without it less exactly.
SlabSnapshot slab_snapshot();
// Wait until kfree_rcu() and friends have drained (drop_caches runs the
// kfree_rcu shrinker; then the object total must hold still), at most
// `max_ms`.  Returns the milliseconds waited.
long settle_slab(long max_ms);

// Pin the calling thread to `cpu` (-1: leave it).  False if that failed.
bool pin_to_cpu(int cpu);
// Let the calling thread run on every online CPU again (forked children).
bool unpin();

struct SystemInfo {
  std::string kernel;       // uname -r
  std::string cmdline;      // /proc/cmdline
  std::string clocksource;  // current_clocksource
  std::string lsm;          // /sys/kernel/security/lsm: the active LSMs, in order
  long cpus = 0;
  long long mem_total_kb = 0;
};
SystemInfo system_info();

}  // namespace xrc_bench
