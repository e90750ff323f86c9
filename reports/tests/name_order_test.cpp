// SPDX-License-Identifier: Apache-2.0
// Case names in the order a person reads a ->Range family: numbers by value.
#include "name_order.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

namespace {

using allocgate::reports::name_before;

TEST(NameOrder, NumbersCompareByValue) {
  const std::vector<std::string> ordered = {
      "BM_Copy/8",     "BM_Copy/8/2", "BM_Copy/8/16",      "BM_Copy/64",         "BM_Copy/512",       "BM_Copy/4096",
      "BM_Copy/32768", "BM_Copyx",    "log_report/v1/200", "log_report/v1/2000", "log_report/v4/200", "x"};
  for (std::size_t i = 0; i < ordered.size(); ++i) {
    EXPECT_FALSE(name_before(ordered[i], ordered[i])) << ordered[i];
    for (std::size_t j = i + 1; j < ordered.size(); ++j) {
      EXPECT_TRUE(name_before(ordered[i], ordered[j])) << ordered[i] << " " << ordered[j];
      EXPECT_FALSE(name_before(ordered[j], ordered[i])) << ordered[j] << " " << ordered[i];
    }
  }
  // Shuffled, sorted back.
  std::vector<std::string> shuffled = ordered;
  std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937(3));
  std::sort(shuffled.begin(), shuffled.end(), [](const auto& a, const auto& b) { return name_before(a, b); });
  EXPECT_EQ(shuffled, ordered);
}

TEST(NameOrder, LeadingZerosAndPrefixesAreStillAStrictOrder) {
  EXPECT_TRUE(name_before("a/7", "a/07"));  // equal values: the shorter first
  EXPECT_TRUE(name_before("a/07", "a/8"));
  EXPECT_TRUE(name_before("a", "a/1"));  // a prefix first
  EXPECT_TRUE(name_before("a/1", "a/1x"));
  EXPECT_TRUE(name_before("a/99999999999999999999998", "a/99999999999999999999999"));  // past any integer
  EXPECT_FALSE(name_before("a/00", "a/00"));
  EXPECT_TRUE(name_before("a/0", "a/00"));
}

}  // namespace
