// SPDX-License-Identifier: Apache-2.0
// A test as a project built with Meson writes one: allocgate's assertions
// through pkg-config's allocgate-gtest, nothing else of allocgate's.
#include <allocgate/gtest.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

TEST(PkgConfigConsumer, CountsExactly) {
  std::vector<int> v;
  EXPECT_ALLOCATIONS_EQ(v.reserve(100), 1);
  EXPECT_NO_ALLOCATIONS(v.push_back(1));
  std::string s;
  EXPECT_ALLOCATIONS_EQ(s.assign(200, 'x'), 1);
}
