// SPDX-License-Identifier: Apache-2.0
// One run of one test, counted, whatever framework runs it: from the moment
// the framework hands the test its thread (GoogleTest's fixture built,
// Catch2's test case part entered) to its end, the figures, the blocks it
// left live split into leaked and kept (counting/block_tracker.h), what
// function-local statics it built, and, when asked, its stacks. The
// framework's adapter (gtest_counting.cpp) decides when a run begins and
// ends, what of it is the framework's own, and how a leak fails the test.
// Framework-free: prebuilt in allocgate::integration_support.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include "allocgate/scope.h"
#include "allocgate/sites.h"
#include "allocgate/stats.h"
#include "counting/block_tracker.h"
#include "counting/reachability.h"

namespace allocgate::integrations {

/// What function-local statics have allocated while being built, so far
/// (counting/thread_state.h): a test's share is what grew while it ran.
struct OneTime {
  std::uint64_t allocations = 0;
  std::uint64_t bytes = 0;
  OneTime operator-(const OneTime& before) const { return {allocations - before.allocations, bytes - before.bytes}; }
  static OneTime now();
};

/// Takes out of `stats` what was made between `from` and `to`, figures of
/// the same run (the framework's own work inside the test: a death
/// assertion's matcher, a thrown exception's failure record). A peak
/// reached inside the window is not the test's: the peak before it stays,
/// and one reached after it, while what the window made was still live, is
/// lowered by those bytes.
void take_out(AllocationStats& stats, const AllocationStats& from, const AllocationStats& to);

class TestRun {
 public:
  /// What a framework's run of tests does once, before its first test:
  /// checks that the hook is linked (HookNotLinked), learns the runtime's
  /// static guards, and prepares the leak check's marking (new blocks
  /// cleared, freed blocks no test allocated held back).
  static void prepare_suite();

  TestRun();
  ~TestRun();
  TestRun(const TestRun&) = delete;
  TestRun& operator=(const TestRun&) = delete;

  /// Begins counting on this thread, which must run paused (what beginning
  /// takes is not the test's). `with_stacks`: each allocation's stack is
  /// captured, for sites or a leak's lines (one capture for the whole run
  /// of tests, restarted here). `not_the_tests`: a block made for the test
  /// by the framework (GoogleTest's fixture), neither its allocation nor
  /// its free the test's.
  void begin(bool with_stacks, void* not_the_tests = nullptr);

  /// The roots before the test's body (reachability.h's RootSnapshot), its
  /// stack from `stack_floor` up, the floor end() is given, on a paused
  /// thread: the first call of a run takes them, so that a failure sweep's
  /// children inherit what their parent took before it forked them. A word
  /// of them that end() finds unchanged keeps no block of the run's.
  void take_roots(const void* stack_floor) noexcept {
    if (!roots_taken_) roots_taken_ = roots_before_.take(stack_floor);
  }

  bool counting() const { return scope_.has_value(); }
  /// The figures so far (counting() only).
  AllocationStats stats() const { return scope_->stats(); }
  /// The thread begin() ran on.
  std::thread::id thread() const { return thread_; }

  struct End {
    allocgate::detail::LiveSplit live;  ///< blocks of the run live at its end: leaked, and kept (still reachable)
    OneTime one_time;                   ///< what statics first built during the run allocated
    std::uint64_t other_thread_allocations = 0;  ///< made on threads other than begin()'s
  };
  /// Ends counting, on a paused thread. The live blocks are split by a
  /// marking of the program's memory, its stack read from `outer_frame` up
  /// (a frame above the framework's runner); `mark` false skips it (a
  /// warm-up run's leaks are told when it is counted).
  End end(const void* outer_frame, bool mark);

  /// The capture of the run that ended, when begun with stacks; null otherwise.
  const CaptureSites* capture() const { return capture_.get(); }
  /// The lines holding a leak's blocks, by bytes, from the last run's
  /// stacks (begun with stacks); and how many blocks have none.
  std::string leak_lines(const allocgate::detail::LiveTotals& leaked, std::string_view source_root) const;

 private:
  std::unique_ptr<CaptureSites> capture_;
  std::optional<ProcessAllocationScope> scope_;
  std::thread::id thread_;
  OneTime one_time_before_;
  std::uint64_t others_before_ = 0;  // the other threads' tally of allocations, at begin()
  allocgate::detail::RootSnapshot roots_before_;
  bool roots_taken_ = false;  // by take_roots, for this run
};

}  // namespace allocgate::integrations
