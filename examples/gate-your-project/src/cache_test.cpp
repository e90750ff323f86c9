// SPDX-License-Identifier: Apache-2.0
#include <allocgate/gtest.h>

#include <string>

#include "cache.h"

TEST(Cache, LookupFindsWhatWasInserted) {
  Cache cache;
  cache.insert("users/0001/profile-picture", "a.jpg");
  EXPECT_EQ(cache.lookup("users/0001/profile-picture").value_or(""), "a.jpg");
  EXPECT_FALSE(cache.lookup("users/0002/profile-picture"));
}

// The hot path, against the bound recorded in alloc-bounds.json.
TEST(Cache, LookupHitStaysWithinItsRecordedBound) {
  Cache cache;
  cache.insert("users/0001/profile-picture", "a.jpg");
  EXPECT_ALLOCATIONS_WITHIN_BOUNDS("cache/lookup_hit", cache.lookup("users/0001/profile-picture"));
}
