// The bench's results: rows of order statistics, printed as a table and
// written as JSON (schema "xrc-rcv-bench/1", checked by check-results.py).
#pragma once

#include "stats.hpp"

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace xrc_bench {

struct Row {
  std::string id;       // stable key, e.g. "ratio.reg_vs_open_qp", "held.10000"
  std::string section;  // ratio, latency, floor, held, files, close, memory
  std::string label;    // what was measured, for people
  std::string unit;     // x, us, ms, bytes
  Summary s;            // over trials
  std::vector<std::pair<std::string, double>> extra;  // e.g. per_reg_us
};

class Report {
 public:
  void add(Row r) { rows_.push_back(std::move(r)); }
  // Raw JSON values, in insertion order, under "config" / "system".
  void config(std::string key, std::string json) { config_.emplace_back(std::move(key), std::move(json)); }
  void system(std::string key, std::string json) { system_.emplace_back(std::move(key), std::move(json)); }
  // Per-cache slab objects per registration, for the memory rows.
  void slab(std::string variant, std::vector<std::pair<std::string, double>> objs_per_reg,
            std::vector<std::pair<std::string, double>> bytes_per_reg);

  [[nodiscard]] const std::vector<Row>& rows() const { return rows_; }
  [[nodiscard]] const Row* find(const std::string& id) const;

  void print_table(std::FILE* out) const;
  [[nodiscard]] std::string json(double wall_s) const;

 private:
  std::vector<Row> rows_;
  std::vector<std::pair<std::string, std::string>> config_, system_;
  std::vector<std::pair<std::string, std::string>> slab_;  // variant -> raw JSON
};

// JSON helpers: a quoted, escaped string; a number (null if not finite).
std::string json_str(const std::string& s);
std::string json_num(double v);
std::string json_list(const std::vector<long>& v);

}  // namespace xrc_bench
