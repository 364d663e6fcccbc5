#include "report.hpp"

#include <cmath>
#include <cstdio>
#include <map>

namespace xrc_bench {

std::string json_str(const std::string& s) {
  std::string o = "\"";
  for (const char c : s) {
    switch (c) {
      case '"': o += "\\\""; break;
      case '\\': o += "\\\\"; break;
      case '\n': o += "\\n"; break;
      case '\t': o += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char b[8];
          std::snprintf(b, sizeof b, "\\u%04x", c);
          o += b;
        } else {
          o += c;
        }
    }
  }
  return o + "\"";
}

std::string json_num(double v) {
  if (!std::isfinite(v)) return "null";
  char b[40];
  std::snprintf(b, sizeof b, "%.6g", v);
  return b;
}

std::string json_list(const std::vector<long>& v) {
  std::string o = "[";
  for (std::size_t i = 0; i < v.size(); ++i) o += (i ? "," : "") + std::to_string(v[i]);
  return o + "]";
}

void Report::slab(std::string variant, std::vector<std::pair<std::string, double>> objs,
                  std::vector<std::pair<std::string, double>> bytes) {
  std::string o = "{";
  for (std::size_t i = 0; i < objs.size(); ++i) {
    o += (i ? "," : "") + json_str(objs[i].first) + ":{\"objs_per_reg\":" +
         json_num(objs[i].second) + ",\"bytes_per_reg\":" + json_num(bytes[i].second) + "}";
  }
  slab_.emplace_back(std::move(variant), o + "}");
}

const Row* Report::find(const std::string& id) const {
  for (const auto& r : rows_)
    if (r.id == id) return &r;
  return nullptr;
}

static const char* section_title(const std::string& s) {
  static const std::map<std::string, const char*> titles = {
      {"ratio", "Ratios, series command against the mainline way (median of per-trial ratios)"},
      {"floor", "Against the floor: one UNREG of a number the file does not hold"},
      {"latency", "Latency per command (us under TCG: compare, do not quote)"},
      {"held", "REG+UNREG pair with N registrations held by the file (distinct QPs)"},
      {"files", "REG+UNREG pair with K files registered on the QP"},
      {"close", "close() of a file holding N registrations / handles"},
      {"memory", "Kernel memory per registration / handle (slab objects)"},
  };
  const auto it = titles.find(s);
  return it == titles.end() ? s.c_str() : it->second;
}

void Report::print_table(std::FILE* out) const {
  std::string section;
  for (const auto& r : rows_) {
    if (r.section != section) {
      section = r.section;
      std::fprintf(out, "\n== %s ==\n", section_title(section));
      std::fprintf(out, "%-62s %11s %-5s %-23s %s\n", "", "median", "", "[p25, p75]", "n");
    }
    const int prec = r.unit == "bytes" ? 0 : 3;
    std::fprintf(out, "%-62s %11.*f %-5s [%9.*f, %9.*f] %3zu", r.label.c_str(), prec, r.s.median,
                 r.unit.c_str(), prec, r.s.p25, prec, r.s.p75, r.s.n);
    for (const auto& [k, v] : r.extra) std::fprintf(out, "  %s=%.3f", k.c_str(), v);
    std::fprintf(out, "\n");
  }
  std::fflush(out);
}

std::string Report::json(double wall_s) const {
  std::string o = "{\n\"schema\": \"xrc-rcv-bench/1\",\n\"wall_s\": " + json_num(wall_s);
  auto obj = [&](const char* name, const std::vector<std::pair<std::string, std::string>>& kv) {
    o += ",\n" + json_str(name) + ": {";
    for (std::size_t i = 0; i < kv.size(); ++i)
      o += (i ? ", " : "") + json_str(kv[i].first) + ": " + kv[i].second;
    o += "}";
  };
  obj("config", config_);
  obj("system", system_);
  obj("slab", slab_);
  o += ",\n\"rows\": [";
  for (std::size_t i = 0; i < rows_.size(); ++i) {
    const auto& r = rows_[i];
    o += (i ? ",\n " : "\n ");
    o += "{\"id\": " + json_str(r.id) + ", \"section\": " + json_str(r.section) +
         ", \"label\": " + json_str(r.label) + ", \"unit\": " + json_str(r.unit) +
         ", \"median\": " + json_num(r.s.median) + ", \"p25\": " + json_num(r.s.p25) +
         ", \"p75\": " + json_num(r.s.p75) + ", \"min\": " + json_num(r.s.min) +
         ", \"max\": " + json_num(r.s.max) + ", \"n\": " + std::to_string(r.s.n);
    for (const auto& [k, v] : r.extra) o += ", " + json_str(k) + ": " + json_num(v);
    o += "}";
  }
  o += "\n]\n}\n";
  return o;
}

}  // namespace xrc_bench
