// SPDX-License-Identifier: Apache-2.0
// Two tests that use one function-local static table, built by whichever
// runs first: the table's allocations are one-time initialisation, no
// failure point, so each test has the same points (its own allocation)
// swept whole or alone. Linked with allocgate::gtest_main.

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

const std::vector<std::string>& month_names() {
  static const std::vector<std::string> names{"January, the first month of the year",
                                              "February, the second month of the year"};
  return names;
}

// Longer than a string holds in itself: its own allocation, the test's one point.
std::string short_name_of(std::size_t month) {
  const std::string& name = month_names().at(month);
  return name.substr(0, name.find(" of "));
}

TEST(FirstUse, BuildsTheTable) { EXPECT_EQ(short_name_of(0), "January, the first month"); }

TEST(FirstUse, UsesTheTable) { EXPECT_EQ(short_name_of(1), "February, the second month"); }

}  // namespace
