// SPDX-License-Identifier: Apache-2.0
// The GoogleTest assertions pass and fail when they should, and their failure
// messages carry the statement, the bound and the measured figures.

#include <gtest/gtest-spi.h>

#include <string>
#include <vector>

#include "allocgate/allocgate.h"
#include "allocgate/gtest.h"
#include "escape.h"
#include "standard_library.h"

namespace {

// EXPECT_NONFATAL_FAILURE may not use locals, so the statements use these.
std::string g_text;
std::vector<int> g_numbers;

// grow_text's one block: 101 bytes with libstdc++, 112 with libc++.
const std::size_t kTextBytes = allocgate::test::string_block_bytes(100);
using allocgate::test::bytes_text;

void grow_text() {
  g_text.assign(100, 'x');
  allocgate::test::escape(g_text.data());
}

void reset() {
  std::string().swap(g_text);
  std::vector<int>().swap(g_numbers);
}

TEST(GTestAssertions, PassWhenTheBoundHolds) {
  reset();
  EXPECT_ALLOCATIONS_EQ(grow_text(), 1);
  EXPECT_NO_ALLOCATIONS(grow_text());  // the capacity is already there
  reset();
  EXPECT_ALLOCATIONS_LE(grow_text(), 1);
  reset();
  EXPECT_ALLOCATED_BYTES_LE(grow_text(), kTextBytes);
  reset();
  ASSERT_ALLOCATIONS_EQ(grow_text(), 1);
  ASSERT_ALLOCATIONS_LE(grow_text(), 0);
  ASSERT_NO_ALLOCATIONS(grow_text());
}

TEST(GTestAssertions, AScopeAroundAnAssertionSeesOnlyTheStatement) {
  reset();
  allocgate::AllocationScope around;
  EXPECT_ALLOCATIONS_EQ(grow_text(), 1);
  const auto stats = around.stats();
  EXPECT_EQ(stats.allocations, 1u);
  EXPECT_EQ(stats.deallocations, 0u);
  EXPECT_EQ(stats.bytes_allocated, kTextBytes);
}

TEST(GTestAssertions, ExactFailureGivesStatementBoundAndMeasuredFigures) {
  reset();
  EXPECT_NONFATAL_FAILURE(EXPECT_ALLOCATIONS_EQ(grow_text(), 0),
                          "`grow_text()` should allocate exactly 0 times\n"
                          "  measured: 1 allocation, " +
                              bytes_text(kTextBytes) + " requested; 0 freed (0 bytes); net " + bytes_text(kTextBytes) +
                              ", peak live " + bytes_text(kTextBytes));
}

TEST(GTestAssertions, UpperBoundFailureSaysAtMost) {
  reset();
  EXPECT_NONFATAL_FAILURE(EXPECT_ALLOCATIONS_LE(for (int i = 0; i < 5; ++i) g_numbers.push_back(i), 2),
                          "should allocate at most 2 times\n  measured: 4 allocations, 60 bytes requested");
}

TEST(GTestAssertions, NoAllocationsFailsOnOne) {
  reset();
  EXPECT_NONFATAL_FAILURE(EXPECT_NO_ALLOCATIONS(grow_text()), "should allocate exactly 0 times");
}

TEST(GTestAssertions, ByteBoundFailureNamesBytes) {
  reset();
  EXPECT_NONFATAL_FAILURE(EXPECT_ALLOCATED_BYTES_LE(grow_text(), 100),
                          "`grow_text()` should allocate at most 100 bytes\n"
                          "  measured: 1 allocation, " +
                              bytes_text(kTextBytes) + " requested");
}

TEST(GTestAssertions, AssertVariantsAreFatal) {
  reset();
  EXPECT_FATAL_FAILURE(ASSERT_NO_ALLOCATIONS(grow_text()), "should allocate exactly 0 times");
}

TEST(GTestAssertions, AForbiddenAllocationFailsTheTestAtTheGuard) {
  reset();
  EXPECT_NONFATAL_FAILURE(
      {
        allocgate::ForbidAllocations forbid;
        grow_text();
      },
      "1 allocation(s) of " + bytes_text(kTextBytes) + " in a scope that forbids allocation (the first of " +
          bytes_text(kTextBytes) + ")");
}

}  // namespace

namespace {

// EXPECT_NO_LEAKS: a statement that frees what it allocates passes, one
// that keeps a block fails with the bytes it left and where they come from.
TEST(GTestAssertions, NoLeaksPassesWhenEverythingIsFreed) {
  reset();
  EXPECT_NO_LEAKS({
    std::string s(200, 'x');
    allocgate::test::escape(s.data());
  });
  grow_text();
  EXPECT_NO_LEAKS(std::string().swap(g_text));  // freeing what was allocated before is no leak
}

TEST(GTestAssertions, NoLeaksFailsWithTheBytesLeftAndTheirSite) {
  reset();
  EXPECT_NONFATAL_FAILURE(EXPECT_NO_LEAKS(grow_text()), "`grow_text()` should leave nothing allocated; it left " +
                                                            std::to_string(kTextBytes) + " bytes live");
  reset();
  EXPECT_NONFATAL_FAILURE(EXPECT_NO_LEAKS(grow_text()), "grow_text");  // the site
  reset();
  EXPECT_FATAL_FAILURE(ASSERT_NO_LEAKS(grow_text()), "should leave nothing allocated");
  reset();
}

void free_without_its_size() {
  void* p = ::operator new(32);
  allocgate::test::escape(p);
  ::operator delete(p);  // unsized: the hook is not told how much is freed
}

// Without every freed size, a leak cannot be told from none: the assertion
// says so rather than pass.
TEST(GTestAssertions, NoLeaksCannotPassWhenAFreedSizeIsUnknown) {
  EXPECT_NONFATAL_FAILURE(EXPECT_NO_LEAKS(free_without_its_size()),
                          "`free_without_its_size()`: whether it leaks cannot be told: 1 free(s) of unknown size");
}

}  // namespace
