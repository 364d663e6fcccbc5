// Order statistics over trials: the bench reports medians and the
// interquartile range, never means (one preempted trial under TCG would
// move a mean by more than the effects being measured).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace xrc_bench {

struct Summary {
  double median = NAN;
  double p25 = NAN;
  double p75 = NAN;
  double min = NAN;
  double max = NAN;
  std::size_t n = 0;
};

// Quantile q of sorted values, linear between order statistics (the
// "type 7" estimator of R and numpy).
inline double quantile_sorted(const std::vector<double>& v, double q) {
  if (v.empty()) return NAN;
  const double pos = q * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (v[hi] - v[lo]) * (pos - static_cast<double>(lo));
}

inline Summary summarize(std::vector<double> v) {
  Summary s;
  s.n = v.size();
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  s.median = quantile_sorted(v, 0.5);
  s.p25 = quantile_sorted(v, 0.25);
  s.p75 = quantile_sorted(v, 0.75);
  s.min = v.front();
  s.max = v.back();
  return s;
}

// Element-wise a[i] / b[i]: ratios of operations timed side by side in the
// same trial, so that drift between trials cancels.
inline std::vector<double> ratios(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> r;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) r.push_back(a[i] / b[i]);
  return r;
}

inline std::vector<double> sums(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> r;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) r.push_back(a[i] + b[i]);
  return r;
}

inline std::vector<double> scaled(std::vector<double> a, double k) {
  for (auto& x : a) x *= k;
  return a;
}

}  // namespace xrc_bench
