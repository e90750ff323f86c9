// SPDX-License-Identifier: Apache-2.0
// Every test counted with no code: what linking allocgate::gtest (or
// allocgate::gtest_main) adds to a GoogleTest binary. The program's calls to
// InitGoogleTest and RUN_ALL_TESTS reach allocgate first (ld --wrap, see
// gtest_wrapped.cpp): the first takes allocgate's flags out of argv, the
// second appends the listener that counts each test and writes the report.
//
// What a test's figures hold: everything from the first line of its fixture's
// constructor (testing::Test's, which runs first) to the end of its
// destructor, on every thread; not the fixture object's own block, and not
// what GoogleTest's compiled functions allocate while the test runs (an
// assertion's recording and printing, SCOPED_TRACE's bookkeeping, the
// Message a failure streams into). docs/testing.md has the table.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>

#include "integrations/core/failure_sweep.h"

namespace allocgate::testing::detail {

struct CountingOptions {
  std::string out;            ///< --allocgate_out / ALLOCGATE_OUT: the report; empty: none
  bool sites = false;         ///< --allocgate_sites / ALLOCGATE_SITES: each test's sites in the report
  std::string source_root;    ///< --allocgate_source_root / ALLOCGATE_SOURCE_ROOT
  bool fail_on_leak = false;  ///< --allocgate_fail_on_leak / ALLOCGATE_FAIL_ON_LEAK: a leaking test fails
  std::string leak_sites_to;  ///< set in a rerun of a leaking test: where its lines go (gtest_leak_rerun.h)
  std::string leak_rerun_of;  ///< and that test's full name: the filter may select others beside it
  /// --allocgate_warm_up / ALLOCGATE_WARM_UP: every test runs once uncounted
  /// first (an iteration of GoogleTest's --gtest_repeat ahead of the
  /// others), as Go's AllocsPerRun warms up, so that what any first use
  /// allocates is in no test's figures.
  bool warm_up = false;
  /// --allocgate_fail_each[=sites|all|N] / ALLOCGATE_FAIL_EACH: every test
  /// swept under allocation failure (integrations/core/failure_sweep.h), with
  /// --allocgate_fail_rest, --allocgate_fail_seed and --allocgate_fail_timeout.
  std::optional<integrations::SweepOptions> sweep;
  /// --allocgate_fail_at=K / ALLOCGATE_FAIL_AT: each test run with its
  /// allocation K failing (a sweep's finding, run alone).
  std::optional<std::uint64_t> fail_at;
  /// --allocgate_fail_rest / ALLOCGATE_FAIL_REST: every allocation after the
  /// failing one fails too, as when memory runs out.
  bool fail_rest = false;
};

CountingOptions& counting_options();

/// Reads the environment, then takes allocgate's flags out of argv (a flag
/// overrides its variable). False, having said why on err, for a bad value.
bool take_counting_flags(int* argc, char** argv, std::ostream& err);

/// Whether InitGoogleTest reached allocgate's wrapper: false in a binary
/// linked without allocgate::gtest's link options (ld --wrap), where no test
/// would be counted.
bool init_reached_allocgate();

/// Appends the counting listener to GoogleTest's, once; reads the
/// environment first when InitGoogleTest was not given argv. `outer_frame`
/// is a frame that stays live while the tests run, above GoogleTest's
/// runner: the leak check reads the stack from there up (reachability.h).
void install_counting(const void* outer_frame);

/// Writes the report when one was asked for (atomically). False, having said
/// why on stderr, when it could not be written.
bool write_counted_report();

/// The fixture being built is a test's (the listener is waiting for it):
/// counting begins, with `fixture` as the fixture's own block.
void fixture_constructed(void* fixture);

/// A test's fixture is about to be built, before any of the test's code:
/// where a failure sweep forks its children, and --allocgate_fail_at arms.
void test_about_to_begin();

/// One of GoogleTest's statement macros begins (it calls
/// testing::internal::AlwaysTrue() first): the figures are noted, so that a
/// death assertion can take out the matcher it builds next.
void statement_begins();

/// A death assertion begins: the child's allocations are the child's, and
/// what GoogleTest does here for it (the matcher made from its regex since
/// statement_begins, and virtual calls not told apart from the test's code)
/// is not counted: the rest of the test runs paused.
void death_test_started();

}  // namespace allocgate::testing::detail
