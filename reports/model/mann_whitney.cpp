// SPDX-License-Identifier: Apache-2.0
#include "mann_whitney.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace allocgate::reports {
namespace {

// Up to this many values together, p is exact: the counts of arrangements
// stay below 2^53 (C(50, 25) is about 1.3e14).
constexpr std::size_t kExactUpTo = 50;

// How many arrangements of n1 and n2 values give each U (0..n1*n2): the
// recursion of Mann and Whitney (1947), by dynamic programming.
std::vector<double> u_counts(std::size_t n1, std::size_t n2) {
  // counts[i][j] over u, built up from smaller samples.
  std::vector<std::vector<std::vector<double>>> counts(n1 + 1, std::vector<std::vector<double>>(n2 + 1));
  for (std::size_t i = 0; i <= n1; ++i) {
    for (std::size_t j = 0; j <= n2; ++j) {
      std::vector<double>& c = counts[i][j];
      c.assign(i * j + 1, 0);
      if (i == 0 || j == 0) {
        c[0] = 1;
        continue;
      }
      // The largest value is from the first sample (it beats all j of the
      // second: U grows by j) or from the second.
      const std::vector<double>& first = counts[i - 1][j];
      const std::vector<double>& second = counts[i][j - 1];
      for (std::size_t u = 0; u < first.size(); ++u) c[u + j] += first[u];
      for (std::size_t u = 0; u < second.size(); ++u) c[u] += second[u];
    }
  }
  return counts[n1][n2];
}

}  // namespace

double smallest_p(std::size_t n1, std::size_t n2) {
  if (n1 == 0 || n2 == 0) return 1;
  // Both extremes of the exact distribution: 2 / C(n1 + n2, n1).
  double arrangements = 1;
  for (std::size_t k = 1; k <= n1; ++k)
    arrangements = arrangements * static_cast<double>(n2 + k) / static_cast<double>(k);
  return std::min(1.0, 2 / arrangements);
}

std::optional<double> mann_whitney_p(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.empty() || b.empty()) return std::nullopt;
  const std::size_t n1 = a.size(), n2 = b.size(), n = n1 + n2;
  // Ranks over both samples, ties sharing their average rank.
  std::vector<std::pair<double, bool>> all;  // value, from a
  for (const double v : a) all.emplace_back(v, true);
  for (const double v : b) all.emplace_back(v, false);
  std::sort(all.begin(), all.end());
  double rank_sum_a = 0, tie_term = 0;
  bool ties = false;
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i;
    while (j < n && all[j].first == all[i].first) ++j;
    const double average_rank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2;
    const double tied = static_cast<double>(j - i);
    if (tied > 1) ties = true;
    tie_term += tied * tied * tied - tied;
    for (std::size_t k = i; k < j; ++k) {
      if (all[k].second) rank_sum_a += average_rank;
    }
    i = j;
  }
  const double d1 = static_cast<double>(n1), d2 = static_cast<double>(n2);
  const double u = rank_sum_a - d1 * (d1 + 1) / 2;  // U of a
  if (!ties && n <= kExactUpTo) {
    const std::vector<double> counts = u_counts(n1, n2);
    double total = 0, at_most = 0;
    const auto u_index = static_cast<std::size_t>(std::llround(u));
    for (std::size_t k = 0; k < counts.size(); ++k) {
      total += counts[k];
      if (k <= u_index) at_most += counts[k];
    }
    const double at_least = total - at_most + counts[u_index];
    return std::min(1.0, 2 * std::min(at_most, at_least) / total);
  }
  // Normal approximation, with the tie correction of the variance and a
  // continuity correction of 0.5.
  const double mean = d1 * d2 / 2;
  const double dn = static_cast<double>(n);
  const double variance = d1 * d2 / 12 * ((dn + 1) - tie_term / (dn * (dn - 1)));
  if (variance <= 0) return 1.0;  // every value tied: no difference at all
  const double z = std::max(0.0, std::fabs(u - mean) - 0.5) / std::sqrt(variance);
  return std::min(1.0, std::erfc(z / std::sqrt(2.0)));
}

}  // namespace allocgate::reports
