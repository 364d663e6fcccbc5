// Access to the debugfs knobs of the simulated device module xrc_sim:
//   live_qps, live_xrcds  decimal counters (read)
//   inject_event          write "<qpn> <event_type>\n" to raise an event
// Used by the CLI's `counters`/`inject` steps and by the e2e tests.
#pragma once

#include <xrcrcv/error.hpp>

#include <cstdint>
#include <string>

namespace xrcrcv::sim {

class Debugfs {
 public:
  // $XRC_SIM_DEBUGFS, else /sys/kernel/debug/xrc_sim.
  static std::string default_dir();
  // If `dir` is absent and /sys/kernel/debug is not a mounted debugfs, try
  // to mount it (needs root; harmless when it fails).  Only the e2e tests
  // call this, and only once the device is known to exist.
  static void ensure_mounted();

  explicit Debugfs(std::string dir = default_dir()) : dir_(std::move(dir)) {}

  [[nodiscard]] const std::string& dir() const { return dir_; }
  [[nodiscard]] bool has_counters() const;  // live_qps and live_xrcds exist
  [[nodiscard]] bool has_inject() const;    // inject_event exists

  [[nodiscard]] Result<long> live_qps() const { return read_counter("live_qps"); }
  [[nodiscard]] Result<long> live_xrcds() const { return read_counter("live_xrcds"); }
  [[nodiscard]] Result<long> read_counter(const std::string& name) const;
  Status inject_event(std::uint32_t qp_num, std::uint32_t event_type) const;

 private:
  std::string dir_;
};

}  // namespace xrcrcv::sim
