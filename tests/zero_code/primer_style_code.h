// SPDX-License-Identifier: Apache-2.0
// Code the primer-style suite runs whose figures depend on the standard
// library (a std::thread's own state): zero_code_gtest_test.cpp runs it too,
// under a scope, to derive what the suite's test must report.
#pragma once

#include <cstddef>
#include <thread>
#include <vector>

/// Starts a thread that allocates 100 ints, joins it; returns their count.
inline std::size_t start_and_join_a_thread() {
  std::size_t size = 0;
  std::thread worker([&size] {
    const std::vector<int> v(100);
    size = v.size();
  });
  worker.join();
  return size;
}
