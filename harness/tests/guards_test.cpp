// SPDX-License-Identifier: Apache-2.0
// ForbidAllocations and PauseCounting.

#include <string>
#include <thread>
#include <vector>

#include "allocgate/allocgate.h"
#include "allocgate/gtest.h"
#include "block_headers.h"
#include "escape.h"
#include "standard_library.h"

namespace {

using allocgate::AllocationScope;
using allocgate::ForbidAllocations;
using allocgate::ForbiddenAllocations;
using allocgate::PauseCounting;
using allocgate::test::escape;

std::vector<ForbiddenAllocations> g_reports;

void record(const ForbiddenAllocations& seen) {
  PauseCounting pause;
  g_reports.push_back(seen);
}

// Swaps in a recording handler for one test, restoring GoogleTest's after.
class ForbidAllocationsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    g_reports.clear();
    previous_ = allocgate::set_forbidden_allocation_handler(&record);
  }
  void TearDown() override { allocgate::set_forbidden_allocation_handler(previous_); }

 private:
  allocgate::ForbiddenAllocationHandler previous_ = nullptr;
};

TEST_F(ForbidAllocationsTest, ReportsCountSizesAndWhereTheGuardIs) {
  int line = 0;
  {
    ForbidAllocations forbid;
    line = __LINE__ - 1;
    std::string s(40, 'x');
    escape(s.data());
    void* p = ::operator new(8);
    escape(p);
    ::operator delete(p);
    EXPECT_EQ(forbid.violations(), 2u);
  }
  ASSERT_EQ(g_reports.size(), 1u);
  EXPECT_EQ(g_reports[0].count, 2u);
  const std::size_t string_bytes = allocgate::test::string_block_bytes(40);  // 41, or 48 with libc++
  EXPECT_EQ(g_reports[0].bytes, string_bytes + 8);
  EXPECT_EQ(g_reports[0].first_size, string_bytes);
  EXPECT_EQ(g_reports[0].guard_line, static_cast<std::uint32_t>(line));
  EXPECT_NE(std::string(g_reports[0].guard_file).find("guards_test.cpp"), std::string::npos);
}

TEST_F(ForbidAllocationsTest, SilentWhenNothingIsAllocated) {
  std::string reserved;
  reserved.reserve(100);
  {
    ForbidAllocations forbid;
    reserved.assign(90, 'y');
  }
  EXPECT_TRUE(g_reports.empty());
}

TEST_F(ForbidAllocationsTest, AnotherThreadMayAllocate) {
  {
    ForbidAllocations forbid;
    std::thread other([] {
      std::string s(100, 'z');  // the other thread is not under the guard
      escape(s.data());
    });
    // Constructing `other` allocated on this thread: that one is reported.
    other.join();
  }
  ASSERT_EQ(g_reports.size(), 1u);
  // std::thread's state only, not the string.
  EXPECT_EQ(g_reports[0].count, allocgate::test::kThreadStartAllocations);
}

TEST_F(ForbidAllocationsTest, NestedGuardsReportEachAllocationOnce) {
  {
    ForbidAllocations outer;
    {
      ForbidAllocations inner;
      char* p = new char[3];
      escape(p);
      delete[] p;
    }
    void* p = ::operator new(5);
    escape(p);
    ::operator delete(p);
  }
  ASSERT_EQ(g_reports.size(), 2u);
  EXPECT_EQ(g_reports[0].bytes, 3u);
  EXPECT_EQ(g_reports[1].count, 1u);
  EXPECT_EQ(g_reports[1].bytes, 5u);
}

TEST_F(ForbidAllocationsTest, PausedAllocationsAreNotViolations) {
  {
    ForbidAllocations forbid;
    PauseCounting pause;
    std::string s(100, 'p');
    escape(s.data());
  }
  EXPECT_TRUE(g_reports.empty());
}

TEST(PauseCounting, HidesAllocationsAndTheirFrees) {
  AllocationScope scope;
  void* hidden = nullptr;
  {
    PauseCounting pause;
    hidden = ::operator new(100);
    escape(hidden);
    ::operator delete(::operator new(8), 8);
  }
  ::operator delete(hidden, 100);  // freed while counting
  const auto stats = scope.stats();
  EXPECT_EQ(stats.allocations, 0u);
  if (allocgate::test::block_headers()) {
    // The header remembers the block was not counted: neither is its free.
    EXPECT_EQ(stats.deallocations, 0u);
    EXPECT_EQ(stats.net_bytes, 0);
  } else {
    // Without headers the hook cannot tell: a paused block freed while
    // counting is a counted free.
    EXPECT_EQ(stats.deallocations, 1u);
    EXPECT_EQ(stats.net_bytes, -100);
  }
}

TEST(PauseCounting, NestsAndResumeTwiceIsANoOp) {
  AllocationScope scope;
  {
    PauseCounting outer;
    {
      PauseCounting inner;
      inner.resume();
      inner.resume();  // no effect: counting stays paused by `outer`
      ::operator delete(::operator new(1));
    }
    ::operator delete(::operator new(1));
    outer.resume();
    void* counted = ::operator new(2);
    escape(counted);
    ::operator delete(counted);
  }  // destructors after resume() do nothing more
  void* also = ::operator new(3);
  escape(also);
  ::operator delete(also);
  EXPECT_EQ(scope.stats().allocations, 2u);
  EXPECT_EQ(scope.stats().bytes_allocated, 5u);
}

}  // namespace
