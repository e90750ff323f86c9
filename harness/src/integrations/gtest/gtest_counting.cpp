// SPDX-License-Identifier: Apache-2.0
// The counting listener: a test's figures from its fixture's constructor to
// its destructor, its leaks by block, the report --allocgate_out writes.

#include "integrations/gtest/gtest_counting.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "allocgate/guards.h"
#include "allocgate/scope.h"
#include "allocgate/sites.h"
#include "allocgate/toolchain.h"
#include "atomic_write.h"
#include "counting/block_tracker.h"
#include "counting/reachability.h"
#include "escape.h"
#include "input_error.h"
#include "integrations/core/counted_run.h"
#include "integrations/core/flag_value.h"
#include "integrations/core/framework_code.h"
#include "integrations/core/report_output.h"
#include "integrations/core/run_options.h"
#include "integrations/core/static_guard.h"
#include "integrations/core/suite_report.h"
#include "integrations/core/sweep_settings.h"
#include "integrations/gtest/gtest_catch.h"
#include "integrations/gtest/gtest_leak_rerun.h"

// GoogleTest 1.12 reads its flags with GTEST_FLAG_GET; 1.11 names them with
// GTEST_FLAG alone, its death tests' own in testing::internal.
#ifdef GTEST_FLAG_GET
#define ALLOCGATE_GTEST_FLAG(name) GTEST_FLAG_GET(name)
#define ALLOCGATE_GTEST_DEATH_TEST_FLAG(name) GTEST_FLAG_GET(name)
#define ALLOCGATE_GTEST_SET_FLAG(name, value) GTEST_FLAG_SET(name, value)
#else
#define ALLOCGATE_GTEST_SET_FLAG(name, value) (::testing::GTEST_FLAG(name) = (value))
#define ALLOCGATE_GTEST_FLAG(name) ::testing::GTEST_FLAG(name)
#define ALLOCGATE_GTEST_DEATH_TEST_FLAG(name) ::testing::internal::GTEST_FLAG(name)
#endif

namespace allocgate::testing::detail {
namespace {

using integrations::flag_value;
using integrations::OneTime;
using integrations::switch_value;
using integrations::take_out;

bool environment_switch(const char* name, bool& target, std::ostream& err) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return true;
  const std::optional<bool> on = switch_value(value);
  if (!on) {
    err << "allocgate: " << name << " takes 1 or 0 (true or false), not '" << files::terminal_text(value) << "'\n";
    return false;
  }
  target = *on;
  return true;
}

bool g_flags_taken = false;

// The failure sweep's settings (sweep_settings.h), spelled --allocgate_fail_*.
integrations::SweepSettings g_sweep_settings{"--allocgate_fail_"};

// After the variables and flags: what the sweep was asked, said once.
void settle_sweep(std::ostream& err) {
  CountingOptions& options = counting_options();
  const integrations::SweepRequest request = g_sweep_settings.settle(options.source_root);
  if (request.sweep) err << request.announcement << '\n';
  options.sweep = request.sweep;
  options.fail_at = request.fail_at;
  options.fail_rest = request.fail_rest;
}

// A frame above GoogleTest's runner, live while every test runs
// (install_counting): the leak check reads the stack from it up.
const void* g_outer_frame = nullptr;

// The counted runs, in the order they ran, and the tests that ran uncounted.
struct Counted {
  integrations::TestReport report;
  std::size_t uncounted = 0;  // tests whose fixture was not seen being built
  std::string first_uncounted;
};

Counted& counted() {
  static Counted c;
  return c;
}

std::string full_name(const ::testing::TestInfo& info) {
  return std::string(info.test_suite_name()) + "." + info.name();
}

// The test running, for a run that ends inside one (ended_before_the_report).
std::atomic<const ::testing::TestInfo*> g_running_test{nullptr};

// Its name, for the line said when the run ends inside it (report_output.h).
std::string running_test_name() {
  const ::testing::TestInfo* test = g_running_test.load();
  if (test == nullptr) return {};
  return std::string(test->test_suite_name()) + '.' + test->name();
}

// Between OnTestStart and OnTestEnd of each test that runs. Appended after
// every other listener: its OnTestStart runs last and its OnTestEnd first,
// so no other listener's work falls inside a test's figures, and a leak it
// reports is a failure the printers still see.
std::string executable();

class CountingListener : public ::testing::EmptyTestEventListener {
 public:
  void OnTestIterationStart(const ::testing::UnitTest&, int iteration) override {
    warming_up_ = counting_options().warm_up && iteration == 0;
  }

  void OnTestStart(const ::testing::TestInfo& info) override {
    g_running_test.store(&info, std::memory_order_relaxed);
    waiting_.store(true, std::memory_order_relaxed);
  }

  // Before the fixture: a sweep's children fork here, each to run the test
  // with one of its allocations failing; the parent goes on to run it.
  void about_to_begin() {
    if (!waiting_.load(std::memory_order_relaxed) || warming_up_) return;
    const CountingOptions& options = counting_options();
    // GoogleTest's own report of what the body threw (a std::bad_alloc, or
    // any other exception before the failing point) is no point and must
    // not fail: its catch is told by its code's place, found once here
    // (before any child forks).
    if ((options.fail_at || options.sweep) && !gtest_code_) {
      try {
        gtest_code_.emplace(
            "testing",
            [](std::string_view mangled) {
              return mangled.find("HandleExceptionsInMethodIfSupported") != std::string_view::npos;
            },
            [](std::string_view) { return false; });
      } catch (const std::exception& e) {
        const PauseCounting pause;
        std::cerr << "allocgate: the failure sweep: " << files::terminal_text(e.what()) << '\n';
        std::exit(1);
      }
    }
    if (options.fail_at) integrations::FailureSweep::arm_here(*options.fail_at, options.fail_rest);
    if (!options.sweep || !options.leak_sites_to.empty() ||
        !ALLOCGATE_GTEST_DEATH_TEST_FLAG(internal_run_death_test).empty()) {
      return;
    }
    run_.take_roots(g_outer_frame);  // before the children fork: they inherit them
    if (!sweep_) sweep_.emplace(*options.sweep);
    if (sweep_->in_child()) return;
    const ::testing::TestInfo* test = g_running_test.load(std::memory_order_relaxed);
    if (test == nullptr) return;
    try {
      swept_ = sweep_->sweep_test(full_name(*test));
    } catch (const std::exception& e) {
      const PauseCounting pause;
      std::cerr << "allocgate: the failure sweep stopped: " << files::terminal_text(e.what()) << '\n';
      std::exit(1);
    }
  }

  void begin(void* fixture) {
    if (!waiting_.exchange(false, std::memory_order_relaxed)) return;
    const PauseCounting pause;  // what counting takes is not the test's
    const CountingOptions& options = counting_options();
    // The leak check alone captures nothing: a leaking test is run again
    // to name its lines (gtest_leak_rerun.h). GoogleTest's factory made the
    // fixture: neither it nor its free is the test's.
    run_.begin(options.sites || !options.leak_sites_to.empty(), fixture);
    run_.take_roots(g_outer_frame);  // unless a sweep took them before it forked
  }

  // The figures as a statement of GoogleTest's macros begins
  // (statement_begins), on the test's thread while it counts.
  void statement_begins() {
    if (run_.counting() && !paused_to_end_ && std::this_thread::get_id() == run_.thread()) {
      before_statement_ = run_.stats();
      integrations::FailureSweep::mark();
    }
  }

  // Pauses the test's thread until the test ends (death_test_started). A
  // death assertion on another thread is counted: its pause could not be
  // ended on the thread that made it. What the assertion made since its
  // statement began, the matcher GoogleTest builds from its regex, is
  // GoogleTest's: kept to take out of the figures.
  void pause_to_the_end() {
    if (!run_.counting() || paused_to_end_ || std::this_thread::get_id() != run_.thread()) return;
    if (before_statement_) {
      death_matcher_ = {*before_statement_, run_.stats()};
      integrations::FailureSweep::framework_since_mark();  // nor is the matcher a failure point
    }
    paused_to_end_.emplace();
  }

  // A catch on the test's thread while it counts: the figures then, and
  // what it caught.
  void exception_caught(const void* object, const void* where) noexcept {
    // GoogleTest caught what the test's body threw: what it allocates to
    // report it is its own, which a sweep's failures must not reach.
    if (gtest_code_ && gtest_code_->contains(where)) {
      integrations::FailureSweep::stop_failing();
    }
    if (run_.counting() && !paused_to_end_ && std::this_thread::get_id() == run_.thread()) {
      caught_ = run_.stats();
      caught_object_ = object;
    }
  }

  // Whether the exception being handled is the one the last catch noted:
  // GoogleTest's own catch, not an earlier one of the test's whose handler
  // is over. libstdc++'s and libc++'s exception_ptr are the thrown object's
  // address.
  bool handling_the_noted_exception() const noexcept {
    static_assert(sizeof(std::exception_ptr) == sizeof(void*));
    const std::exception_ptr current = std::current_exception();
    const void* object = nullptr;
    std::memcpy(&object, static_cast<const void*>(&current), sizeof object);
    return object != nullptr && object == caught_object_;
  }

  // GoogleTest's record of an exception the test threw (no file, its
  // message as FormatCxxExceptionMessage words it): what was allocated since
  // GoogleTest's catch is GoogleTest's.
  void OnTestPartResult(const ::testing::TestPartResult& result) override {
    if (!run_.counting() || !caught_ || paused_to_end_ || std::this_thread::get_id() != run_.thread() ||
        result.file_name() != nullptr || !handling_the_noted_exception()) {
      return;
    }
    const std::string_view message = result.message();
    if (message.rfind("C++ exception with description \"", 0) != 0 && message.rfind("Unknown C++ exception", 0) != 0) {
      return;
    }
    const AllocationStats now = run_.stats();
    const PauseCounting pause;
    exception_records_.emplace_back(*caught_, now);
    caught_.reset();
  }

  void OnTestEnd(const ::testing::TestInfo& info) override {
    g_running_test.store(nullptr, std::memory_order_relaxed);
    waiting_.store(false, std::memory_order_relaxed);
    paused_to_end_.reset();
    before_statement_.reset();
    if (!run_.counting()) {
      if (!info.result()->Skipped()) {
        ++counted().uncounted;
        if (counted().first_uncounted.empty()) counted().first_uncounted = full_name(info);
      }
      return;
    }
    AllocationStats stats = run_.stats();
    if (death_matcher_) {
      take_out(stats, death_matcher_->first, death_matcher_->second);
      death_matcher_.reset();
    }
    // The failure records of thrown exceptions: out of the figures, and,
    // as they stay with GoogleTest's result, out of what the test kept.
    std::uint64_t record_blocks = 0;
    std::uint64_t record_bytes = 0;
    for (const auto& [from, to] : exception_records_) {
      take_out(stats, from, to);
      record_blocks += (to.allocations - from.allocations) -
                       std::min(to.allocations - from.allocations, to.deallocations - from.deallocations);
      record_bytes += static_cast<std::uint64_t>(std::max<std::int64_t>(to.net_bytes - from.net_bytes, 0));
    }
    exception_records_.clear();
    caught_.reset();
    const PauseCounting pause;
    // A warm-up run's leaks are told when the test is counted: no marking for it.
    const integrations::TestRun::End ended = run_.end(g_outer_frame, !warming_up_);
    const allocgate::detail::LiveSplit& live = ended.live;
    const allocgate::detail::LiveTotals& leaked = live.leaked;
    if (sweep_ && sweep_->in_child()) {
      const ::testing::TestResult& result = *info.result();
      std::string first_failure;
      for (int i = 0; i < result.total_part_count() && first_failure.empty(); ++i) {
        const ::testing::TestPartResult& part = result.GetTestPartResult(i);
        if (part.failed()) {
          first_failure = std::string(part.file_name() != nullptr ? part.file_name() : "unknown file") + ":" +
                          std::to_string(part.line_number()) + ": " + part.message();
        }
      }
      sweep_->point_ended(result.Passed(), bad_alloc_escaped(info), leaked.blocks, leaked.bytes, first_failure);
    }
    if (counting_options().fail_at) integrations::FailureSweep::disarm();
    const OneTime& one_time = ended.one_time;
    const CountingOptions& options = counting_options();
    if (warming_up_) {  // what the test allocates run first
      if (!info.result()->Skipped()) first_runs_[full_name(info)] = OneTime{stats.allocations, stats.bytes_allocated};
      return;
    }
    if (leaked.blocks != 0 && !info.result()->Skipped()) {
      if (!options.leak_sites_to.empty()) {
        if (full_name(info) == options.leak_rerun_of) write_leak_sites(options.leak_sites_to, leaked);
      } else if (options.fail_on_leak) {
        report_leak(info, leaked);
      }
    }
    std::optional<integrations::SweepResult> swept = std::move(swept_);
    swept_.reset();
    // Whether the test failed by itself: a sweep's findings fail it too, but
    // its figures are its run's with no failure, and the gate records them.
    const bool failed = info.result()->Failed();
    if (swept && !info.result()->Skipped()) report_sweep(info, *swept);
    if (!info.result()->Skipped()) {  // a skipped test is not a case
      integrations::TestFigures figures;
      figures.stats = stats;
      figures.leaked_blocks = leaked.blocks;
      figures.leaked_bytes = leaked.bytes;
      figures.failed = failed;
      figures.kept_blocks = live.kept.blocks - std::min(live.kept.blocks, record_blocks);
      figures.kept_bytes = live.kept.bytes - std::min(live.kept.bytes, record_bytes);
      figures.one_time_allocations = one_time.allocations;
      figures.one_time_bytes = one_time.bytes;
      figures.other_thread_allocations = ended.other_thread_allocations;
      figures.sweep = std::move(swept);
      // Warmed up: what its first run allocated beyond this one was a first use's.
      if (const auto first = first_runs_.find(full_name(info)); first != first_runs_.end()) {
        figures.one_time_allocations +=
            first->second.allocations - std::min(first->second.allocations, stats.allocations);
        figures.one_time_bytes += first->second.bytes - std::min(first->second.bytes, stats.bytes_allocated);
        first_runs_.erase(first);
      }
      std::optional<SiteProfile> sites;
      if (options.sites && run_.capture() != nullptr) sites = run_.capture()->profile(options.source_root);
      counted().report.add(full_name(info), figures, sites ? &*sites : nullptr);
    }
  }

 private:
  // In the rerun of a leaking test: its lines, for the run that asked.
  void write_leak_sites(const std::string& file, const allocgate::detail::LiveTotals& leaked) const {
    try {
      files::write_file_atomically(file, run_.leak_lines(leaked, counting_options().source_root));
    } catch (const std::exception&) {  // the asking run says it found no lines
    }
  }

  // Whether std::bad_alloc reached the test's code: out of its body, which
  // GoogleTest caught and failed the test saying so; or out of an
  // EXPECT_THROW's or EXPECT_NO_THROW's statement (ASSERT_ alike), which
  // reports it as a different exception than expected, and which Catch2
  // and doctest report as an exception out of the assertion's expression.
  static bool bad_alloc_escaped(const ::testing::TestInfo& info) {
    const ::testing::TestResult& result = *info.result();
    for (int i = 0; i < result.total_part_count(); ++i) {
      const std::string_view message = result.GetTestPartResult(i).message();
      if (message.find("std::bad_alloc\" thrown in") != std::string_view::npos ||
          message.find("Actual: it throws std::bad_alloc with description") != std::string_view::npos)
        return true;
    }
    return false;
  }

  // A sweep's findings fail the test through GoogleTest, each with the
  // command that runs it alone; a sweep not to be trusted is said.
  static void report_sweep(const ::testing::TestInfo& info, integrations::SweepResult& swept) {
    const std::string name = full_name(info);
    std::string reproduce = files::terminal_text(executable()) + " --gtest_filter=" + files::terminal_text(name);
    if (counting_options().fail_rest) reproduce += " --allocgate_fail_rest";
    const std::string message =
        integrations::sweep_failure(name, swept, ::allocgate::kToolchain, reproduce + " --allocgate_fail_at=");
    if (message.empty()) return;
    GTEST_MESSAGE_AT_(info.file(), info.line(), message.c_str(), ::testing::TestPartResult::kNonFatalFailure);
  }

  void report_leak(const ::testing::TestInfo& info, const allocgate::detail::LiveTotals& leaked) {
    std::ostringstream message;
    message << full_name(info) << " leaked " << leaked.bytes << " bytes in " << leaked.blocks
            << (leaked.blocks == 1 ? " block" : " blocks")
            << " (allocated during the test, and at its end still live and reachable from nothing)";
    if (run_.capture() != nullptr) {
      const std::string lines = run_.leak_lines(leaked, counting_options().source_root);
      if (!lines.empty()) message << (lines.front() == '\n' ? "" : ", held by:\n") << lines;
    } else {
      message << leak_sites_from_a_rerun(full_name(info));
    }
    GTEST_MESSAGE_AT_(info.file(), info.line(), message.str().c_str(), ::testing::TestPartResult::kNonFatalFailure);
  }

  std::atomic<bool> waiting_{false};
  integrations::TestRun run_;
  std::optional<PauseCounting> paused_to_end_;
  std::optional<AllocationStats> before_statement_;
  std::optional<std::pair<AllocationStats, AllocationStats>> death_matcher_;  // its figures before and after
  std::optional<AllocationStats> caught_;                                     // at the last catch on the test's thread
  const void* caught_object_ = nullptr;                                       // what it caught
  std::vector<std::pair<AllocationStats, AllocationStats>> exception_records_;  // from the catch to the record
  bool warming_up_ = false;
  std::map<std::string, OneTime> first_runs_;  // each test's figures in the warm-up, until it is counted
  std::optional<integrations::FailureSweep> sweep_;
  std::optional<integrations::FrameworkCode> gtest_code_;  // GoogleTest's functions, for a sweep with fail_rest
  std::optional<integrations::SweepResult> swept_;         // the running test's sweep, until its end
};

CountingListener* g_listener = nullptr;

// argv[0], as GoogleTest kept it; empty when InitGoogleTest had none.
std::string executable() {
  const std::vector<std::string> argv = ::testing::internal::GetArgvs();
  return argv.empty() ? std::string() : argv.front();
}

}  // namespace

CountingOptions& counting_options() {
  static CountingOptions options;
  return options;
}

bool take_counting_flags(int* argc, char** argv, std::ostream& err) {
  const PauseCounting pause;
  CountingOptions& options = counting_options();
  g_flags_taken = true;
  if (const char* out = std::getenv("ALLOCGATE_OUT")) options.out = out;
  if (const char* root = std::getenv("ALLOCGATE_SOURCE_ROOT")) options.source_root = root;
  if (!environment_switch("ALLOCGATE_SITES", options.sites, err) ||
      !environment_switch("ALLOCGATE_FAIL_ON_LEAK", options.fail_on_leak, err) ||
      !environment_switch("ALLOCGATE_WARM_UP", options.warm_up, err)) {
    return false;
  }
  if (std::string error; !g_sweep_settings.from_environment(error)) {
    err << error << '\n';
    return false;
  }
  if (argc == nullptr || argv == nullptr) {
    settle_sweep(err);
    return true;
  }
  int kept = 1;
  for (int i = 1; i < *argc; ++i) {
    const std::string_view arg = argv[i];
    if (const char* v = flag_value(arg, "--allocgate_out")) {
      if (*v == '\0') {
        err << "allocgate: --allocgate_out takes a file: --allocgate_out=report.json\n";
        return false;
      }
      options.out = v;
      continue;
    }
    if (const char* v = flag_value(arg, kLeakSitesFlag)) {
      options.leak_sites_to = v;
      continue;
    }
    if (const char* v = flag_value(arg, kLeakRerunOfFlag)) {
      options.leak_rerun_of = v;
      continue;
    }
    if (const char* v = flag_value(arg, "--allocgate_source_root")) {
      options.source_root = v;
      continue;
    }
    std::string error;
    if (const int taken = g_sweep_settings.take_flag(arg, error); taken != 0) {
      if (taken < 0) {
        err << error << '\n';
        return false;
      }
      continue;
    }
    bool* target = nullptr;
    const char* value = flag_value(arg, "--allocgate_sites");
    if (value != nullptr) {
      target = &options.sites;
    } else if ((value = flag_value(arg, "--allocgate_fail_on_leak")) != nullptr) {
      target = &options.fail_on_leak;
    } else if ((value = flag_value(arg, "--allocgate_warm_up")) != nullptr) {
      target = &options.warm_up;
    }
    if (target != nullptr) {
      const std::optional<bool> on = switch_value(value);
      if (!on) {
        err << "allocgate: " << files::terminal_text(arg.substr(0, arg.find('='))) << " takes true or false, not '"
            << files::terminal_text(value) << "'\n";
        return false;
      }
      *target = *on;
      continue;
    }
    if (arg.substr(0, 12) == "--allocgate_") {
      err << "allocgate: unknown flag " << files::terminal_text(arg)
          << "; allocgate::gtest takes --allocgate_out=FILE, --allocgate_sites, --allocgate_source_root=DIR, "
             "--allocgate_fail_on_leak, --allocgate_warm_up, "
          << g_sweep_settings.flags_text() << "\n";
      return false;
    }
    argv[kept++] = argv[i];
  }
  *argc = kept;
  argv[kept] = nullptr;
  // A leaking test's rerun writes its lines only: never a report, over the
  // asking run's file or beside it in its directory.
  if (!options.leak_sites_to.empty()) options.out.clear();
  settle_sweep(err);
  return true;
}

bool init_reached_allocgate() { return g_flags_taken; }

void install_counting(const void* outer_frame) {
  if (g_listener != nullptr) return;
  g_outer_frame = outer_frame;
  const PauseCounting pause;
  if (!g_flags_taken && !take_counting_flags(nullptr, nullptr, std::cerr)) std::exit(1);
  resolve_static_guards();
  resolve_begin_catch();
  allocgate::detail::prepare_reachability();
  allocgate::detail::clear_new_blocks();   // no stale word in a block's unwritten bytes keeps a leak
  allocgate::detail::hold_freed_blocks();  // nor a stale copy of a freed block's address
  try {
    require_hook();
  } catch (const HookNotLinked& e) {
    std::cerr << e.what() << '\n';
    std::exit(2);
  }
  // A directory gets a report per process: ctest runs each test of a
  // gtest_discover_tests binary as a process of its own, and `allocgate
  // merge DIR/*.json` joins them.
  const std::string asked = counting_options().out;
  counting_options().out = integrations::report_path(asked, executable());
  // A report that cannot be written is said before the tests run, not after;
  // the report of an earlier run is emptied now: a run that ends before
  // writing its own (a test calls std::exit) leaves none for the gate to
  // mistake for its own. Not in a death test's child, nor when listing
  // tests: they write none.
  const bool writes_report =
      ALLOCGATE_GTEST_DEATH_TEST_FLAG(internal_run_death_test).empty() && !ALLOCGATE_GTEST_FLAG(list_tests);
  if (std::string error;
      !integrations::open_report(writes_report ? asked : std::string(), executable(), running_test_name, error)) {
    std::cerr << error << '\n';
    std::exit(1);
  }
  // The warm-up is one more iteration, first: GoogleTest runs the tests, and
  // prints them, once more. Not in a death test's child, which runs one
  // statement and exits, nor when the run lists tests or repeats forever.
  if (counting_options().warm_up && ALLOCGATE_GTEST_DEATH_TEST_FLAG(internal_run_death_test).empty() &&
      !ALLOCGATE_GTEST_FLAG(list_tests)) {
    const std::int32_t repeat = ALLOCGATE_GTEST_FLAG(repeat);
    if (repeat >= 0) ALLOCGATE_GTEST_SET_FLAG(repeat, repeat + 1);
  }
  g_listener = new CountingListener;
  ::testing::UnitTest::GetInstance()->listeners().Append(g_listener);  // owned by GoogleTest from here
}

bool write_counted_report() {
  const PauseCounting pause;
  const Counted& c = counted();
  if (c.uncounted != 0) {
    std::cerr << "allocgate: " << c.uncounted << " test(s) ran without being counted, the first "
              << files::terminal_text(c.first_uncounted)
              << ": their fixtures were built by code linked without allocgate::gtest (a shared library's "
                 "tests?); link allocgate::gtest into the program that holds them\n";
  }
  const std::string& out = counting_options().out;
  // A death test's child, run anew as GoogleTest's "threadsafe" style does,
  // is not the run the report is of.
  // --gtest_list_tests (ctest's gtest_discover_tests) runs nothing to report.
  if (out.empty() || !ALLOCGATE_GTEST_DEATH_TEST_FLAG(internal_run_death_test).empty() ||
      ALLOCGATE_GTEST_FLAG(list_tests))
    return true;
  return integrations::write_report(c.report, executable(), false);
}

void fixture_constructed(void* fixture) {
  if (g_listener != nullptr) g_listener->begin(fixture);
}

void test_about_to_begin() {
  if (g_listener != nullptr) g_listener->about_to_begin();
}

void statement_begins() {
  if (g_listener != nullptr) g_listener->statement_begins();
}

void death_test_started() {
  if (g_listener != nullptr) g_listener->pause_to_the_end();
}

void exception_caught(const void* object, const void* where) noexcept {
  if (g_listener != nullptr) g_listener->exception_caught(object, where);
}

}  // namespace allocgate::testing::detail
