// SPDX-License-Identifier: Apache-2.0
// allocgate::doctest: every run of a doctest test case (a leaf SUBCASE)
// counted, with no code: an object linked beside the translation unit that
// defines DOCTEST_CONFIG_IMPLEMENT(_WITH_MAIN).
//
// doctest's runner is compiled into that translation unit, so none of its
// calls can be wrapped at link time. A listener does the work instead. As
// each test case starts, it points the test case's function at
// allocgate_doctest_body, which counts the body's run around a call of the
// real function. Inside it, doctest's own work (assertions, subcases,
// messages, string makers) is told apart by each allocation's stack
// (framework_code.h): what is allocated through a function of doctest's is
// not the test's.

// The suite's own doctest.h when it bundles one (a header directory, as
// nlohmann/json does): the package settles which at configure time
// (allocgate_settle_doctest), so that this listener and the suite's main
// share one version's layouts.
#ifdef ALLOCGATE_DOCTEST_HEADER
#include ALLOCGATE_DOCTEST_HEADER
#else
#include <doctest/doctest.h>
#endif

#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <thread>
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
extern "C" const bool allocgate_doctest_listener = true;

extern "C" void allocgate_doctest_body();

// doctest's registry of every test case, defined where the suite defines
// DOCTEST_CONFIG_IMPLEMENT, with external linkage in every version
// (2.5's header declares it too, 2.4's does not).
namespace doctest::detail {
std::set<TestCase>& getRegisteredTests();
}  // namespace doctest::detail

namespace allocgate::doctest_tests::detail {

void judge_if_waiting();

namespace {

bool is_body_caller(std::string_view mangled) { return mangled == "allocgate_doctest_body"; }

// The state of the run of tests: doctest runs one test case at a time, its
// body on the thread that runs the tests.
struct Counting {
  integrations::TestOptions options;
  std::unique_ptr<integrations::FrameworkCode> framework;
  integrations::TestRun run;
  integrations::TestReport report{"doctest"};
  ::doctest::detail::TestCase* test = nullptr;  // running, its function replaced
  ::doctest::detail::funcType body = nullptr;   // the test case's own function
  std::string test_name;
  std::vector<std::string> subcases;  // entered in this run, outermost first
  std::string run_name;               // the deepest path the run reached
  bool run_pending = false;           // a body has run and is not in the report yet
  bool run_failed = false;
  bool expects_failure = false;  // should_fail, may_fail, expected_failures: doctest's own verdict
  std::optional<AllocationStats> stats;
  std::optional<integrations::TestRun::End> end;
  // The lowest frame live when the body was called: the leak check reads
  // the stack from it up, never the body's own frames, which are gone by
  // then and whose dead slots the frames called since only partly overwrite.
  const void* floor = nullptr;
  // A body that ended by an exception is judged once doctest has handled
  // it (its next event): until then the exception holds the blocks its
  // message and state need, in memory the marking does not read. Its
  // thread runs paused meanwhile: doctest's handling is not the test's.
  std::optional<PauseCounting> judging_later;
  integrations::RunNames names;
  // Instances of templated test cases whose name and file another shares:
  // each one's place among them (test_case_name), read once.
  std::map<const ::doctest::detail::TestCase*, int> template_places;
  bool template_places_read = false;
  bool started = false;
  // The failure sweep (--allocgate-fail-each): each run's, forked as its
  // body begins; in a child, what the run's end tells the parent.
  std::optional<integrations::FailureSweep> sweep;
  std::optional<integrations::SweepResult> swept;  // the running run's, until it is in the report
  bool bad_alloc_escaped = false;                  // in a child: std::bad_alloc reached the test's code
  std::string first_failure;                       // in a child: the run's first failure
  std::vector<std::string> written_subcases;       // entered, as written: a finding's --subcase filters
  std::vector<std::string> run_subcases;           // ... those of the run's deepest path
};

Counting& counting() {
  static Counting c;
  return c;
}

// doctest names the instances of a templated test case by their types'
// TYPE_TO_STRING, and, before 2.4.9, "<>" for a type without one; a type
// listed twice (std::uint8_t beside unsigned char) names two instances alike
// in any version. Instances of one template then share a name (nlohmann/json's
// "value_in_range_of trait<>": 20 types over two TEST_CASE_TEMPLATE_INVOKEs,
// each numbering its own from 0). Each instance whose name and file another
// registered instance shares is named by its place among them, in doctest's
// own order (line, then place in the type list): "trait<#2>", "ASCII<unsigned
// char #2>". The same in any run, filter, shard or order: the registry holds
// every test case, whatever runs.
std::string test_case_name(const ::doctest::detail::TestCase& test) {
  std::string name = test.m_name;
  if (test.m_template_id < 0 || name.empty() || name.back() != '>') return name;
  Counting& c = counting();
  if (!c.template_places_read) {
    c.template_places_read = true;
    using Key = std::pair<std::string, std::string>;  // file and name
    std::map<Key, std::vector<const ::doctest::detail::TestCase*>> instances;
    for (const ::doctest::detail::TestCase& registered : ::doctest::detail::getRegisteredTests()) {
      if (registered.m_template_id >= 0)
        instances[{registered.m_file.c_str(), registered.m_name}].push_back(&registered);
    }
    for (const auto& [key, alike] : instances) {
      if (alike.size() < 2) continue;
      for (std::size_t i = 0; i < alike.size(); ++i) c.template_places.emplace(alike[i], static_cast<int>(i) + 1);
    }
  }
  const auto place = c.template_places.find(&test);
  if (place == c.template_places.end()) return name;
  name.pop_back();  // its '>', after the number
  if (name.back() != '<') name += ' ';
  name += '#';
  name += std::to_string(place->second);
  name += '>';
  return name;
}

void add_pending_run() {
  Counting& c = counting();
  if (!c.run_pending) return;
  c.run_pending = false;
  std::string name = c.names.next(c.run_name);
  integrations::TestFigures figures = integrations::figures_of(*c.stats, *c.end);
  figures.failed = c.run_failed && !c.expects_failure;
  figures.sweep = std::move(c.swept);
  c.swept.reset();
  std::optional<SiteProfile> sites;
  if (c.options.sites && c.run.capture() != nullptr) sites = c.run.capture()->profile(c.options.source_root);
  c.report.add(std::move(name), figures, sites ? &*sites : nullptr);
}

class CountingListener : public ::doctest::IReporter {
 public:
  explicit CountingListener(const ::doctest::ContextOptions&) {}

  void report_query(const ::doctest::QueryData&) override {}

  void test_run_start() override {
    const PauseCounting pause;
    Counting& c = counting();
    make_room_for_messages();
    // doctest keeps no copy of its arguments for a listener, and passes on
    // what it does not know: allocgate's flags are read from the process's.
    c.framework = integrations::start_suite(
        c.options, integrations::process_arguments(), "doctest", "doctest", is_body_caller,
        [] { return counting().test != nullptr ? std::string(counting().test_name) : std::string(); });
    c.started = true;
  }

  void test_run_end(const ::doctest::TestRunStats&) override {
    const PauseCounting pause;
    Counting& c = counting();
    // A sweep's child that crashed (doctest reports the signal, then ends
    // the run) writes no report: the parent's is the run's.
    if (!c.started || (c.sweep && c.sweep->in_child())) return;
    c.report.refuse(c.names.collision());
    integrations::write_report(c.report, c.options.executable, true);
  }

  void test_case_start(const ::doctest::TestCaseData& data) override {
    const PauseCounting pause;
    Counting& c = counting();
    if (!c.started) return;
    // doctest hands its reporters the TestCase it runs, whose function is
    // called next, once per run, through this pointer.
    auto& test = const_cast<::doctest::detail::TestCase&>(static_cast<const ::doctest::detail::TestCase&>(data));
    c.test = &test;
    c.body = test.m_test;
    test.m_test = allocgate_doctest_body;
    c.test_name = integrations::run_name_part(test_case_name(test));
    c.names.test_case_begins(std::string(data.m_file.c_str()) + ":" + std::to_string(data.m_line));
    c.expects_failure = data.m_should_fail || data.m_may_fail || data.m_expected_failures > 0;
  }

  void test_case_reenter(const ::doctest::TestCaseData&) override { judge_if_waiting(); }

  void test_case_end(const ::doctest::CurrentTestCaseStats&) override {
    judge_if_waiting();
    const PauseCounting pause;
    Counting& c = counting();
    add_pending_run();
    if (c.test != nullptr) c.test->m_test = c.body;
    c.test = nullptr;
  }

  void test_case_exception(const ::doctest::TestCaseException& exception) override {
    Counting& c = counting();
    c.run_failed = true;
    if (std::string_view(exception.error_string.c_str()) == "std::bad_alloc") c.bad_alloc_escaped = true;
  }

  void subcase_start(const ::doctest::SubcaseSignature& subcase) override {
    const PauseCounting pause;
    Counting& c = counting();
    c.subcases.push_back(integrations::run_name_part(subcase.m_name.c_str()));
    c.written_subcases.emplace_back(subcase.m_name.c_str());
    c.run_name = path();  // after its leaf, a run enters no other subcase
    c.run_subcases = c.written_subcases;
  }

  void subcase_end() override {
    const PauseCounting pause;
    Counting& c = counting();
    if (!c.subcases.empty()) c.subcases.pop_back();
    if (!c.written_subcases.empty()) c.written_subcases.pop_back();
  }

  void log_assert(const ::doctest::AssertData& assertion) override {
    if (!assertion.m_failed) return;
    Counting& c = counting();
    c.run_failed = true;
    if (!c.sweep || !c.sweep->in_child()) return;
    // A sweep's child: std::bad_alloc out of an assertion's expression
    // (doctest's CHECK catches it, and the test goes on) reached the
    // test's code; else the run's first failure, what a swallowed one became.
    const PauseCounting pause;
    // (doctest quotes the exception's what() as it logs it.)
    const std::string_view exception = assertion.m_exception.c_str();
    if (assertion.m_threw && (exception == "\"std::bad_alloc\"" || exception == "std::bad_alloc")) {
      c.bad_alloc_escaped = true;
    } else if (c.first_failure.empty()) {
      c.first_failure = std::string(assertion.m_file) + ":" + std::to_string(assertion.m_line) + ": " +
                        assertion.m_expr + " " + assertion.m_decomp.c_str();
    }
  }

  void log_message(const ::doctest::MessageData& message) override {
    if (!(message.m_severity & ::doctest::assertType::is_warn)) counting().run_failed = true;
  }

  void test_case_skipped(const ::doctest::TestCaseData&) override {}

 private:
  // MESSAGE, WARN and FAIL stream their text into doctest's own stream of
  // this thread, from code compiled into the test, where an optimizing
  // compiler inlines doctest's functions that stream it: the allocations of
  // its growth have no frame of doctest's. Grown once here, the stream
  // takes messages of up to this many bytes without allocating; it keeps
  // its buffer when rewound after each message.
  static constexpr std::size_t kMessageRoom = 64 * 1024;
  // doctest before 2.4.9 (2.4.6, which nlohmann/json 3.11.2 bundles) empties
  // the stream with str(""), freeing its buffer at each message: there is
  // no room to keep.
  static void make_room_for_messages() {
#if DOCTEST_VERSION >= 20409
    *::doctest::detail::tlssPush() << std::string(kMessageRoom, ' ');
    ::doctest::detail::tlssPop();
#endif
  }

  // The test case's name, then the subcases entered, by "/".
  static std::string path() {
    const Counting& c = counting();
    std::string out = c.test_name;
    for (const std::string& subcase : c.subcases) out += "/" + subcase;
    return out;
  }
};

}  // namespace

namespace {

// The parent's run has been judged: its sweep's findings (those not marked
// on purpose) fail it through doctest, each with the command that runs it
// alone; the run's own verdict is kept, as its figures are its own.
void report_sweep(Counting& c) {
  if (!c.swept || c.test == nullptr) return;
  using integrations::shell_word;
  std::string reproduce = shell_word(c.options.executable) + " --test-case=" + shell_word(c.test->m_name);
  for (const std::string& subcase : c.run_subcases) reproduce += " --subcase=" + shell_word(subcase);
  if (c.options.sweep.fail_rest) reproduce += " --allocgate-fail-rest";
  const std::string message = integrations::sweep_failure(c.run_name, *c.swept, ::allocgate::kToolchain,
                                                          files::terminal_text(reproduce) + " --allocgate-fail-at=");
  if (message.empty()) return;
  const bool failed = c.run_failed;
  ADD_FAIL_CHECK_AT(c.test->m_file.c_str(), static_cast<int>(c.test->m_line), message);
  c.run_failed = failed;
}

}  // namespace

void body_begins(const void* floor) {
  judge_if_waiting();
  const PauseCounting pause;
  Counting& c = counting();
  add_pending_run();
  c.subcases.clear();
  c.written_subcases.clear();
  c.run_subcases.clear();
  c.run_name = c.test_name;
  c.run_failed = false;
  c.run.take_roots(floor);  // before a sweep forks: its children inherit them
  c.swept = integrations::begin_swept_run(c.options.sweep, c.sweep, c.test_name);
  c.run.begin(c.options.sites || c.options.fail_on_leak);
  c.framework->tell_on_this_thread();
}

// The run's live blocks split by the marking, and a leak failed inside the
// test case, through doctest's own failure: its reporters tell it.
void judge() {
  Counting& c = counting();
  const PauseCounting pause;
  c.judging_later.reset();
  c.end = c.run.end(c.floor, true);
  c.run_pending = true;
  const allocgate::detail::LiveTotals& leaked = c.end->live.leaked;
  if (c.options.fail_on_leak && leaked.blocks != 0 && c.test != nullptr) {
    const std::string message =
        integrations::leak_message(c.run_name, leaked, c.run.leak_lines(leaked, c.options.source_root));
    ADD_FAIL_CHECK_AT(c.test->m_file.c_str(), static_cast<int>(c.test->m_line), message);
  }
  if (c.sweep && c.sweep->in_child()) {
    c.sweep->point_ended(!c.run_failed, c.bad_alloc_escaped, leaked.blocks, leaked.bytes, c.first_failure);
  }
  report_sweep(c);
  if (c.options.sweep.fail_at) integrations::FailureSweep::disarm();
}

void judge_if_waiting() {
  if (counting().judging_later) judge();
}

void body_ends(const void* floor, bool thrown) {
  Counting& c = counting();
  integrations::FrameworkCode::stop_telling();
  // The body is over: what follows is doctest's, which a sweep's failures
  // must not reach (with --allocgate-fail-rest, every later allocation).
  integrations::FailureSweep::stop_failing();
  c.stats = c.run.stats();
  c.floor = floor;
  if (thrown) {
    c.judging_later.emplace();
    return;
  }
  judge();
}

}  // namespace allocgate::doctest_tests::detail

namespace dt = allocgate::doctest_tests::detail;

// The body of every test case run: the test case's own function, counted.
// Its frame is where a test's stacks end (framework_code.h): its name is
// found in the program's symbols.
extern "C" __attribute__((noinline)) void allocgate_doctest_body() {
  const void* const floor = __builtin_frame_address(0);
  dt::body_begins(floor);
  try {
    dt::counting().body();
  } catch (...) {
    dt::body_ends(floor, true);
    throw;
  }
  dt::body_ends(floor, false);
}

DOCTEST_REGISTER_LISTENER("allocgate", 0, dt::CountingListener);
