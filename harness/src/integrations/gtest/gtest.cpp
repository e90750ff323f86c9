// SPDX-License-Identifier: Apache-2.0
// The predicate and failure handler behind allocgate/gtest.h.

#include "allocgate/gtest.h"

#include <sstream>

namespace allocgate::testing {
namespace {

const char* describe(Bound bound) {
  switch (bound) {
    case Bound::allocations_exactly:
      return "exactly";
    case Bound::allocations_at_most:
    case Bound::bytes_at_most:
      return "at most";
  }
  return "";
}

}  // namespace

::testing::AssertionResult check(const char* statement, const AllocationStats& measured, Bound bound,
                                 std::uint64_t expected) {
  PauseCounting pause;  // building the message is not the statement's work
  const bool bytes = bound == Bound::bytes_at_most;
  const std::uint64_t value = bytes ? measured.bytes_allocated : measured.allocations;
  const bool holds = bound == Bound::allocations_exactly ? value == expected : value <= expected;
  if (holds) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "`" << statement << "` should allocate " << describe(bound) << " " << expected
                                       << (bytes ? " bytes" : (expected == 1 ? " time" : " times")) << "\n"
                                       << "  measured: " << measured;
}

::testing::AssertionResult check(const char* statement, const MeasuredStatement& measured, Bound bound,
                                 std::uint64_t expected) {
  ::testing::AssertionResult result = check(statement, measured.stats, bound, expected);
  if (result || measured.stats.allocations == 0) return result;
  PauseCounting pause;
  return result << "\n  top sites:\n" << measured.sites->profile().top(5);
}

::testing::AssertionResult check_no_leaks(const char* statement, const MeasuredStatement& measured) {
  PauseCounting pause;
  const AllocationStats& s = measured.stats;
  if (!s.sizes_known()) {
    return ::testing::AssertionFailure() << "`" << statement
                                         << "`: whether it leaks cannot be told: " << s.unsized_deallocations
                                         << " free(s) of unknown size (link allocgate::block_headers, or compile "
                                            "with sized deallocation)\n  measured: "
                                         << s;
  }
  if (s.net_bytes <= 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "`" << statement << "` should leave nothing allocated; it left "
                                       << s.net_bytes << " bytes live\n  measured: " << s << "\n  sites by bytes:\n"
                                       << measured.sites->profile().top(5, true);
}

namespace detail {

void fail_current_test(const ForbiddenAllocations& seen) {
  PauseCounting pause;
  GTEST_MESSAGE_AT_(seen.guard_file, static_cast<int>(seen.guard_line),
                    (std::ostringstream()
                     << seen.count << " allocation(s) of " << seen.bytes
                     << " bytes in a scope that forbids allocation (the first of " << seen.first_size << " bytes)")
                        .str()
                        .c_str(),
                    ::testing::TestPartResult::kNonFatalFailure);
}

}  // namespace detail
}  // namespace allocgate::testing
