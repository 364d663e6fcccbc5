// Access to the debugfs knobs of the simulated device module xrc_sim:
//   live_qps, live_xrcds  decimal counters (read)
//   inject_event          write "<qpn> <event_type>\n" to raise an event
//   modify_qp_udata       what the driver's modify_qp last received as
//                         udata (read), write anything to clear it
// and the module parameter /sys/module/xrc_sim/parameters/xrc.
// Used by the CLI's `counters`/`inject` steps and by the e2e tests.
#pragma once

#include <xrcrcv/error.hpp>

#include <cstdint>
#include <string>

namespace xrcrcv::sim {

// The udata the driver's modify_qp got on its last call.
struct ModifyUdata {
  long calls = 0;       // modify_qp calls since load or the last clear
  bool null = false;    // udata was NULL (the kernel-QP path of mlx4)
  long inlen = 0;       // udata->inlen (driver data that reached the driver)
  long outlen = 0;      // udata->outlen
};

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
  [[nodiscard]] Status inject_event(std::uint32_t qp_num, std::uint32_t event_type) const;

  [[nodiscard]] bool has_modify_udata() const;  // modify_qp_udata exists
  [[nodiscard]] Result<ModifyUdata> modify_udata() const;
  [[nodiscard]] Status clear_modify_udata() const;

  // The module parameter xrc (Y: the device offers XRC, N: loaded with
  // xrc=0); ENOENT when xrc_sim has no such parameter.
  [[nodiscard]] static Result<bool> xrc_enabled(
      const std::string& param = "/sys/module/xrc_sim/parameters/xrc");

 private:
  std::string dir_;
};

}  // namespace xrcrcv::sim
