// SPDX-License-Identifier: Apache-2.0
// A matcher written as gMock's cookbook writes one, with no line of
// allocgate's: what EXPECT_THAT's matcher builds in the test's own expression
// is the test's (zero_code_gtest_test.cpp derives the figure by running the
// same statement under a scope).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

TEST(Matchers, ElementsAreIsTheTests) {
  const std::vector<int> v{1, 2};
  EXPECT_THAT(v, ::testing::ElementsAre(1, 2));
}
