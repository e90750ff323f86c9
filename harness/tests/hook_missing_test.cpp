// SPDX-License-Identifier: Apache-2.0
// Linked against a harness built without the operator replacements: the first
// measurement must fail loudly instead of reporting 0 allocations.

#include <gtest/gtest.h>

#include <string>

#include "allocgate/allocgate.h"

namespace {

TEST(HookMissing, TheFirstMeasurementThrows) {
  EXPECT_THROW(allocgate::require_hook(), allocgate::HookNotLinked);
  EXPECT_THROW(allocgate::AllocationScope scope, allocgate::HookNotLinked);
  EXPECT_THROW(allocgate::ProcessAllocationScope scope, allocgate::HookNotLinked);
  EXPECT_THROW(allocgate::measure([] { std::string s(100, 'x'); }), allocgate::HookNotLinked);
  EXPECT_THROW(allocgate::InjectAllocationFailure failure(0), allocgate::HookNotLinked);
}

TEST(HookMissing, TheMessageSaysWhatToLink) {
  try {
    allocgate::require_hook();
    FAIL() << "no exception";
  } catch (const allocgate::HookNotLinked& e) {
    EXPECT_NE(std::string(e.what()).find("Link allocgate::harness into the executable"), std::string::npos);
  }
}

}  // namespace
