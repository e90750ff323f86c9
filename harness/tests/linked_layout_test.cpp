// SPDX-License-Identifier: Apache-2.0
// The one test compiled apart for each block layout: that the program has the
// layout it was linked with. The tests beside it are the same objects in both
// programs, and ask the hook which layout they run on (block_headers.h).

#include <gtest/gtest.h>

#include "block_headers.h"

namespace {

TEST(SizeTracking, IsTheLayoutThisTestWasLinkedWith) {
  EXPECT_EQ(allocgate::test::block_headers(), ALLOCGATE_TEST_BLOCK_HEADERS != 0);
}

}  // namespace
