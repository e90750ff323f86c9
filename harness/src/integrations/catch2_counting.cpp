// SPDX-License-Identifier: Apache-2.0
// The counting listener of allocgate::catch2: each run of a TEST_CASE (a
// leaf SECTION, a GENERATE value) named by its path, its figures from its
// body's start to its end (catch2_wrapped.cpp), the blocks it left live
// split into leaked and kept, the report ALLOCGATE_OUT names.

#include "integrations/catch2_counting.h"

#include <catch2/catch_test_case_info.hpp>
#include <catch2/reporters/catch_reporter_event_listener.hpp>
#include <catch2/reporters/catch_reporter_registrars.hpp>

#include <cstdlib>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <thread>

#include "allocgate/guards.h"
#include "counting/block_tracker.h"
#include "counting/reachability.h"
#include "escape.h"
#include "integrations/static_guard.h"
#include "integrations/test_report.h"
#include "integrations/test_run.h"

namespace allocgate::catch2::detail {
namespace {

// Sites (ALLOCGATE_SITES) and the leak check's failure are not read yet:
// docs/testing.md says so.
struct Options {
  std::string out;  // ALLOCGATE_OUT: the report
};

Options options_from_environment() {
  Options options;
  if (const char* out = std::getenv("ALLOCGATE_OUT")) options.out = out;
  return options;
}

// The state of the run of tests: one listener, one thread runs the bodies.
struct Counting {
  Options options;
  integrations::TestRun run;
  integrations::TestReport report{"catch2"};
  std::thread::id body_thread;
  std::optional<AllocationStats> stats;           // of the body that ended
  std::optional<integrations::TestRun::End> end;  // ... and its live blocks
  std::string path;                               // the run's name: the test case, then its sections
  int depth = 0;
  std::map<std::string, int> runs_of_path;  // in this test case: a generator's runs share a path
  bool started = false;
};

Counting& counting() {
  static Counting c;
  return c;
}

thread_local std::optional<PauseCounting> t_making_generator;

class CountingListener : public Catch::EventListenerBase {
 public:
  using EventListenerBase::EventListenerBase;

  void testRunStarting(const Catch::TestRunInfo&) override {
    const PauseCounting pause;
    Counting& c = counting();
    c.options = options_from_environment();
    allocgate::testing::detail::resolve_static_guards();
    allocgate::detail::prepare_reachability();
    allocgate::detail::clear_new_blocks();
    allocgate::detail::hold_freed_blocks();
    try {
      require_hook();
    } catch (const HookNotLinked& e) {
      std::cerr << e.what() << '\n';
      std::exit(2);
    }
    c.started = true;
  }

  void testCaseStarting(const Catch::TestCaseInfo&) override {
    const PauseCounting pause;
    counting().runs_of_path.clear();
  }

  void testCasePartialStarting(const Catch::TestCaseInfo& info, std::uint64_t) override {
    const PauseCounting pause;
    Counting& c = counting();
    c.path = info.name;
    c.depth = 0;
    c.stats.reset();
    c.end.reset();
  }

  void sectionStarting(const Catch::SectionInfo& section) override {
    const PauseCounting pause;
    Counting& c = counting();
    if (c.depth++ > 0) c.path += "/" + section.name;  // the first is the test case itself
  }

  void sectionEnded(const Catch::SectionStats&) override { --counting().depth; }

  void testCasePartialEnded(const Catch::TestCaseStats& stats, std::uint64_t) override {
    const PauseCounting pause;
    Counting& c = counting();
    if (!c.stats || !c.end) return;                   // no body ran (a run Catch2 skipped)
    if (stats.totals.assertions.skipped > 0) return;  // a skipped test is not a case
    std::string name = c.path;
    if (const int before = c.runs_of_path[c.path]++; before > 0) name += " #" + std::to_string(before + 1);
    integrations::TestFigures figures;
    figures.stats = *c.stats;
    figures.leaked_blocks = c.end->live.leaked.blocks;
    figures.leaked_bytes = c.end->live.leaked.bytes;
    figures.kept_blocks = c.end->live.kept.blocks;
    figures.kept_bytes = c.end->live.kept.bytes;
    figures.one_time_allocations = c.end->one_time.allocations;
    figures.one_time_bytes = c.end->one_time.bytes;
    figures.failed = stats.totals.assertions.failed > 0;
    c.report.add(std::move(name), figures, nullptr);
  }

  void testRunEnded(const Catch::TestRunStats&) override {
    const PauseCounting pause;
    const Counting& c = counting();
    if (c.options.out.empty()) return;
    try {
      c.report.write(c.options.out, {});
    } catch (const std::exception& e) {
      std::cerr << "allocgate: ALLOCGATE_OUT: " << files::terminal_text(e.what()) << '\n';
    }
  }
};

}  // namespace

void body_begins() {
  const PauseCounting pause;
  Counting& c = counting();
  if (!c.started) return;
  c.body_thread = std::this_thread::get_id();
  c.run.begin(false);
}

void body_ends() {
  Counting& c = counting();
  if (!c.run.counting() || std::this_thread::get_id() != c.body_thread) return;
  c.stats = c.run.stats();
  const PauseCounting pause;
  // The body's frames are gone: the stack is read from here up.
  c.end = c.run.end(__builtin_frame_address(0), true);
}

void generator_making_begins() { t_making_generator.emplace(); }
void generator_making_ends() { t_making_generator.reset(); }

}  // namespace allocgate::catch2::detail

CATCH_REGISTER_LISTENER(allocgate::catch2::detail::CountingListener)
