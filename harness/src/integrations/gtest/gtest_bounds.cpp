// SPDX-License-Identifier: Apache-2.0
// EXPECT_ALLOCATIONS_WITHIN_BOUNDS: a statement against the bounds file the
// gate reads, checked by recorded_check.cpp.

#include <string>

#include "allocgate/gtest.h"
#include "integrations/core/recorded_check.h"

namespace allocgate::testing {

::testing::AssertionResult check_recorded(const char* statement, const MeasuredStatement& measured, const char* name,
                                          const char* toolchain, const char* default_file) {
  const std::string failure =
      integrations::check_recorded_bound(statement, measured.stats, *measured.sites, name, toolchain, default_file);
  if (failure.empty()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << failure;
}

}  // namespace allocgate::testing
