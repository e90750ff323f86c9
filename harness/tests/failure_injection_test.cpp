// SPDX-License-Identifier: Apache-2.0
// InjectAllocationFailure and fail_each_allocation.

#include <map>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "allocgate/allocgate.h"
#include "allocgate/gtest.h"
#include "escape.h"

namespace {

using allocgate::fail_each_allocation;
using allocgate::InjectAllocationFailure;
using allocgate::test::escape;

TEST(InjectAllocationFailure, TheNextAllocationFailsWithBadAlloc) {
  InjectAllocationFailure failure(0);
  EXPECT_FALSE(failure.fired());
  EXPECT_THROW(escape(::operator new(8)), std::bad_alloc);
  EXPECT_TRUE(failure.fired());
  void* after = ::operator new(8);  // one shot
  escape(after);
  ::operator delete(after);
}

TEST(InjectAllocationFailure, TheNthAllocationFailsAndTheOthersSucceed) {
  std::vector<void*> got;
  {
    InjectAllocationFailure failure(2);
    for (int i = 0; i < 5; ++i) got.push_back(::operator new(4, std::nothrow));
    EXPECT_TRUE(failure.fired());
  }
  // Attempts alternate between our operator new and got's growth, in that
  // order, so attempt 2 is our second operator new: exactly one null.
  int nulls = 0;
  for (void* p : got) nulls += p == nullptr;
  EXPECT_EQ(nulls, 1);
  for (void* p : got) ::operator delete(p);
}

TEST(InjectAllocationFailure, NothrowFormsReturnNull) {
  InjectAllocationFailure failure(0);
  EXPECT_EQ(::operator new (16, std::align_val_t{64}, std::nothrow), nullptr);
  EXPECT_TRUE(failure.fired());
}

TEST(InjectAllocationFailure, AFailedAllocationIsNotCounted) {
  const auto stats = allocgate::measure([] {
    InjectAllocationFailure failure(0);
    EXPECT_EQ(::operator new[](16, std::nothrow), nullptr);
  });
  EXPECT_EQ(stats.allocations, 0u);
}

TEST(InjectAllocationFailure, DoesNotNest) {
  InjectAllocationFailure outer(10);
  EXPECT_THROW(InjectAllocationFailure inner(0), std::logic_error);
}

TEST(InjectAllocationFailure, DisarmedWhenTheGuardEnds) {
  { InjectAllocationFailure failure(1000); }
  std::vector<int> v(2000);  // would have hit the 1000th if still armed
  escape(v.data());
  InjectAllocationFailure again(0);  // arming again is allowed
  EXPECT_THROW(escape(::operator new(1)), std::bad_alloc);
}

TEST(FailEachAllocation, VisitsEveryAllocationPoint) {
  const auto build = [] {
    std::string a(40, 'a');  // longer than any short-string buffer
    std::string b(50, 'b');
    std::vector<std::string> both{a, b};
    escape(both.data());
  };
  const auto sweep = fail_each_allocation(build);
  // As many failure points as one clean run allocates: 7 with g++ (a, b, the
  // initializer list's two copies, the vector's array and its two copies);
  // clang elides the initializer list's copies.
  EXPECT_EQ(sweep.allocation_points, allocgate::measure(build).allocations);
  EXPECT_GE(sweep.allocation_points, 5u);
  EXPECT_EQ(sweep.propagated, sweep.allocation_points);
  EXPECT_EQ(sweep.absorbed, 0u);
}

TEST(FailEachAllocation, CountsFailuresTheFunctionAbsorbs) {
  const auto sweep = fail_each_allocation([] {
    void* p = ::operator new(8, std::nothrow);  // null on failure: absorbed
    ::operator delete(p);
    std::string s(40, 's');  // throws on failure: propagated
    escape(s.data());
  });
  EXPECT_EQ(sweep.allocation_points, 2u);
  EXPECT_EQ(sweep.absorbed, 1u);
  EXPECT_EQ(sweep.propagated, 1u);
}

// The point of the sweep: std::map::emplace gives the strong guarantee, so a
// failure at any allocation leaves the map as it was.
TEST(FailEachAllocation, ChecksAStrongExceptionGuaranteeAtEveryPoint) {
  const std::map<std::string, std::string> original{{"kept", "value"}};
  const auto sweep = fail_each_allocation([&] {
    auto m = original;
    try {
      m.emplace(std::string(32, 'k'), std::string(32, 'v'));
    } catch (const std::bad_alloc&) {
      EXPECT_EQ(m, original);
      throw;
    }
    EXPECT_EQ(m.size(), 2u);
  });
  // The copy's node, the two 32-byte strings, the new node.
  EXPECT_EQ(sweep.allocation_points, 4u);
  EXPECT_EQ(sweep.propagated, 4u);
}

// The harness's own bookkeeping (the assertion's scope, its message) is made
// while counting is paused; an injected failure must never land there.
TEST(InjectAllocationFailure, SkipsTheHarnessesOwnPausedAllocations) {
  int x = 0;
  {
    InjectAllocationFailure failure(0);
    EXPECT_NO_ALLOCATIONS(x = 1);
    {
      allocgate::PauseCounting pause;
      std::string paused(64, 'p');  // would be the 0th attempt if it were counted
      escape(paused.data());
    }
    EXPECT_FALSE(failure.fired());
    EXPECT_THROW(escape(::operator new(8)), std::bad_alloc);  // still armed for the code's own
  }
  EXPECT_EQ(x, 1);
}

TEST(FailEachAllocation, SeesOnlyTheStatementsAllocationsInsideAnAssertion) {
  const auto sweep = fail_each_allocation([] {
    std::vector<int> v;
    EXPECT_ALLOCATIONS_EQ(v.push_back(1), 1);
    escape(v.data());  // or clang removes the allocation it can see freed
  });
  EXPECT_EQ(sweep.allocation_points, 1u);
  EXPECT_EQ(sweep.propagated, 1u);
}

TEST(FailEachAllocation, GivesUpAfterTheLimit) {
  int calls = 0;
  EXPECT_THROW(fail_each_allocation(
                   [&] {
                     ++calls;
                     for (int i = 0; i < calls; ++i) {
                       int* p = new (std::nothrow) int;
                       escape(p);
                       delete p;
                     }
                   },
                   10),
               std::runtime_error);
}

}  // namespace
