// SPDX-License-Identifier: Apache-2.0
// The test sweep_cost.cpp sweeps: P allocations from one line, each freed
// before the next (SWEEP_COST_ALLOCATIONS, 10 by default), so that a sweep
// of every allocation (=all) tries P points, each propagated.

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>

long* volatile g_last = nullptr;  // each block escapes: the compiler may not elide its allocation

TEST(Cost, Allocates) {
  const char* const allocations = std::getenv("SWEEP_COST_ALLOCATIONS");
  const long count = allocations != nullptr ? std::strtol(allocations, nullptr, 10) : 10;
  long sum = 0;
  for (long i = 0; i < count; ++i) {
    const auto value = std::make_unique<long>(i);
    g_last = value.get();
    sum += *value;
  }
  EXPECT_EQ(sum, count * (count - 1) / 2);
}
