// SPDX-License-Identifier: Apache-2.0
// allocgate::catch2 for Catch2 v2: every run of a TEST_CASE (a leaf
// SECTION, a GENERATE value) counted, with no code: an object linked beside
// the translation unit that defines CATCH_CONFIG_MAIN or CATCH_CONFIG_RUNNER.
//
// Catch2 v2 is one header, its runner compiled into that translation unit,
// so none of its calls can be wrapped at link time (Catch2 v3's way,
// catch2_wrapped.cpp). A listener counts each run from its root section's
// start to its end instead, and each allocation's stack tells the test's
// from Catch2's (framework_code.h): the test's body is called by a test
// invoker's invoke(), and what it allocates through a function of Catch2's
// (an assertion, a section's tracker, a message) is Catch2's. So is
// everything of the runner's between the section's start and the body.
//
// The failure sweep (ALLOCGATE_FAIL_EACH; Catch2 v2 takes no flag of
// allocgate's) forks each run as its root section starts: Catch2's own
// allocations, told by their stacks, are no points and never fail.

#define CATCH_CONFIG_EXTERNAL_INTERFACES
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "allocgate/guards.h"
#include "allocgate/toolchain.h"
#include "counting/block_tracker.h"
#include "counting/reachability.h"
#include "escape.h"
#include "integrations/core/counted_run.h"
#include "integrations/core/failure_sweep.h"
#include "integrations/core/framework_code.h"
#include "integrations/core/report_output.h"
#include "integrations/core/run_names.h"
#include "integrations/core/run_options.h"
#include "integrations/core/static_guard.h"
#include "integrations/core/suite_report.h"
#include "integrations/core/suite_start.h"
#include "integrations/core/sweep_settings.h"

// A program whose tests are counted runs with block headers (counting/hook.cpp):
// a test's leaks are told by a tag in each block's header.
extern "C" const bool allocgate_gtest_linked = true;

// What the link asks for (-u, allocgateIntegrations.cmake), so that this file,
// with its listener's registration, is taken from the static library into
// every program that links it, through whatever library compiles the main.
extern "C" const bool allocgate_catch2_v2_listener = true;

// Catch2 v2's reporter interface has four more functions when the program
// is built with CATCH_CONFIG_ENABLE_BENCHMARKING, so this file must be built
// as the program's runner is. The runner defines this function only then.
extern double allocgate_catch2_benchmarking(double) __asm__("_ZN5Catch9Benchmark6Detail15normal_quantileEd")
    __attribute__((weak));

namespace allocgate::catch2_v2::detail {
namespace {

#ifdef CATCH_CONFIG_ENABLE_BENCHMARKING
constexpr bool kBenchmarking = true;
#else
constexpr bool kBenchmarking = false;
#endif

// Refuses, before Catch2 calls the listener, a runner built otherwise.
void require_the_same_reporter_interface() {
  const bool program = reinterpret_cast<const void*>(&allocgate_catch2_benchmarking) != nullptr;
  if (program == kBenchmarking) return;
  std::cerr << "allocgate: the program's Catch2 is built " << (program ? "with" : "without")
            << " CATCH_CONFIG_ENABLE_BENCHMARKING and allocgate::catch2 " << (program ? "without" : "with")
            << " it: define it for both (add_compile_definitions before find_package(allocgate), or "
               "target_compile_definitions(allocgate_catch2 PRIVATE CATCH_CONFIG_ENABLE_BENCHMARKING))\n";
  std::exit(2);
}

// The state of the run of tests: one listener; Catch2 runs one test at a
// time, on the thread that runs the tests.
struct Counting {
  integrations::TestOptions options;
  std::unique_ptr<integrations::FrameworkCode> framework;
  integrations::TestRun run;
  integrations::TestReport report{"catch2"};
  std::string path;  // the run's name: the test case, then its sections
  int depth = 0;
  // This listener's frame as the test case's own section began: Catch2's
  // runner calls it there and again as the section ends, after the body
  // and its exception are gone. The leak check reads the stack from the
  // higher of the two, never from the body's dead frames below.
  const void* floor = nullptr;
  const Catch::TestCaseInfo* test = nullptr;
  integrations::RunNames names;
  bool started = false;
  // The failure sweep: each run's, forked as its root section starts; in a
  // child, what the run's end tells the parent.
  std::optional<integrations::FailureSweep> sweep;
  std::optional<integrations::SweepResult> swept;  // the running run's, until its end
  bool bad_alloc_escaped = false;                  // in a child: std::bad_alloc reached the test's code
  bool signalled = false;                          // in a child: Catch2 reports a signal, then raises it again
  std::string first_failure;                       // in a child: the run's first failed assertion
  std::vector<std::string> sections;               // the run's, as written: a finding's -c filters
};

Counting& counting() {
  static Counting c;
  return c;
}

class CountingListener : public Catch::TestEventListenerBase {
 public:
  explicit CountingListener(const Catch::ReporterConfig& config) : TestEventListenerBase(config) {
    require_the_same_reporter_interface();
  }

#ifdef CATCH_CONFIG_ENABLE_BENCHMARKING
  // A BENCHMARK calls its body as many times as its timing decides: it runs
  // paused, as with Catch2 v3 (docs/testing.md).
  void benchmarkPreparing(const std::string& name) override {
    TestEventListenerBase::benchmarkPreparing(name);
    benchmarking_.emplace();
  }
  void benchmarkEnded(const Catch::BenchmarkStats<>& stats) override {
    benchmarking_.reset();
    TestEventListenerBase::benchmarkEnded(stats);
  }
  void benchmarkFailed(const std::string& error) override {
    benchmarking_.reset();
    TestEventListenerBase::benchmarkFailed(error);
  }
#endif

  void testRunStarting(const Catch::TestRunInfo& info) override {
    TestEventListenerBase::testRunStarting(info);
    const PauseCounting pause;
    Counting& c = counting();
    // Catch2 refuses a flag it does not know: allocgate's are read from the
    // environment only (run_options.h).
    const std::vector<std::string> arguments = integrations::process_arguments();
    c.framework = integrations::start_suite(c.options, {arguments.empty() ? std::string() : arguments.front()}, "Catch",
                                            "Catch2 v2", integrations::calls_catch2_test_bodies, [] {
                                              return counting().test != nullptr ? counting().test->name : std::string();
                                            });
    c.started = true;
  }

  void testCaseStarting(const Catch::TestCaseInfo& info) override {
    TestEventListenerBase::testCaseStarting(info);
    const PauseCounting pause;
    counting().names.test_case_begins(std::string(info.lineInfo.file) + ":" + std::to_string(info.lineInfo.line));
    counting().test = &info;
  }

  void sectionStarting(const Catch::SectionInfo& section) override {
    TestEventListenerBase::sectionStarting(section);
    Counting& c = counting();
    {
      const PauseCounting pause;
      if (c.depth++ > 0) {
        c.path += '/';  // appended apart: g++ 12 warns falsely of "/" + a temporary (-Wrestrict)
        c.path += integrations::run_name_part(section.name);
        c.sections.push_back(section.name);
        return;
      }
      c.path = integrations::run_name_part(section.name);  // the root section: the test case, run again for each leaf
      c.sections.clear();
      c.floor = __builtin_frame_address(0);
      if (!c.started) return;
      c.run.take_roots(c.floor);  // before a sweep forks: its children inherit them
      c.swept = integrations::begin_swept_run(c.options.sweep, c.sweep, c.path);
      c.run.begin(c.options.sites || c.options.fail_on_leak);
    }
    c.framework->tell_on_this_thread();
  }

  void sectionEnded(const Catch::SectionStats& stats) override {
    Counting& c = counting();
    if (--c.depth > 0 || !c.run.counting()) {
      const PauseCounting pause;
      TestEventListenerBase::sectionEnded(stats);
      return;
    }
    integrations::FrameworkCode::stop_telling();
    // The body is over: what follows is Catch2's, which a sweep's failures
    // must not reach (with ALLOCGATE_FAIL_REST, every later allocation).
    integrations::FailureSweep::stop_failing();
    // In a sweep's child, Catch2's signal handler ends the run, then raises
    // the signal again, which ends the child: crashed.
    if (c.signalled) return;
    const AllocationStats figures_now = c.run.stats();
    const PauseCounting pause;
    TestEventListenerBase::sectionEnded(stats);
    const integrations::TestRun::End end =
        c.run.end(std::max(c.floor, static_cast<const void*>(__builtin_frame_address(0)), std::less<>()), true);
    if (c.sweep && c.sweep->in_child()) {
      c.sweep->point_ended(stats.assertions.failed == 0, c.bad_alloc_escaped, end.live.leaked.blocks,
                           end.live.leaked.bytes, c.first_failure);
    }
    if (c.options.sweep.fail_at) integrations::FailureSweep::disarm();
    std::string name = c.names.next(c.path);
    integrations::TestFigures figures = integrations::figures_of(figures_now, end);
    figures.failed = stats.assertions.failed > 0;
    if (c.options.fail_on_leak && end.live.leaked.blocks != 0) {
      figures.failed = true;
      fail_on_leak(name, end.live.leaked);
    }
    if (c.swept) report_sweep(name, *c.swept);
    figures.sweep = std::move(c.swept);
    c.swept.reset();
    std::optional<SiteProfile> sites;
    if (c.options.sites && c.run.capture() != nullptr) sites = c.run.capture()->profile(c.options.source_root);
    c.report.add(std::move(name), figures, sites ? &*sites : nullptr);
  }

  // In a sweep's child: whether std::bad_alloc reached the test's code
  // (Catch2 reports it as unexpected, out of the body or out of an
  // assertion's expression, translated to its what()), and the run's first
  // other failure, what a swallowed failure became.
  bool assertionEnded(const Catch::AssertionStats& stats) override {
    const bool kept = TestEventListenerBase::assertionEnded(stats);
    Counting& c = counting();
    if (!c.sweep || !c.sweep->in_child() || stats.assertionResult.isOk()) return kept;
    const PauseCounting pause;
    const Catch::AssertionResult& result = stats.assertionResult;
    if (result.getResultType() == Catch::ResultWas::ThrewException && result.getMessage() == "std::bad_alloc") {
      c.bad_alloc_escaped = true;
    } else if (result.getResultType() == Catch::ResultWas::FatalErrorCondition) {
      c.signalled = true;
    } else if (c.first_failure.empty()) {
      const Catch::SourceLineInfo where = result.getSourceInfo();
      c.first_failure = std::string(where.file) + ":" + std::to_string(where.line) + ": ";
      if (result.hasExpression()) c.first_failure += result.getExpandedExpression();
      if (result.hasMessage()) {  // appended apart: g++ 12 warns falsely of " " + a temporary (-Wrestrict)
        c.first_failure += ' ';
        c.first_failure += result.getMessage();
      }
    }
    return kept;
  }

  void testRunEnded(const Catch::TestRunStats& stats) override {
    TestEventListenerBase::testRunEnded(stats);
    const PauseCounting pause;
    Counting& c = counting();
    // A sweep's child that crashed (Catch2 reports the signal, then ends
    // the run) writes no report: the parent's is the run's.
    if (!c.started || (c.sweep && c.sweep->in_child())) return;
    c.report.refuse(c.names.collision());
    integrations::write_report(c.report, c.options.executable, true);
  }

 private:
  std::optional<PauseCounting> benchmarking_;

  // Catch2's own failure, in the test case that leaked: its reporters tell
  // it, and the run of tests fails.
  static void fail_on_leak(const std::string& name, const allocgate::detail::LiveTotals& leaked) {
    const Counting& c = counting();
    const std::string message =
        integrations::leak_message(name, leaked, c.run.leak_lines(leaked, c.options.source_root));
    Catch::AssertionHandler handler("FAIL_CHECK", c.test->lineInfo, Catch::StringRef(),
                                    Catch::ResultDisposition::ContinueOnFailure);
    handler.handleMessage(Catch::ResultWas::ExplicitFailure, message);
    try {
      handler.complete();
    } catch (const Catch::TestFailureException&) {
      // Aborting after this failure (-a, -x N): Catch2 says so by throwing,
      // for the test's body to unwind. The body has returned; the runner
      // stops before the next test case all the same.
    }
  }

  // The parent's run has ended: its sweep's findings (those not marked on
  // purpose) fail it through Catch2, each with the command that runs it
  // alone, the point in the environment (Catch2 v2 refuses allocgate's flags).
  static void report_sweep(const std::string& name, integrations::SweepResult& swept) {
    const Counting& c = counting();
    using integrations::shell_word;
    std::string command = shell_word(c.options.executable) + " " + shell_word(c.test->name);
    for (const std::string& section : c.sections) command += " -c " + shell_word(section);
    const std::string rest = c.options.sweep.fail_rest ? " ALLOCGATE_FAIL_REST=1" : "";
    const std::string message = integrations::sweep_failure(
        name, swept, ::allocgate::kToolchain, "ALLOCGATE_FAIL_AT=", rest + " " + files::terminal_text(command));
    if (message.empty()) return;
    Catch::AssertionHandler handler("FAIL_CHECK", c.test->lineInfo, Catch::StringRef(),
                                    Catch::ResultDisposition::ContinueOnFailure);
    handler.handleMessage(Catch::ResultWas::ExplicitFailure, message);
    try {
      handler.complete();
    } catch (const Catch::TestFailureException&) {
      // Aborting after this failure (-a, -x N): as fail_on_leak's.
    }
  }
};

CATCH_REGISTER_LISTENER(CountingListener)

}  // namespace
}  // namespace allocgate::catch2_v2::detail
