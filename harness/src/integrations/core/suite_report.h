// SPDX-License-Identifier: Apache-2.0
// The report of a counted test suite, whatever framework ran it: a case per
// test run, in Google Benchmark's JSON layout (the report readers take both).
// Framework-free and prebuilt: the integrations compiled in a project's own
// build (see cmake/allocgateIntegrations.cmake) hand it plain figures, so no
// JSON library's headers reach that build.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "allocgate/sites.h"
#include "allocgate/stats.h"
#include "integrations/core/failure_sweep.h"

namespace allocgate::integrations {

/// What one run of one test measured.
struct TestFigures {
  AllocationStats stats;
  std::uint64_t leaked_blocks = 0;
  std::uint64_t leaked_bytes = 0;
  // Blocks allocated during the test, live at its end and still reachable
  // (a cache, a registry): not a leak, shown apart so that growth shows.
  std::uint64_t kept_blocks = 0;
  std::uint64_t kept_bytes = 0;
  // What function-local statics first built during the test allocated: not
  // in `stats`, as its cost falls on whichever test runs first.
  std::uint64_t one_time_allocations = 0;
  std::uint64_t one_time_bytes = 0;
  // Of stats.allocations, those made on another thread than the test's.
  std::uint64_t other_thread_allocations = 0;
  bool failed = false;
  std::optional<SweepResult> sweep;  // when the run swept it under allocation failure
};

class TestReport {
 public:
  /// `framework`: what ran the tests, as the report's context names it
  /// (allocgate_tests: "googletest", "catch2").
  explicit TestReport(std::string framework = "googletest");
  ~TestReport();
  TestReport(const TestReport&) = delete;
  TestReport& operator=(const TestReport&) = delete;

  /// Appends a run of `name` (a test run again, as --gtest_repeat does, is
  /// a repetition of the same case). `sites`, when given, is summarized now.
  void add(std::string name, const TestFigures& figures, const SiteProfile* sites);

  /// The run is shard `index` (from 0) of `count`, as the framework says
  /// (Catch2's --shard-index and --shard-count): in the report, so that
  /// `allocgate merge` refuses a set with one missing.
  void set_shard(unsigned index, unsigned count);

  /// The report is not to be written, for the one-line reason `why`, which
  /// write() throws (empty: no refusal).
  void refuse(std::string why) { refusal_ = std::move(why); }

  /// Writes the report to `path` atomically; `executable` is argv[0]. The
  /// shard (set_shard, else GTEST_TOTAL_SHARDS and GTEST_SHARD_INDEX) and the
  /// commit are read here. Throws std::exception when it cannot be written.
  void write(const std::string& path, const std::string& executable) const;

 private:
  struct Runs;
  std::unique_ptr<Runs> runs_;
  std::string framework_;
  std::string shard_;  // "I/N", counted from 1, as the report says it
  std::string refusal_;
};

}  // namespace allocgate::integrations
