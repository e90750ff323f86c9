// SPDX-License-Identifier: Apache-2.0
/// @file
/// GoogleTest assertions on the allocations a statement makes (link
/// allocgate::gtest). Each runs the statement once on the current thread and
/// compares what it allocated with a bound; the failure message gives the
/// statement, the bound, and the measured allocations and bytes.
///
///     EXPECT_NO_ALLOCATIONS(format_into(buf, t));
///     EXPECT_ALLOCATIONS_EQ(v.push_back(1), 1);
///     ASSERT_ALLOCATIONS_LE(report.run(lines), 45);
///     EXPECT_ALLOCATED_BYTES_LE(s = make_key(i), 32);
///
/// A statement containing a top-level comma needs parentheses around it.
/// The statement runs with call-site capture on, so a failure also lists the
/// top five sites of the allocations it saw.
/// Including this header also makes a ForbidAllocations guard that sees an
/// allocation fail the running test instead of aborting the process.
#pragma once

#include "allocgate/standard.h"  // C++17, said in one line

// Linking allocgate::gtest leaves the standard a project compiles its tests
// with as it is; these assertions need C++17.
#if __cplusplus < 201703L
#error "allocgate/gtest.h needs C++17: give this target target_compile_features(... PRIVATE cxx_std_17)"
#endif

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>

#include "allocgate/guards.h"
#include "allocgate/measure.h"
#include "allocgate/sites.h"
#include "allocgate/stats.h"
#include "allocgate/toolchain.h"

namespace allocgate::testing {

/// What an assertion bounds.
enum class Bound {
  allocations_exactly,
  allocations_at_most,
  bytes_at_most,
};

/// The predicate behind the macros; usable directly with EXPECT_TRUE.
::testing::AssertionResult check(const char* statement, const AllocationStats& measured, Bound bound,
                                 std::uint64_t expected);

/// A statement's figures and the stacks of its allocations.
/// Deletes the capture while paused, as it was made: the assertion's own
/// bookkeeping stays out of any scope around it.
struct PausedDelete {
  void operator()(CaptureSites* sites) const noexcept {
    PauseCounting pause;
    delete sites;
  }
};

struct MeasuredStatement {
  AllocationStats stats;
  std::unique_ptr<CaptureSites, PausedDelete> sites;
};

/// Runs fn() once, counting and capturing its allocations. The capture is
/// made while paused, so it is not in the figures.
template <class Fn>
MeasuredStatement measure_statement(Fn&& fn) {
  MeasuredStatement measured;
  {
    PauseCounting pause;
    measured.sites.reset(new CaptureSites());
  }
  measured.stats = measure(std::forward<Fn>(fn));
  measured.sites->stop();
  return measured;
}

/// As check(), and on failure also lists the top five sites.
::testing::AssertionResult check(const char* statement, const MeasuredStatement& measured, Bound bound,
                                 std::uint64_t expected);

/// The check behind EXPECT_ALLOCATIONS_WITHIN_BOUNDS: the statement against
/// the bound recorded for `name` under `toolchain` in the bounds file
/// ($ALLOCGATE_BOUNDS, else `default_file`), the same file and format the
/// gate reads. With ALLOCGATE_UPDATE=1 in the environment it records a missing
/// bound and tightens a higher one (never loosens), under a lock.
::testing::AssertionResult check_recorded(const char* statement, const MeasuredStatement& measured, const char* name,
                                          const char* toolchain, const char* default_file);

/// The check behind EXPECT_NO_LEAKS: the statement leaves nothing it
/// allocated still allocated (net bytes <= 0). Fails, saying so, when a free's
/// size was unknown: a leak then cannot be told, and is never guessed.
::testing::AssertionResult check_no_leaks(const char* statement, const MeasuredStatement& measured);

namespace detail {
/// Fails the running test; installed as the ForbidAllocations handler.
void fail_current_test(const ForbiddenAllocations& seen);
inline const bool forbidden_handler_installed = (set_forbidden_allocation_handler(&fail_current_test), true);
}  // namespace detail

}  // namespace allocgate::testing

#define ALLOCGATE_TEST_ALLOCATIONS_(statement, bound, expected, on_failure)                                            \
  GTEST_ASSERT_(::allocgate::testing::check(#statement, ::allocgate::testing::measure_statement([&] { statement; }),   \
                                            ::allocgate::testing::Bound::bound, static_cast<std::uint64_t>(expected)), \
                on_failure)

/// The statement makes exactly n allocations.
#define EXPECT_ALLOCATIONS_EQ(statement, n) \
  ALLOCGATE_TEST_ALLOCATIONS_(statement, allocations_exactly, n, GTEST_NONFATAL_FAILURE_)
#define ASSERT_ALLOCATIONS_EQ(statement, n) \
  ALLOCGATE_TEST_ALLOCATIONS_(statement, allocations_exactly, n, GTEST_FATAL_FAILURE_)
/// The statement makes at most n allocations.
#define EXPECT_ALLOCATIONS_LE(statement, n) \
  ALLOCGATE_TEST_ALLOCATIONS_(statement, allocations_at_most, n, GTEST_NONFATAL_FAILURE_)
#define ASSERT_ALLOCATIONS_LE(statement, n) \
  ALLOCGATE_TEST_ALLOCATIONS_(statement, allocations_at_most, n, GTEST_FATAL_FAILURE_)
/// The statement makes no allocation.
#define EXPECT_NO_ALLOCATIONS(statement) EXPECT_ALLOCATIONS_EQ(statement, 0)
#define ASSERT_NO_ALLOCATIONS(statement) ASSERT_ALLOCATIONS_EQ(statement, 0)
/// The statement allocates no more than the bound recorded for `name` (a
/// string) in the bounds file, for this translation unit's toolchain: the
/// file $ALLOCGATE_BOUNDS names, else ALLOCGATE_BOUNDS_FILE (which the CMake
/// function allocgate_test_bounds(target FILE path) defines).
/// Run the tests with ALLOCGATE_UPDATE=1 to record missing bounds.
#ifndef ALLOCGATE_BOUNDS_FILE
#define ALLOCGATE_BOUNDS_FILE ""
#endif
#define ALLOCGATE_TEST_RECORDED_(name, statement, on_failure)                                                       \
  GTEST_ASSERT_(                                                                                                    \
      ::allocgate::testing::check_recorded(#statement, ::allocgate::testing::measure_statement([&] { statement; }), \
                                           name, ::allocgate::kToolchain, ALLOCGATE_BOUNDS_FILE),                   \
      on_failure)
#define EXPECT_ALLOCATIONS_WITHIN_BOUNDS(name, statement) \
  ALLOCGATE_TEST_RECORDED_(name, statement, GTEST_NONFATAL_FAILURE_)
#define ASSERT_ALLOCATIONS_WITHIN_BOUNDS(name, statement) \
  ALLOCGATE_TEST_RECORDED_(name, statement, GTEST_FATAL_FAILURE_)

/// The statement frees everything it allocates: nothing it allocated is live
/// after it. A failure lists the sites by bytes, where the kept blocks come from.
#define ALLOCGATE_TEST_NO_LEAKS_(statement, on_failure)                                                              \
  GTEST_ASSERT_(                                                                                                     \
      ::allocgate::testing::check_no_leaks(#statement, ::allocgate::testing::measure_statement([&] { statement; })), \
      on_failure)
#define EXPECT_NO_LEAKS(statement) ALLOCGATE_TEST_NO_LEAKS_(statement, GTEST_NONFATAL_FAILURE_)
#define ASSERT_NO_LEAKS(statement) ALLOCGATE_TEST_NO_LEAKS_(statement, GTEST_FATAL_FAILURE_)

/// The statement's allocations request at most n bytes in total.
#define EXPECT_ALLOCATED_BYTES_LE(statement, n) \
  ALLOCGATE_TEST_ALLOCATIONS_(statement, bytes_at_most, n, GTEST_NONFATAL_FAILURE_)
#define ASSERT_ALLOCATED_BYTES_LE(statement, n) \
  ALLOCGATE_TEST_ALLOCATIONS_(statement, bytes_at_most, n, GTEST_FATAL_FAILURE_)
