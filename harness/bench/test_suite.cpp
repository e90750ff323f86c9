// SPDX-License-Identifier: Apache-2.0
// A suite of 1,000 small GoogleTest tests (no allocgate header), for the cost
// of counting every test with no code: built with GTest::gtest_main and with
// allocgate::gtest_main (test_suite_overhead.sh runs them side by side).

#include <gtest/gtest.h>

#include <numeric>
#include <string>
#include <vector>

namespace {

// What a small test does: builds a string past the small-string buffer and a
// vector, and checks them.
void small_test(int n) {
  const std::string name(40 + n % 7, 'n');
  std::vector<int> values(16 + n % 5);
  std::iota(values.begin(), values.end(), n);
  EXPECT_EQ(name.size(), static_cast<std::size_t>(40 + n % 7));
  EXPECT_EQ(values.front(), n);
}

// clang-format off (it reflows the macros differently on each run)
#define ALLOCGATE_TEN(suite, n)                    \
  TEST(suite, T##n##0) { small_test(n * 10 + 0); } \
  TEST(suite, T##n##1) { small_test(n * 10 + 1); } \
  TEST(suite, T##n##2) { small_test(n * 10 + 2); } \
  TEST(suite, T##n##3) { small_test(n * 10 + 3); } \
  TEST(suite, T##n##4) { small_test(n * 10 + 4); } \
  TEST(suite, T##n##5) { small_test(n * 10 + 5); } \
  TEST(suite, T##n##6) { small_test(n * 10 + 6); } \
  TEST(suite, T##n##7) { small_test(n * 10 + 7); } \
  TEST(suite, T##n##8) { small_test(n * 10 + 8); } \
  TEST(suite, T##n##9) { small_test(n * 10 + 9); }
#define ALLOCGATE_HUNDRED(suite) \
  ALLOCGATE_TEN(suite, 0)        \
  ALLOCGATE_TEN(suite, 1)        \
  ALLOCGATE_TEN(suite, 2)        \
  ALLOCGATE_TEN(suite, 3)        \
  ALLOCGATE_TEN(suite, 4)        \
  ALLOCGATE_TEN(suite, 5)        \
  ALLOCGATE_TEN(suite, 6)        \
  ALLOCGATE_TEN(suite, 7)        \
  ALLOCGATE_TEN(suite, 8)        \
  ALLOCGATE_TEN(suite, 9)
// clang-format on

ALLOCGATE_HUNDRED(Parsing)
ALLOCGATE_HUNDRED(Formatting)
ALLOCGATE_HUNDRED(Caching)
ALLOCGATE_HUNDRED(Routing)
ALLOCGATE_HUNDRED(Storage)
ALLOCGATE_HUNDRED(Sessions)
ALLOCGATE_HUNDRED(Queues)
ALLOCGATE_HUNDRED(Config)
ALLOCGATE_HUNDRED(Encoding)
ALLOCGATE_HUNDRED(Clients)

}  // namespace
