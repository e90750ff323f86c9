// SPDX-License-Identifier: Apache-2.0
#include "mann_whitney.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace {

using allocgate::reports::mann_whitney_p;
using allocgate::reports::smallest_p;

TEST(MannWhitney, SeparatedSamplesGiveTheSmallestP) {
  EXPECT_DOUBLE_EQ(*mann_whitney_p({1, 2, 3}, {4, 5, 6}), 0.1);  // 2 of C(6, 3) = 20 arrangements
  EXPECT_DOUBLE_EQ(smallest_p(3, 3), 0.1);
  EXPECT_DOUBLE_EQ(*mann_whitney_p({1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}), 2.0 / 252);
  EXPECT_DOUBLE_EQ(*mann_whitney_p({6, 7, 8, 9, 10}, {1, 2, 3, 4, 5}), 2.0 / 252);
  EXPECT_LT(smallest_p(4, 4), 0.05);  // 4 repetitions each can tell a change
  EXPECT_GE(smallest_p(3, 4), 0.05);
}

TEST(MannWhitney, SameValuesAreNoDifference) {
  EXPECT_DOUBLE_EQ(*mann_whitney_p({5, 5, 5}, {5, 5, 5}), 1.0);
  EXPECT_DOUBLE_EQ(*mann_whitney_p({1, 3, 5}, {2, 4, 6}), 0.7);  // U = 3 of 9: 14 of 20 arrangements as extreme
  EXPECT_FALSE(mann_whitney_p({}, {1}).has_value());
}

// The exact p against its plain twin: every way of choosing which ranks the
// first sample holds, counted one by one, on random samples without ties.
TEST(MannWhitney, ExactPIsTheShareOfArrangementsAsExtreme) {
  std::mt19937 rng(7);
  for (int round = 0; round < 200; ++round) {
    const std::size_t n1 = 1 + rng() % 6, n2 = 1 + rng() % 6;
    std::vector<double> values(n1 + n2);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>(i);
    std::shuffle(values.begin(), values.end(), rng);
    const std::vector<double> a(values.begin(), values.begin() + static_cast<long>(n1));
    const std::vector<double> b(values.begin() + static_cast<long>(n1), values.end());
    // U of a: pairs (x in a, y in b) with x > y.
    const auto u_of = [&](const std::vector<bool>& in_a) {
      int u = 0;
      for (std::size_t i = 0; i < in_a.size(); ++i) {
        for (std::size_t j = 0; j < in_a.size(); ++j) u += in_a[i] && !in_a[j] && i > j;  // ranks i > j
      }
      return u;
    };
    std::vector<bool> observed(n1 + n2);
    for (const double v : a) observed[static_cast<std::size_t>(v)] = true;
    const int u = u_of(observed);
    int total = 0, low = 0, high = 0;
    for (unsigned mask = 0; mask < (1u << (n1 + n2)); ++mask) {
      if (static_cast<std::size_t>(__builtin_popcount(mask)) != n1) continue;
      std::vector<bool> in_a(n1 + n2);
      for (std::size_t i = 0; i < n1 + n2; ++i) in_a[i] = (mask >> i) & 1u;
      const int x = u_of(in_a);
      ++total;
      low += x <= u;
      high += x >= u;
    }
    const double expected = std::min(1.0, 2.0 * std::min(low, high) / total);
    EXPECT_NEAR(*mann_whitney_p(a, b), expected, 1e-12) << "n1=" << n1 << " n2=" << n2 << " u=" << u;
  }
}

// With ties the normal approximation: symmetric, and near the exact p of
// the same samples made distinct.
TEST(MannWhitney, TiesUseTheNormalApproximation) {
  const std::vector<double> a{1, 2, 2, 3, 4, 5, 6, 7}, b{5, 6, 7, 7, 8, 9, 10, 11};
  const double p = *mann_whitney_p(a, b);
  EXPECT_DOUBLE_EQ(p, *mann_whitney_p(b, a));
  const double distinct = *mann_whitney_p({1, 2, 2.1, 3, 4, 5, 6, 7}, {5.1, 6.1, 7.1, 7.2, 8, 9, 10, 11});
  EXPECT_NEAR(p, distinct, 0.01);
  EXPECT_LT(p, 0.05);
}

}  // namespace
