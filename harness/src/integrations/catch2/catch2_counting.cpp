// SPDX-License-Identifier: Apache-2.0
// The counting listener of allocgate::catch2: each run of a TEST_CASE (a
// leaf SECTION, a GENERATE value) named by its path, its figures from its
// body's start to its end (catch2_wrapped.cpp), the blocks it left live
// split into leaked and kept, the report ALLOCGATE_OUT names.

#include "integrations/catch2/catch2_counting.h"

#include <catch2/benchmark/detail/catch_benchmark_stats.hpp>
#include <catch2/catch_assertion_result.hpp>
#include <catch2/catch_test_case_info.hpp>
#include <catch2/interfaces/catch_interfaces_config.hpp>
#include <catch2/internal/catch_assertion_handler.hpp>
#include <catch2/reporters/catch_reporter_event_listener.hpp>
#include <catch2/reporters/catch_reporter_registrars.hpp>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
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
#include "integrations/core/sweep_settings.h"

namespace allocgate::catch2::detail {

void judge();  // a run's live blocks split and a leak failed, once its body has ended

namespace {

// The state of the run of tests: one listener, one thread runs the bodies.
struct Counting {
  integrations::TestOptions options;
  // Catch2's code compiled into the test's own (BENCHMARK's templates, which
  // time the clock before the benchmark is announced), told by the stack;
  // null in a program without symbols, where only the wrapped calls tell.
  std::unique_ptr<integrations::FrameworkCode> framework;
  bool options_read = false;  // from the command line (take_flags), or else the environment at the run's start
  integrations::TestRun run;
  integrations::TestReport report{"catch2"};
  std::thread::id body_thread;
  std::optional<AllocationStats> stats;           // of the body that ended
  std::optional<integrations::TestRun::End> end;  // ... and its live blocks
  const void* floor = nullptr;                    // the lowest frame live as the body began
  // A body that threw is judged once Catch2 has handled the exception (the
  // test case's own section ends): until then the exception holds blocks
  // in memory the marking does not read. Its thread runs paused meanwhile.
  std::optional<PauseCounting> judging_later;
  std::string path;                           // the run's name: the test case, then its sections
  const Catch::TestCaseInfo* test = nullptr;  // running
  int depth = 0;
  integrations::RunNames names;
  bool started = false;
  // The failure sweep (--allocgate-fail-each): each run's, forked as its
  // body begins; in a child, what the run's end tells the parent.
  std::optional<integrations::FailureSweep> sweep;
  std::optional<integrations::SweepResult> swept;  // the running run's, until its end
  bool sweep_failed = false;                       // the sweep's findings failed the run (not the test itself)
  bool bad_alloc_escaped = false;                  // in a child: std::bad_alloc came out of the body
  std::string first_failure;                       // in a child: the run's first failed assertion
  std::vector<std::string> sections;               // the run's, as written: a finding's -c filters
  std::string name;                                // a swept run's name, taken as it is judged
};

Counting& counting() {
  static Counting c;
  return c;
}

// Before the first test: the report's path, refused in one line when it
// cannot be written (report_output.h).
void open_report_or_exit(const integrations::TestOptions& options) {
  std::string error;
  const auto running = [] { return counting().test != nullptr ? counting().test->name : std::string(); };
  if (!integrations::open_report(options.out, options.executable, running, error)) {
    std::cerr << error << '\n';
    std::exit(2);
  }
}

thread_local std::optional<PauseCounting> t_making_generator;
thread_local std::optional<PauseCounting> t_benchmarking;

// The run's name (run_names.h). Taken once per run.
std::string run_name() { return counting().names.next(counting().path); }

class CountingListener : public Catch::EventListenerBase {
 public:
  using EventListenerBase::EventListenerBase;

  void testRunStarting(const Catch::TestRunInfo&) override {
    const PauseCounting pause;
    Counting& c = counting();
    if (!c.options_read) {
      std::string error;
      if (!integrations::read_test_options(c.options, {}, "--allocgate-", error)) {
        std::cerr << files::terminal_text(error) << '\n';
        std::exit(2);
      }
      c.options_read = true;
    }
    try {
      // The wrapped calls tell Catch2's work inlined into a test apart, but
      // for BENCHMARK's: the debug information is read for a program with one.
      c.framework = std::make_unique<integrations::FrameworkCode>(
          "Catch", integrations::calls_catch2_test_bodies,
          [](std::string_view mangled) { return mangled.find("5Catch9Benchmark") != std::string_view::npos; },
          integrations::cache_directory(c.options.out));
    } catch (const std::exception& e) {
      std::cerr << "allocgate: " << files::terminal_text(e.what()) << "; a BENCHMARK's warm-up is counted\n";
    }
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
    open_report_or_exit(c.options);
    if (c.options.sweep.sweep) std::cerr << c.options.sweep.announcement << '\n';
    // A shard of a run (--shard-count, --shard-index) says so in its report.
    c.report.set_shard(m_config->shardIndex(), m_config->shardCount());
    c.started = true;
  }

  void testCaseStarting(const Catch::TestCaseInfo& info) override {
    const PauseCounting pause;
    counting().names.test_case_begins(std::string(info.lineInfo.file) + ":" + std::to_string(info.lineInfo.line));
  }

  void testCasePartialStarting(const Catch::TestCaseInfo& info, std::uint64_t) override {
    const PauseCounting pause;
    Counting& c = counting();
    c.path = integrations::run_name_part(info.name);
    c.test = &info;
    c.depth = 0;
    c.sections.clear();
    c.stats.reset();
    c.end.reset();
  }

  void sectionStarting(const Catch::SectionInfo& section) override {
    const PauseCounting pause;
    Counting& c = counting();
    if (c.depth++ > 0) {  // the first is the test case itself
      c.path += '/';      // appended apart: g++ 12 warns falsely of "/" + a temporary (-Wrestrict)
      c.path += integrations::run_name_part(section.name);
      c.sections.push_back(section.name);
    }
  }

  void sectionEnded(const Catch::SectionStats&) override {
    Counting& c = counting();
    if (--c.depth > 0 || !c.judging_later) return;
    // The body's frames and the ones that called it are gone: the stack is
    // read from the higher of this frame and the body's floor.
    c.floor = std::max(c.floor, static_cast<const void*>(__builtin_frame_address(0)), std::less<>());
    judge();
  }

  // A BENCHMARK calls its body as many times as its timing decides: what it
  // allocates would differ from run to run. It runs paused, from its
  // preparation to its end; docs/testing.md says why it has no allocs/op.
  void benchmarkPreparing(Catch::StringRef) override { t_benchmarking.emplace(); }
  void benchmarkEnded(const Catch::BenchmarkStats<>&) override { t_benchmarking.reset(); }
  void benchmarkFailed(Catch::StringRef) override { t_benchmarking.reset(); }

  // In a sweep's child: whether std::bad_alloc reached the test's code
  // (Catch2 reports it as unexpected, out of the body or out of an
  // assertion's expression, translated to its what()), and the run's first
  // other failure, what a swallowed failure became.
  void assertionEnded(const Catch::AssertionStats& stats) override {
    Counting& c = counting();
    if (!c.sweep || !c.sweep->in_child() || stats.assertionResult.isOk()) return;
    const PauseCounting pause;
    const Catch::AssertionResult& result = stats.assertionResult;
    if (result.getResultType() == Catch::ResultWas::ThrewException && result.getMessage() == "std::bad_alloc") {
      c.bad_alloc_escaped = true;
      return;
    }
    if (!c.first_failure.empty()) return;
    const Catch::SourceLineInfo where = result.getSourceInfo();
    c.first_failure = std::string(where.file) + ":" + std::to_string(where.line) + ": " +
                      (result.hasExpression() ? result.getExpandedExpression() : std::string()) +
                      (result.hasMessage() ? " " + std::string(result.getMessage()) : std::string());
  }

  void testCasePartialEnded(const Catch::TestCaseStats& stats, std::uint64_t) override {
    Counting& c = counting();
    if (c.judging_later) judge();  // no section event came after the body threw
    const PauseCounting pause;
    if (c.sweep && c.sweep->in_child() && c.end) {
      const allocgate::detail::LiveTotals& leaked = c.end->live.leaked;
      c.sweep->point_ended(stats.totals.assertions.failed == 0, c.bad_alloc_escaped, leaked.blocks, leaked.bytes,
                           c.first_failure);
    }
    if (c.options.sweep.fail_at) integrations::FailureSweep::disarm();
    std::optional<integrations::SweepResult> swept = std::move(c.swept);
    c.swept.reset();
    const bool sweep_failed = std::exchange(c.sweep_failed, false);
    std::string name = std::exchange(c.name, {});
    if (!c.stats || !c.end) return;                   // no body ran (a run Catch2 skipped)
    if (stats.totals.assertions.skipped > 0) return;  // a skipped test is not a case
    integrations::TestFigures figures = integrations::figures_of(*c.stats, *c.end);
    // Its own failures: the sweep's findings fail it too, but its figures
    // are its run's with no failure, and the gate records them.
    figures.failed = stats.totals.assertions.failed > (sweep_failed ? 1u : 0u);
    figures.sweep = std::move(swept);
    std::optional<SiteProfile> sites;
    if (c.options.sites && c.run.capture() != nullptr) sites = c.run.capture()->profile(c.options.source_root);
    c.report.add(name.empty() ? run_name() : std::move(name), figures, sites ? &*sites : nullptr);
  }

  void testRunEnded(const Catch::TestRunStats&) override {
    const PauseCounting pause;
    Counting& c = counting();
    // A sweep's child that crashed (Catch2 reports the signal, then ends
    // the run) writes no report: the parent's is the run's.
    if (!c.started || (c.sweep && c.sweep->in_child())) return;
    c.report.refuse(c.names.collision());
    integrations::write_report(c.report, c.options.executable, true);
  }
};

}  // namespace

bool take_flags(int argc, const char* const* argv, std::vector<const char*>& kept, std::string& error) {
  const PauseCounting pause;
  Counting& c = counting();
  const std::vector<std::string> args(argv, argv + argc);
  if (!integrations::read_test_options(c.options, args, "--allocgate-", error)) return false;
  c.options_read = true;
  for (int i = 0; i < argc; ++i) {
    if (i == 0 || std::string_view(argv[i]).substr(0, 12) != "--allocgate-") kept.push_back(argv[i]);
  }
  return true;
}

// The parent's run has ended: its sweep's findings (those not marked on
// purpose) fail it through Catch2, each with the command that runs it alone.
void report_sweep(Counting& c) {
  if (!c.swept || c.test == nullptr) return;
  c.name = run_name();  // the report's name for it, which the bounds file knows it by
  using integrations::shell_word;
  std::string reproduce = shell_word(c.options.executable) + " " + shell_word(c.test->name);
  for (const std::string& section : c.sections) reproduce += " -c " + shell_word(section);
  if (c.options.sweep.fail_rest) reproduce += " --allocgate-fail-rest";
  std::string message = integrations::sweep_failure(c.name, *c.swept, ::allocgate::kToolchain,
                                                    files::terminal_text(reproduce) + " --allocgate-fail-at=");
  if (message.empty()) return;
  Catch::AssertionHandler handler("FAIL_CHECK", c.test->lineInfo, Catch::StringRef(),
                                  Catch::ResultDisposition::ContinueOnFailure);
  handler.handleMessage(Catch::ResultWas::ExplicitFailure, std::move(message));
  handler.complete();
  c.sweep_failed = true;
}

void body_begins(const void* floor) {
  const PauseCounting pause;
  Counting& c = counting();
  if (!c.started) return;
  c.run.take_roots(floor);  // before a sweep forks: its children inherit them
  c.swept = integrations::begin_swept_run(c.options.sweep, c.sweep, c.path);
  c.body_thread = std::this_thread::get_id();
  c.floor = floor;
  c.run.begin(c.options.sites || c.options.fail_on_leak);
  if (c.framework) c.framework->tell_on_this_thread();
}

void body_ends(bool thrown) {
  Counting& c = counting();
  if (!c.run.counting() || std::this_thread::get_id() != c.body_thread) return;
  integrations::FrameworkCode::stop_telling();
  // The body is over: what follows is Catch2's, which a sweep's failures
  // must not reach (with --allocgate-fail-rest, every later allocation).
  integrations::FailureSweep::stop_failing();
  c.stats = c.run.stats();
  if (thrown) {
    c.judging_later.emplace();
    return;
  }
  judge();
}

void judge() {
  Counting& c = counting();
  const PauseCounting pause;
  c.judging_later.reset();
  c.end = c.run.end(c.floor, true);
  const allocgate::detail::LiveTotals& leaked = c.end->live.leaked;
  if (c.options.fail_on_leak && leaked.blocks != 0 && c.test != nullptr) {
    // Catch2's own failure, in the test case still running: its reporters
    // tell it, and the run of tests fails.
    Catch::AssertionHandler handler("FAIL_CHECK", c.test->lineInfo, Catch::StringRef(),
                                    Catch::ResultDisposition::ContinueOnFailure);
    handler.handleMessage(Catch::ResultWas::ExplicitFailure,
                          integrations::leak_message(c.path, leaked, c.run.leak_lines(leaked, c.options.source_root)));
    handler.complete();
  }
  report_sweep(c);
}

void generator_making_begins() { t_making_generator.emplace(); }
void generator_making_ends() { t_making_generator.reset(); }

}  // namespace allocgate::catch2::detail

CATCH_REGISTER_LISTENER(allocgate::catch2::detail::CountingListener)
