// SPDX-License-Identifier: Apache-2.0
// A suite its project compiles as C++14 (CMakeLists.txt): linking
// allocgate::gtest_main leaves the standard as the project set it.

#include <gtest/gtest.h>

#include <string>

static_assert(__cplusplus == 201402L, "linking allocgate::gtest_main changed the suite's C++ standard");

TEST(Standard, StaysTheProjects) {
  const std::string s(40, 's');
  EXPECT_EQ(s.size(), 40u);
}
