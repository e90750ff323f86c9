// SPDX-License-Identifier: Apache-2.0
// What is a failure point and what is not, for classic_bugs_test.sh: two
// tests that use one function-local static table, built by whichever runs
// first (one-time initialisation, no point: each test has its own
// allocation's point, swept whole or alone); a test whose body throws,
// whose points are its own allocations, not GoogleTest's report of the
// exception; a death assertion, whose matcher is GoogleTest's; and how a
// std::bad_alloc out of an EXPECT_THROW's statement ends (propagated, as
// Catch2's and doctest's assertions report it). Linked with
// allocgate::gtest_main.

#include <gtest/gtest.h>

#include <cstdlib>
#include <stdexcept>
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

// Two allocations: the string, and the exception's copy of it.
TEST(OutOfTheBody, ARuntimeError) { throw std::runtime_error(std::string(100, 'r')); }

// One point, the string: the matcher GoogleTest builds from the regex
// (five allocations) is not the test's, nor is the child's abort.
TEST(Death, TheMatcherIsNoPoint) {
  const std::string kept(100, 'k');
  EXPECT_DEATH(std::abort(), "");
  EXPECT_EQ(kept.size(), 100u);
}

// Each of the statements' allocations failing reaches the assertion as a
// std::bad_alloc: the string, the exception's message; the string alone.
TEST(InAnAssertion, ThrowsBadAllocNotTheExpected) {
  EXPECT_THROW(
      {
        const std::string input(100, 'p');
        throw std::invalid_argument(input);
      },
      std::invalid_argument);
}
TEST(InAnAssertion, ThrowsBadAllocNotNothing) { EXPECT_NO_THROW(std::string(100, 'n')); }

}  // namespace
