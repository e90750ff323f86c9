// SPDX-License-Identifier: Apache-2.0
#include "heaptrack.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace {

TEST(Heaptrack, ReadsHeaptrackPrintsSummaryAndTopAllocators) {
  // heaptrack_print's output for `allocgate loop xml_listing/naive/10 --runs 50`.
  std::ifstream in(std::string(ALLOCGATE_FIXTURES) + "/heaptrack_print.txt");
  std::stringstream text;
  text << in.rdbuf();
  const auto summary = allocgate::reports::parse_heaptrack_print(text.str());
  EXPECT_EQ(summary.calls, 9174u);
  EXPECT_EQ(summary.temporary, 801u);
  EXPECT_EQ(summary.peak, "123.54K");
  ASSERT_GE(summary.top.size(), 3u);
  EXPECT_EQ(summary.top[0].calls, 9167u);
  EXPECT_EQ(summary.top[0].function, "tracked_malloc");
  EXPECT_EQ(summary.top[0].location, "/src/allocgate/harness/src/hook.cpp:182");
  EXPECT_EQ(summary.top[1].location, "/lib/x86_64-linux-gnu/libstdc++.so.6");
}

}  // namespace
