// xrc-rcv: a session holds one uverbs file (context + XRCD) and runs steps
// on it, so references live exactly as long as the session's process.
#pragma once

#include "script.hpp"

#include <xrcrcv/xrcrcv.hpp>

#include <iosfwd>
#include <map>
#include <optional>
#include <string>

#include <vector>

namespace xrcrcv::cli {

struct Options {
  std::string device = kDefaultDevice;
  std::string xrcd_file = "/tmp/xrc-rcv.xrcd";
  std::string tag;          // printed as "[tag] " before each line
  bool keep_going = false;  // go on after a failed step
  Transport transport = Transport::ioctl;  // how the four verbs are sent (ioctl only)
};

// Global options from argv; returns the index of the first non-option or
// nullopt (with a message on `err`) for bad usage.
std::optional<int> parse_global_options(int argc, char** argv, Options& opts, std::ostream& err);
void print_usage(std::ostream& out);

class Session {
 public:
  Session(Options opts, std::ostream& out, std::ostream& err);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // 0: ok; 1: the step failed; 2: bad usage of the step.
  int run_step(const Step& step);
  // Runs steps in order; stops at the first failure unless keep_going.
  int run_steps(const std::vector<Step>& steps);
  // Reads and runs steps line by line until EOF (or `exit`).
  int run_stream(std::istream& in);

  [[nodiscard]] bool exit_requested() const { return exit_code_.has_value(); }
  [[nodiscard]] int exit_code() const { return exit_code_.value_or(0); }
  [[nodiscard]] std::optional<std::uint32_t> current_qpn() const { return current_; }
  // References this session holds on `qpn` (counted per REG).
  [[nodiscard]] std::size_t refs(std::uint32_t qpn) const;

 private:
  int ensure_open();
  std::ostream& line();
  int fail(const Error& e);
  std::optional<std::uint32_t> resolve_qpn(const std::vector<std::string>& w, std::size_t i);
  int step_create();
  int step_reg(const std::vector<std::string>& w);
  int step_unreg(const std::vector<std::string>& w);
  int step_query(const std::vector<std::string>& w);
  int step_modify(const std::vector<std::string>& w);
  int step_events(const std::vector<std::string>& w);
  int step_close_xrcd();
  int step_counters();
  int step_inject(const std::vector<std::string>& w);
  int step_expect(const std::vector<std::string>& w);
  int step_info();

  Options opts_;
  std::ostream& out_;
  std::ostream& err_;
  std::optional<Context> ctx_;
  std::optional<Xrcd> xrcd_;
  std::map<std::uint32_t, std::vector<RcvQpRegistration>> regs_;
  std::optional<std::uint32_t> current_;
  std::optional<int> exit_code_;
  int last_errno_ = 0;
};

// Whole program (argv already includes the program name).
int main_entry(int argc, char** argv);

}  // namespace xrcrcv::cli
