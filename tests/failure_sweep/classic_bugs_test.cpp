// SPDX-License-Identifier: Apache-2.0
// The classic exception-safety bugs (classic_bugs.h) as a GoogleTest suite
// is written; linked with allocgate::gtest_main.

#include "classic_bugs.h"

#include <gtest/gtest.h>

namespace {

using namespace classic_bugs;

TEST(ClassicBugs, RawNewBeforeAThrowingPushBack) {
  register_widget();
  ASSERT_EQ(g_registry.size(), 1u);
  clear_registry();
}

TEST(ClassicBugs, ANoexceptFunctionThatAllocates) { EXPECT_EQ(describe(7), 52u); }

TEST(ClassicBugs, ACatchAllThatReturnsADefault) { EXPECT_EQ(length_or_zero(100), 100u); }

TEST(ClassicBugs, ASizeUpdatedBeforeTheAllocation) { EXPECT_TRUE(bag_stays_whole()); }

TEST(ClassicBugs, ANothrowNullUsed) { EXPECT_EQ(first_of_numbers(), 1); }

TEST(RetryLoop, RetriesOnBadAlloc) { EXPECT_EQ(retried().size(), 100u); }

TEST(Clean, EveryFailurePropagates) { EXPECT_EQ(names_and_widget(), 42u); }

TEST(Clean, AFailureHandledWithAFallback) { EXPECT_EQ(values_with_a_fallback(), 1u); }

}  // namespace
