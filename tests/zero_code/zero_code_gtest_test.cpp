// SPDX-License-Identifier: Apache-2.0
// Zero code for tests: zero_code_primer_tests, a suite written as GoogleTest's
// primer writes one and linked with allocgate::gtest_main, reports each test's
// figures; each is derived here from what its code does.

#include <sys/stat.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "allocgate/scope.h"
#include "command.h"
#include "primer_style_code.h"

#ifdef MATCHER_TESTS  // built where GoogleTest has gMock (CMakeLists.txt)
#include <gmock/gmock.h>
#endif

namespace {

using allocgate::reports::testing::line_of;
using allocgate::reports::testing::run;
using allocgate::reports::testing::ScratchDirTest;
using nlohmann::json;

const std::string kSuite = PRIMER_TESTS;
const std::string kKeptSuite = KEPT_TESTS;
const std::string kSource = std::string(ALLOCGATE_SOURCE_DIR) + "/tests/zero_code/primer_style_test.cpp";

json read_json(const std::string& file) {
  std::ifstream in(file);
  return json::parse(in);
}

// The report's entries by test name (the first run of each).
std::map<std::string, json> by_name(const json& report) {
  std::map<std::string, json> entries;
  for (const json& entry : report.at("benchmarks")) entries.try_emplace(entry.at("name").get<std::string>(), entry);
  return entries;
}

struct Figures {
  std::uint64_t allocs, bytes, leaked, leaked_blocks;
};

void expect_figures(const std::map<std::string, json>& tests, const std::string& name, Figures expected) {
  SCOPED_TRACE(name);
  ASSERT_EQ(tests.count(name), 1u);
  const json& t = tests.at(name);
  EXPECT_EQ(t.at("allocs/op").get<std::uint64_t>(), expected.allocs);
  EXPECT_EQ(t.at("bytes/op").get<std::uint64_t>(), expected.bytes);
  EXPECT_EQ(t.at("leaked_bytes/op").get<std::uint64_t>(), expected.leaked);
  EXPECT_EQ(t.at("allocgate_leaked_blocks").get<std::uint64_t>(), expected.leaked_blocks);
}

class ZeroCodeTests : public ScratchDirTest {};

// A std::string of n characters past its inline buffer allocates n + 1.
constexpr std::uint64_t long_string(std::uint64_t n) { return n + 1; }

TEST_F(ZeroCodeTests, EveryTestHasTheFiguresItsCodeMakes) {
  const auto result = run(kSuite + " --allocgate_out=" + path("tests.json"));
  EXPECT_EQ(result.code, 1) << result.output;  // Failures.* fails on purpose
  const auto tests = by_name(read_json(path("tests.json")));

  expect_figures(tests, "Strings.CopyOfALongString", {2, 2 * long_string(100), 0, 0});
  allocgate::AllocationStats error;  // the exception Failures.AnExceptionOutOfTheBody throws, made here
  {
    allocgate::AllocationScope scope;
    const std::runtime_error made(std::string(100, 'r'));
    error = scope.stats();
  }
  expect_figures(tests, "Failures.AnExceptionOutOfTheBody", {error.allocations, error.bytes_allocated, 0, 0});
  EXPECT_EQ(tests.at("Failures.AnExceptionOutOfTheBody").at("allocgate_test_failed"), true);
  EXPECT_EQ(tests.at("Failures.AnExceptionOutOfTheBody").at("peak_bytes"), error.peak_live_bytes);  // not the record's
  expect_figures(tests, "Vectors.ReserveThenPush", {1, 10 * sizeof(int), 0, 0});
  expect_figures(tests, "Failures.AFailingAssertionsMessageIsGoogleTests", {1, 2 * sizeof(int), 0, 0});
  EXPECT_EQ(tests.at("Failures.AFailingAssertionsMessageIsGoogleTests").at("allocgate_test_failed"), true);
  // SetUp's reserve and the body's string: not the fixture object itself.
  expect_figures(tests, "QueueTest.SetUpAndBody", {2, 4 * sizeof(int) + long_string(50), 0, 0});
  expect_figures(tests, "Sizes/SizeTest.AllocatesOnce/0", {1, 8, 0, 0});
  expect_figures(tests, "Sizes/SizeTest.AllocatesOnce/1", {1, 64, 0, 0});
  expect_figures(tests, "TypedTest/0.FourElements", {1, 4 * sizeof(int), 0, 0});
  expect_figures(tests, "TypedTest/1.FourElements", {1, 4 * sizeof(double), 0, 0});
  // SCOPED_TRACE's bookkeeping is GoogleTest's.
  expect_figures(tests, "Traces.ScopedTraceIsGoogleTestsOwn", {1, 2 * sizeof(int), 0, 0});
  // Built on the test's call and kept by the static: one-time, apart.
  expect_figures(tests, "Statics.BuiltOnFirstUseIsNotALeak", {0, 0, 0, 0});
  EXPECT_EQ(tests.at("Statics.BuiltOnFirstUseIsNotALeak").at("allocgate_one_time_allocs"), 1);
  EXPECT_EQ(tests.at("Statics.BuiltOnFirstUseIsNotALeak").at("allocgate_one_time_bytes"), long_string(64));
  EXPECT_FALSE(tests.at("Strings.CopyOfALongString").contains("allocgate_one_time_allocs"));
  // The std::string object and its characters, both left live.
  const std::uint64_t leaked_string = sizeof(std::string) + long_string(100);
  expect_figures(tests, "Leaks.ADeliberateLeak", {2, leaked_string, leaked_string, 2});
  // An older block of the same size freed: no net bytes, still a leak.
  expect_figures(tests, "Leaks.FreesAnOlderBlockAndLeaksANewOne", {2, leaked_string, leaked_string, 2});
  EXPECT_EQ(tests.at("Leaks.FreesAnOlderBlockAndLeaksANewOne").at("peak_bytes"), 0);
  // Held by a leaked block only: the two strings and the chain, all leaked.
  const std::uint64_t chain = sizeof(void*) + leaked_string;
  expect_figures(tests, "Leaks.HeldOnlyByALeakedBlock", {3, chain, chain, 3});
  // Kept: reachable at the test's end, counted, reported apart, no leak.
  for (const char* kept : {"Kept.HeldByAGlobal", "Kept.HeldThroughABlockOlderThanTheTest", "Kept.HeldByAThreadLocal"}) {
    expect_figures(tests, kept, {2, leaked_string, 0, 0});
    EXPECT_EQ(tests.at(kept).at("allocgate_kept_bytes"), leaked_string) << kept;
    EXPECT_EQ(tests.at(kept).at("allocgate_kept_blocks"), 2) << kept;
  }
  // Every block the worker holds is kept: libstdc++'s std::thread state
  // (16 B) and the 41 B string, on its stack.
  const auto& worker = tests.at("Kept.HeldByAWorkersStack");
#ifdef __GLIBCXX__
  expect_figures(tests, "Kept.HeldByAWorkersStack", {2, 16 + long_string(40), 0, 0});
#endif
  EXPECT_EQ(worker.at("leaked_bytes/op"), 0);
  EXPECT_EQ(worker.at("allocgate_kept_blocks"), worker.at("allocs/op"));
  // Its string is the worker's allocation: the test allocates on another
  // thread (its bound gets a tolerance); a test on its own thread does not.
  EXPECT_EQ(worker.at("allocgate_other_thread_allocs"), 1);
  EXPECT_FALSE(tests.at("Strings.CopyOfALongString").contains("allocgate_other_thread_allocs"));
  EXPECT_EQ(tests.at("Leaks.ADeliberateLeak").at("allocgate_kept_bytes"), 0);
  EXPECT_EQ(tests.at("Strings.CopyOfALongString").at("peak_bytes"), 2 * long_string(100));
  EXPECT_EQ(tests.count("Skips.ASkippedTestIsNotACase"), 0u);
  EXPECT_FALSE(tests.at("Strings.CopyOfALongString").contains("allocgate_test_failed"));
}

TEST_F(ZeroCodeTests, AThreadsAllocationsWhileTheTestRunsAreTheTests) {
  allocgate::AllocationStats expected;
  {
    allocgate::ProcessAllocationScope scope;  // all threads, as the test's figures are
    start_and_join_a_thread();
    expected = scope.stats();
  }
  ASSERT_GT(expected.bytes_allocated, 100 * sizeof(int));  // the worker's vector, and the thread's own state
  ASSERT_EQ(run(kSuite + " --gtest_filter=Threads.* --allocgate_out=" + path("t.json")).code, 0);
  expect_figures(by_name(read_json(path("t.json"))), "Threads.AThreadsAllocationsAreTheTests",
                 {expected.allocations, expected.bytes_allocated, 0, 0});

  // With sites, the worker's allocation is the worker's line, and every
  // allocation of the test, on either thread, has one.
  ASSERT_EQ(run(kSuite + " --gtest_filter=Threads.* --allocgate_sites --allocgate_out=" + path("s.json")).code, 0);
  const json test = by_name(read_json(path("s.json"))).at("Threads.AThreadsAllocationsAreTheTests");
  EXPECT_EQ(test.at("allocs/op").get<std::uint64_t>(), expected.allocations);
  double sites_allocs = 0;
  const json* workers = nullptr;
  for (const json& site : test.at("sites")) {
    sites_allocs += site.at("allocs_per_op").get<double>();
    if (site.at("file").get<std::string>() == "tests/zero_code/primer_style_code.h" &&
        site.at("line").get<unsigned>() ==
            line_of(kSource.substr(0, kSource.rfind('/')) + "/primer_style_code.h", "const std::vector<int> v(100);")) {
      workers = &site;
    }
  }
  EXPECT_EQ(sites_allocs, static_cast<double>(expected.allocations)) << test.at("sites").dump(1);
  ASSERT_NE(workers, nullptr) << test.at("sites").dump(1);
  EXPECT_EQ(workers->at("allocs_per_op").get<double>(), 1.0);
  EXPECT_EQ(workers->at("bytes_per_op").get<double>(), 100.0 * sizeof(int));
}

TEST_F(ZeroCodeTests, AFailedTestIsReportedWithItsFiguresAndMarked) {
  // The text streamed into the failure is formatted by the test's own code
  // (GoogleTest's inline templates): what it costs, derived as it is built.
  std::uint64_t streamed = 0;
  {
    std::stringstream message;  // testing::Message's stream, made while paused
    allocgate::AllocationScope scope;
    message << "failed on purpose";
    streamed = scope.stats().bytes_allocated;
  }
  run(kSuite + " --gtest_filter=Failures.* --allocgate_out=" + path("f.json"));
  const auto tests = by_name(read_json(path("f.json")));
  const json& failed = tests.at("Failures.AFailedTestIsReportedWithItsFigures");
  EXPECT_EQ(failed.at("allocgate_test_failed"), true);
  EXPECT_EQ(failed.at("bytes/op").get<std::uint64_t>(), long_string(40) + streamed);
  // Its figures hold GoogleTest's formatting of the failure: never recorded
  // as a bound, and the gate's table says the test failed.
  const std::string allocgate = ALLOCGATE_BIN;
  const std::string gate = allocgate + " diff " + path("f.json") + " --bounds " + path("b.json");
  const auto update = run(gate + " --update");
  ASSERT_EQ(update.code, 0) << update.output;
  EXPECT_NE(update.output.find("not recorded Failures.AFailedTestIsReportedWithItsFigures: the test failed"),
            std::string::npos)
      << update.output;
  const auto table = run(gate);
  EXPECT_EQ(table.code, 0) << table.output;
  EXPECT_NE(table.output.find(" no bound, test failed"), std::string::npos) << table.output;
  EXPECT_EQ(table.output.find("Failures.AFailedTestIsReportedWithItsFigures: "), std::string::npos) << table.output;
}

// The parent counts what the test made before the assertion: neither the
// child's allocations nor the matcher GoogleTest builds from the regex
// (inline, in the test's code, between AlwaysTrue() and DeathTest::Create),
// whose size differs between GoogleTest versions.
TEST_F(ZeroCodeTests, ADeathTestCountsNeitherItsChildNorGoogleTestsMatcher) {
  allocgate::AllocationStats matcher;
  {
    allocgate::AllocationScope scope;
    const auto built = ::testing::internal::MakeDeathTestMatcher("dying");
    matcher = scope.stats();
  }
  ASSERT_GT(matcher.allocations, 0u);  // there is something to take out
  ASSERT_EQ(run(kSuite + " --gtest_filter=Death.* --allocgate_out=" + path("d.json")).code, 0);
  const auto tests = by_name(read_json(path("d.json")));
  // The string made before the assertion; not the child's 100000-byte
  // vector; not GoogleTest's last death message, kept.
  expect_figures(tests, "Death.TheChildsAllocationsAreNotTheParents", {1, long_string(30), 0, 0});
  EXPECT_EQ(tests.at("Death.TheChildsAllocationsAreNotTheParents").at("peak_bytes"), long_string(30));
}

#ifdef MATCHER_TESTS
// A passing EXPECT_THAT calls nothing of GoogleTest's that allocates: the
// matcher its expression builds (ElementsAre's element matchers) is the
// test's, the same on every run, and so is what the statement makes here.
TEST_F(ZeroCodeTests, AMatcherTheTestsExpressionBuildsIsTheTests) {
  allocgate::AllocationStats expected;
  {
    allocgate::AllocationScope scope;
    const std::vector<int> v{1, 2};
    EXPECT_THAT(v, ::testing::ElementsAre(1, 2));
    expected = scope.stats();
  }
  ASSERT_GT(expected.allocations, 1u);  // the matcher's, beyond the vector's one
  ASSERT_EQ(run(std::string(MATCHER_TESTS) + " --allocgate_out=" + path("m.json")).code, 0);
  expect_figures(by_name(read_json(path("m.json"))), "Matchers.ElementsAreIsTheTests",
                 {expected.allocations, expected.bytes_allocated, 0, 0});
}

// gMock's bookkeeping is not the tests': each mock test's figures are the
// same run whole, alone, shuffled, and built from a checkout whose path is
// 64 characters longer; what the test's own action makes is the test's.
TEST_F(ZeroCodeTests, AMocksFiguresDependOnNeitherOrderNorPath) {
  const std::vector<std::string> names = {"PainterTest.CanDrawSomething", "PainterTest.StrictAboutOtherCalls",
                                          "PainterTest.StrictWithAnActionThatAllocates",
                                          "PainterTest.NiceAboutOtherCalls"};
  const std::string suite = MOCK_TESTS;
  ASSERT_EQ(run(suite + " --allocgate_out=" + path("whole.json")).code, 0);
  const auto whole = by_name(read_json(path("whole.json")));
  const auto same_figures = [&](const std::map<std::string, json>& tests, const std::string& name) {
    ASSERT_EQ(tests.count(name), 1u) << name;
    for (const char* key : {"allocs/op", "bytes/op", "peak_bytes", "leaked_bytes/op", "allocgate_kept_bytes"}) {
      EXPECT_EQ(tests.at(name).at(key), whole.at(name).at(key)) << name << " " << key;
    }
  };
  for (const std::string& name : names) {
    SCOPED_TRACE(name);
    EXPECT_GT(whole.at(name).at("allocs/op").get<std::uint64_t>(), 0u);  // the test's expectations and actions
    EXPECT_EQ(whole.at(name).at("leaked_bytes/op"), 0);
    ASSERT_EQ(run(suite + " --gtest_filter=" + name + " --allocgate_out=" + path("alone.json")).code, 0);
    same_figures(by_name(read_json(path("alone.json"))), name);
  }
  ASSERT_EQ(run(suite + " --gtest_shuffle --gtest_random_seed=3 --allocgate_out=" + path("shuffled.json")).code, 0);
  ASSERT_EQ(run(std::string(MOCK_TESTS_ELSEWHERE) + " --allocgate_out=" + path("elsewhere.json")).code, 0);
  for (const char* report : {"shuffled.json", "elsewhere.json"}) {
    const auto tests = by_name(read_json(path(report)));
    for (const std::string& name : names) same_figures(tests, name);
  }
  // The two strict tests differ in their action only: a string of 40 made, or of 10 (inline).
  const auto figure = [&](const std::string& name, const char* key) {
    return whole.at("PainterTest." + name).at(key).get<std::uint64_t>();
  };
  EXPECT_EQ(figure("StrictWithAnActionThatAllocates", "allocs/op"), figure("StrictAboutOtherCalls", "allocs/op") + 1);
  EXPECT_EQ(figure("StrictWithAnActionThatAllocates", "bytes/op"),
            figure("StrictAboutOtherCalls", "bytes/op") + long_string(40));
}
#endif

TEST_F(ZeroCodeTests, FailOnLeakFailsEachLeakingTestNamingItsBytesAndLine) {
  const auto result = run(kSuite + " --gtest_filter=Leaks.*:Statics.*:Strings.*:Kept.* --allocgate_fail_on_leak");
  EXPECT_EQ(result.code, 1) << result.output;
  const std::string bytes = std::to_string(sizeof(std::string) + long_string(100));
  EXPECT_NE(result.output.find("Leaks.ADeliberateLeak leaked " + bytes + " bytes in 2 blocks"), std::string::npos)
      << result.output;
  const std::string line = std::to_string(line_of(kSource, "new std::string(100, 'L')"));
  EXPECT_NE(result.output.find("tests/zero_code/primer_style_test.cpp:" + line), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("[  FAILED  ] Leaks.FreesAnOlderBlockAndLeaksANewOne"), std::string::npos);
  EXPECT_EQ(result.output.find("[  FAILED  ] Statics"), std::string::npos) << result.output;
  EXPECT_EQ(result.output.find("[  FAILED  ] Strings"), std::string::npos) << result.output;
  EXPECT_EQ(result.output.find("[  FAILED  ] Kept"), std::string::npos) << result.output;
  // The environment, for ctest.
  EXPECT_EQ(run("ALLOCGATE_FAIL_ON_LEAK=1 " + kSuite + " --gtest_filter=Leaks.ADeliberateLeak").code, 1);
  EXPECT_EQ(run("ALLOCGATE_FAIL_ON_LEAK=1 " + kSuite + " --gtest_filter=Statics.*").code, 0);
}

// A verdict must not depend on where blocks and frames happen to be: the
// same tests leak in every run, with addresses randomized and fixed
// (setarch -R), and a worker's blocks are kept in each.
TEST_F(ZeroCodeTests, TheLeakVerdictsAreTheSameInEveryRunAndLayout) {
  const std::string suite = kSuite + " --gtest_filter=Leaks.*:Kept.* --allocgate_fail_on_leak";
  for (const std::string& layout : {std::string(), std::string("setarch \"$(uname -m)\" -R ")}) {
    for (int i = 0; i < 5; ++i) {
      const auto result = run(layout + suite);
      EXPECT_EQ(result.code, 1) << layout << result.output;
      EXPECT_NE(result.output.find("[  FAILED  ] Leaks.ADeliberateLeak"), std::string::npos) << layout;
      EXPECT_NE(result.output.find("[  FAILED  ] Leaks.FreesAnOlderBlockAndLeaksANewOne"), std::string::npos) << layout;
      EXPECT_NE(result.output.find("[  FAILED  ] Leaks.HeldOnlyByALeakedBlock"), std::string::npos) << layout;
      EXPECT_EQ(result.output.find("[  FAILED  ] Kept"), std::string::npos) << layout << result.output;
    }
  }
}

// The failure's text for a leaked std::string of 100 characters (the string
// and its buffer) made by `statement` in `function` of tests/zero_code/FILE,
// after `held_by` (", held by:" in the run, or the rerun's words).
std::string leaked_string_line(const std::string& held_by, const std::string& function, const std::string& file,
                               const std::string& statement) {
  const std::string source = std::string(ALLOCGATE_SOURCE_DIR) + "/tests/zero_code/" + file;
  return held_by + "\n  2 allocs, " + std::to_string(sizeof(std::string) + long_string(100)) + " B: " + function +
         " (tests/zero_code/" + file + ":" + std::to_string(line_of(source, statement)) + ")";
}

constexpr const char* kRerunHeldBy = "held by (the test run again alone, with stacks):";

// The leak check unwinds nothing: a leaking test is run again alone, with
// stacks, to name its lines. That run is no shard of the suite and writes no
// report of its own.
TEST_F(ZeroCodeTests, ALeaksLinesComeFromARerunOfTheTestAloneThatIsNoShardAndWritesNoReport) {
  std::filesystem::create_directory(path("reports"));
  // Leaks.FreesAnOlderBlockAndLeaksANewOne is the second test: shard 1 of 2.
  // Run alone, it is the first: in shard 0, where a child that took the
  // shard's variables would run nothing.
  const auto result = run("GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=1 ALLOCGATE_OUT=" + path("reports") + " " + kSuite +
                          " --gtest_filter=Leaks.* --allocgate_fail_on_leak");
  EXPECT_EQ(result.code, 1) << result.output;
  EXPECT_NE(result.output.find(leaked_string_line(kRerunHeldBy, "Leaks_FreesAnOlderBlockAndLeaksANewOne_Test::TestBody",
                                                  "primer_style_test.cpp", "leaked = new std::string(100, 'n')")),
            std::string::npos)
      << result.output;
  EXPECT_EQ(result.output.find("ADeliberateLeak"), std::string::npos) << result.output;  // shard 0's
  int reports = 0;
  for (const auto& file : std::filesystem::directory_iterator(path("reports")))
    reports += file.path().extension() == ".json";
  EXPECT_EQ(reports, 1);
}

TEST_F(ZeroCodeTests, WithSitesALeaksLinesComeFromTheRunItself) {
  const auto result = run(kSuite + " --gtest_filter=Leaks.ADeliberateLeak --allocgate_fail_on_leak --allocgate_sites");
  EXPECT_EQ(result.code, 1) << result.output;
  EXPECT_NE(result.output.find(leaked_string_line(", held by:", "Leaks_ADeliberateLeak_Test::TestBody",
                                                  "primer_style_test.cpp", "new std::string(100, 'L')")),
            std::string::npos)
      << result.output;
  EXPECT_EQ(result.output.find("run again alone"), std::string::npos) << result.output;
}

TEST_F(ZeroCodeTests, ALeakThatNeedsAnEarlierTestSaysTheRerunFoundNone) {
  const auto result = run(kKeptSuite + " --gtest_filter=Order.* --allocgate_fail_on_leak");
  EXPECT_EQ(result.code, 1) << result.output;
  EXPECT_NE(result.output.find("Order.LeaksOnlyAfterTheFirst leaked " +
                               std::to_string(sizeof(std::string) + long_string(100)) + " bytes in 2 blocks"),
            std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("run again alone, the test leaked nothing: its leak depends on the tests before it"),
            std::string::npos)
      << result.output;
}

TEST_F(ZeroCodeTests, TheRerunOfALeakingDisabledTestKeepsAlsoRunDisabledTests) {
  const auto result =
      run(kKeptSuite + " --gtest_filter=Order.DISABLED_* --gtest_also_run_disabled_tests --allocgate_fail_on_leak");
  EXPECT_EQ(result.code, 1) << result.output;
  EXPECT_NE(result.output.find(leaked_string_line(kRerunHeldBy,
                                                  "(anonymous namespace)::Order_DISABLED_LeaksWhenRun_Test::TestBody",
                                                  "kept_across_tests_test.cpp", "new std::string(100, 'd')")),
            std::string::npos)
      << result.output;
}

// A word a live block never wrote holds what the memory's last block left
// there: cleared when the block is made, it keeps no leak.
TEST_F(ZeroCodeTests, ALeakIsNotKeptByAStaleWordInALiveBlock) {
  const auto result = run(kKeptSuite + " --gtest_filter=Stale.* --allocgate_out=" + path("s.json"));
  EXPECT_EQ(result.code, 0) << result.output;
  const auto tests = by_name(read_json(path("s.json")));
  expect_figures(tests, "Stale.ALeakIsNotKeptByBytesALiveBlockNeverWrote", {3, 48 + 64 + 64, 48, 1});
  EXPECT_EQ(tests.at("Stale.ALeakIsNotKeptByBytesALiveBlockNeverWrote").at("allocgate_kept_bytes"), 64);
}

// A test that throws fails, and what GoogleTest allocates to record that
// failure (its message, the record, the printers' text) is not the test's,
// as for a failed assertion: neither counted, nor kept, nor leaked.
TEST_F(ZeroCodeTests, AThrowingTestIsChargedWithItsOwnAllocationsOnlyNotGoogleTestsRecord) {
  const auto result = run(kKeptSuite +
                          " --gtest_also_run_disabled_tests --gtest_filter=Throws.* "
                          "--allocgate_fail_on_leak --allocgate_out=" +
                          path("t.json"));
  EXPECT_EQ(result.code, 1) << result.output;
  EXPECT_EQ(result.output.find(" leaked "), std::string::npos) << result.output;  // one failure each, none a leak
  const auto tests = by_name(read_json(path("t.json")));
  expect_figures(tests, "Throws.DISABLED_NotAnException", {0, 0, 0, 0});
  const json& same = tests.at("Throws.DISABLED_BuildsTheSameErrorWithoutThrowing");
  expect_figures(tests, "Throws.DISABLED_RuntimeError", {same.at("allocs/op"), same.at("bytes/op"), 0, 0});
  EXPECT_EQ(same.at("allocs/op"), 2);  // the message, and the error's copy of it
  expect_figures(tests, "Throws.DISABLED_CatchesItsOwnThenFails", {2, sizeof(std::string) + long_string(100), 0, 0});
  for (const auto& [name, test] : tests) EXPECT_EQ(test.at("allocgate_kept_bytes"), 0) << name;
}

// A test that ends the process: exit status 0 and no report. The report of
// an earlier run is emptied, not left for the gate to read as this one's.
TEST_F(ZeroCodeTests, ARunThatEndsInsideATestLeavesNoReportAndSaysSo) {
  for (const std::string test : {"WithStdExit", "WithQuickExit"}) {
    std::ofstream(path("earlier.json")) << R"({"benchmarks": []})";
    const auto result = run(kKeptSuite + " --gtest_also_run_disabled_tests --gtest_filter=Exits.DISABLED_" + test +
                            " --allocgate_out=" + path("earlier.json"));
    EXPECT_EQ(result.code, 0) << result.output;
    EXPECT_EQ(std::filesystem::file_size(path("earlier.json")), 0u) << test;
    EXPECT_NE(result.output.find("allocgate: the run ended (std::exit or std::quick_exit) in Exits.DISABLED_" + test +
                                 " before its report was written: no report at " + path("earlier.json") + "\n"),
              std::string::npos)
        << result.output;
  }
  // A run that ends as it should says nothing of the kind.
  const auto whole = run(kKeptSuite + " --gtest_filter=Cache.* --allocgate_out=" + path("earlier.json"));
  EXPECT_EQ(whole.code, 0) << whole.output;
  EXPECT_TRUE(std::filesystem::exists(path("earlier.json")));
  EXPECT_EQ(whole.output.find("the run ended"), std::string::npos) << whole.output;
}

// A test's name may hold GoogleTest's filter characters (a case named after
// its data file): the rerun selects that test, and tells its lines only.
TEST_F(ZeroCodeTests, TheRerunOfALeakSelectsATestWhoseNameHoldsFilterCharacters) {
  const auto result = run(kKeptSuite + " --gtest_filter=Files.* --allocgate_fail_on_leak");
  EXPECT_EQ(result.code, 1) << result.output;
  const std::string source = std::string(ALLOCGATE_SOURCE_DIR) + "/tests/zero_code/kept_across_tests_test.cpp";
  const std::string line = std::to_string(line_of(source, "char* unreachable = new char[bytes_];"));
  for (const auto& [name, bytes] :
       {std::pair<std::string, int>{"parse-empty.json", 100}, {"e*f", 103}, {"a:b?", 105}}) {
    const std::string b = std::to_string(bytes);
    EXPECT_NE(result.output.find("Files." + name + " leaked " + b +
                                 " bytes in 1 block (allocated during the test, and "
                                 "at its end still live and reachable from nothing), " +
                                 kRerunHeldBy + "\n  1 allocs, " + b +
                                 " B: (anonymous namespace)::LeaksItsFile::TestBody "
                                 "(tests/zero_code/kept_across_tests_test.cpp:" +
                                 line + ")"),
              std::string::npos)
        << name << "\n"
        << result.output;
  }
  EXPECT_EQ(result.output.find("leaked nothing"), std::string::npos) << result.output;
}

// A block kept on purpose for later tests, inside allocgate::KeptAcrossTests,
// is one-time initialisation: apart from the test's figures. The same block
// kept without it is counted and kept (the cache reaches it), no leak.
TEST_F(ZeroCodeTests, KeptAcrossTestsIsOneTimeAndAReachableBlockIsKept) {
  const auto result =
      run(kKeptSuite +
          " --gtest_filter=-Order.*:Files.*:Stale.* --allocgate_fail_on_leak --allocgate_out=" + path("k.json"));
  EXPECT_EQ(result.code, 0) << result.output;
  const auto tests = by_name(read_json(path("k.json")));
  const json& kept = tests.at("Interning.KeptOnPurposeIsNotALeak");
  const json& unsaid = tests.at("Interning.KeptWithoutSayingSoIsKept");
  // Each: the interned string (moved into the set's node), the node, and
  // the lookup's temporary string, freed. Inside KeptAcrossTests the first
  // two are one-time.
  const std::uint64_t lookup = long_string(40);
  EXPECT_EQ(kept.at("allocs/op"), 1);
  EXPECT_EQ(kept.at("bytes/op"), lookup);
  EXPECT_EQ(kept.at("allocgate_one_time_allocs"), 2);
  EXPECT_EQ(kept.at("allocgate_one_time_bytes").get<std::uint64_t>() + lookup,
            unsaid.at("bytes/op").get<std::uint64_t>());
  EXPECT_EQ(kept.at("leaked_bytes/op"), 0);
  EXPECT_EQ(kept.at("allocgate_kept_bytes"), 0);
  EXPECT_EQ(unsaid.at("allocs/op"), 3);
  EXPECT_EQ(unsaid.at("leaked_bytes/op"), 0);
  EXPECT_EQ(unsaid.at("allocgate_kept_bytes").get<std::uint64_t>(),
            unsaid.at("bytes/op").get<std::uint64_t>() - lookup);
  EXPECT_EQ(unsaid.at("allocgate_kept_blocks"), 2);
  // A static built in a shared library, on the test's call: one-time.
  const json& library_static = tests.at("Statics.AStaticInASharedLibraryIsNotALeak");
  EXPECT_EQ(library_static.at("allocs/op"), 0);
  EXPECT_EQ(library_static.at("allocgate_one_time_allocs"), 1);
  EXPECT_EQ(library_static.at("allocgate_one_time_bytes"), long_string(64));
  EXPECT_EQ(library_static.at("leaked_bytes/op"), 0);
}

// A cache filled by whichever test uses it first: its node and key are
// that test's, kept, until the run warms up. Warmed up, each test's figures
// are its lookup's alone, whole, alone or sharded, and what its first run
// allocated beyond them is one-time. The global locale keeps what it holds.
TEST_F(ZeroCodeTests, AWarmUpMakesACachesFiguresTheSameWholeShardedAndAlone) {
  const std::string cache = kKeptSuite + " --gtest_filter=Cache.* --allocgate_fail_on_leak";
  const std::uint64_t lookup = long_string(40);
  const std::uint64_t entry = [] {  // a map node with a 40-character key and a size_t, and the key's characters
    std::map<std::string, std::size_t> m;
    const std::string key(40, 'k');
    allocgate::AllocationScope scope;
    m.try_emplace(key, key.size());
    return scope.stats().bytes_allocated;
  }();
  ASSERT_EQ(run(cache + " --allocgate_out=" + path("cold.json")).code, 0);
  const auto cold = by_name(read_json(path("cold.json")));
  expect_figures(cold, "Cache.FirstUser", {3, lookup + entry, 0, 0});
  EXPECT_EQ(cold.at("Cache.FirstUser").at("allocgate_kept_blocks"), 2);
  EXPECT_EQ(cold.at("Cache.FirstUser").at("allocgate_kept_bytes"), entry);
  expect_figures(cold, "Cache.SecondUser", {1, lookup, 0, 0});

  const auto warm = [&](const std::string& flags, const std::string& file) {
    const auto result = run(cache + " --allocgate_warm_up " + flags + " --allocgate_out=" + path(file));
    EXPECT_EQ(result.code, 0) << result.output;
    return by_name(read_json(path(file)));
  };
  const auto whole = warm("", "whole.json");
  const auto alone = warm("--gtest_filter=Cache.SecondUser", "alone.json");
  for (const auto* tests : {&whole, &alone}) {
    for (const auto& [name, entry_json] : *tests) {
      SCOPED_TRACE(name);
      expect_figures(*tests, name, {1, lookup, 0, 0});
      EXPECT_EQ(entry_json.at("repetitions"), 1);  // the warm-up is no repetition of the case
    }
  }
  EXPECT_EQ(alone.count("Cache.FirstUser"), 0u);
  // The first test to run paid for the entry once, in its warm-up: one-time.
  EXPECT_EQ(whole.at("Cache.FirstUser").at("allocgate_one_time_allocs"), 2);
  EXPECT_EQ(whole.at("Cache.FirstUser").at("allocgate_one_time_bytes"), entry);
  EXPECT_EQ(alone.at("Cache.SecondUser").at("allocgate_one_time_allocs"), 2);
  EXPECT_FALSE(whole.at("Cache.SecondUser").contains("allocgate_one_time_allocs"));

  // Shards: each alone in its process, warmed up: the whole run's figures.
  const std::string shards[] = {path("s0.json"), path("s1.json")};
  for (const char* index : {"0", "1"}) {
    const std::string env = std::string("GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=") + index + " ";
    ASSERT_EQ(run(env + cache + " --allocgate_warm_up --allocgate_out=" + shards[*index - '0']).code, 0);
  }
  for (const std::string& shard : shards) {
    for (const auto& [name, e] : by_name(read_json(shard))) {
      expect_figures(whole, name, {e.at("allocs/op"), e.at("bytes/op"), 0, 0});
    }
  }

  // The global locale: what the test made it hold is kept, not leaked.
  ASSERT_EQ(
      run(kKeptSuite + " --gtest_filter=Locale.* --allocgate_fail_on_leak --allocgate_out=" + path("l.json")).code, 0);
  const json locale = by_name(read_json(path("l.json"))).at("Locale.KeptByTheGlobalLocale");
  EXPECT_EQ(locale.at("leaked_bytes/op"), 0);
  EXPECT_GT(locale.at("allocgate_kept_blocks").get<std::uint64_t>(), 1u);  // the facet, the locale's own
}

TEST_F(ZeroCodeTests, ShardsMergeIntoTheWholeRunAndTheGatePassesThemOnItsBounds) {
  const std::string allocgate = ALLOCGATE_BIN;
  const std::string filter = " --gtest_filter=-Failures.*:Death.*";
  ASSERT_EQ(run(kSuite + filter + " --allocgate_out=" + path("whole.json")).code, 0);
  ASSERT_EQ(run(allocgate + " diff " + path("whole.json") + " --bounds " + path("bounds.json") + " --update").code, 0);
  for (int shard = 0; shard < 3; ++shard) {
    const std::string env = "GTEST_TOTAL_SHARDS=3 GTEST_SHARD_INDEX=" + std::to_string(shard) +
                            " ALLOCGATE_OUT=" + path("shard" + std::to_string(shard) + ".json ");
    ASSERT_EQ(run(env + kSuite + filter).code, 0);
  }
  const auto merged = run(allocgate + " merge " + path("shard2.json") + " " + path("shard0.json") + " " +
                          path("shard1.json") + " --out " + path("merged.json"));
  ASSERT_EQ(merged.code, 0) << merged.output;
  const auto gate = run(allocgate + " diff " + path("merged.json") + " --bounds " + path("bounds.json"));
  EXPECT_EQ(gate.code, 0) << gate.output;
  EXPECT_NE(gate.output.find("0 regression(s)"), std::string::npos) << gate.output;
  EXPECT_NE(gate.output.find("0 case(s) without a bound, 0 bound(s) without a case"), std::string::npos) << gate.output;
  // A shard left out is named, not merged into a report that looks whole.
  const auto partial =
      run(allocgate + " merge " + path("shard0.json") + " " + path("shard1.json") + " --out " + path("partial.json"));
  EXPECT_EQ(partial.code, 2);
  EXPECT_NE(partial.output.find("shard 3/3 is missing"), std::string::npos) << partial.output;
}

// As ctest runs a gtest_discover_tests binary: a process per test.
TEST_F(ZeroCodeTests, ADirectoryGetsAReportPerProcessThatMergeJoins) {
  std::filesystem::create_directories(path("reports"));
  for (const char* test : {"Strings.*", "Vectors.*", "Sizes/*"}) {
    ASSERT_EQ(run("ALLOCGATE_OUT=" + path("reports") + " " + kSuite + " --gtest_filter=" + test).code, 0);
  }
  const auto merged =
      run(std::string(ALLOCGATE_BIN) + " merge " + path("reports") + "/*.json --out " + path("merged.json"));
  ASSERT_EQ(merged.code, 0) << merged.output;
  EXPECT_NE(merged.output.find("4 cases from 3 reports"), std::string::npos) << merged.output;
  // Joined as they were written: every key of every test's entry kept.
  const json merged_report = read_json(path("merged.json"));
  const json vectors = by_name(merged_report).at("Vectors.ReserveThenPush");
  EXPECT_EQ(vectors.at("allocs/op"), 1);
  EXPECT_EQ(vectors.at("bytes/op"), 10 * sizeof(int));
  EXPECT_EQ(vectors.at("leaked_bytes/op"), 0);
  for (const char* key : {"allocgate_leaked_blocks", "allocgate_kept_bytes", "allocgate_kept_blocks", "peak_bytes"}) {
    EXPECT_TRUE(vectors.contains(key)) << key;
  }
  const auto merged_entries = by_name(merged_report);
  std::size_t entries = 0;
  for (const auto& file : std::filesystem::directory_iterator(path("reports"))) {
    if (file.path().extension() != ".json") continue;  // the commit kept for the next process
    for (const auto& [name, entry] : by_name(read_json(file.path().string()))) {
      EXPECT_EQ(merged_entries.at(name), entry) << name;
      ++entries;
    }
  }
  EXPECT_EQ(entries, 4u);
  EXPECT_EQ(merged_report.at("benchmarks").size(), 4u);
}

TEST_F(ZeroCodeTests, ABoundsFileLimitGatesEveryTestWithoutListingThem) {
  const std::string allocgate = ALLOCGATE_BIN;
  ASSERT_EQ(run(kSuite + " --gtest_filter=Leaks.*:Statics.*:Strings.* --allocgate_out=" + path("t.json")).code, 0);
  const std::string toolchain = read_json(path("t.json")).at("context").at("allocgate_toolchain");
  json bounds = {{"allocgate_bounds_version", 1}, {"toolchains", {{toolchain, json::object()}}}};
  bounds["limits"] = json::array(
      {{{"leaked_bytes_per_op", 0}, {"note", "no test leaks"}}, {{"cases", "Strings\\..*"}, {"allocs_per_op", 2}}});
  std::ofstream(path("bounds.json")) << bounds.dump();
  const auto gate = run(allocgate + " diff " + path("t.json") + " --bounds " + path("bounds.json"));
  EXPECT_EQ(gate.code, 1) << gate.output;
  const std::string leaked = std::to_string(sizeof(std::string) + long_string(100));
  EXPECT_NE(gate.output.find("REGRESSION Leaks.ADeliberateLeak: leaked_bytes_per_op " + leaked +
                             " > limit 0 (every case: no test leaks)"),
            std::string::npos)
      << gate.output;
  EXPECT_NE(gate.output.find("REGRESSION Leaks.FreesAnOlderBlockAndLeaksANewOne"), std::string::npos);
  EXPECT_EQ(gate.output.find("REGRESSION Statics"), std::string::npos) << gate.output;
  EXPECT_EQ(gate.output.find("REGRESSION Strings"), std::string::npos) << gate.output;  // 2 allocs: within
  // A pattern that is not RE2 is refused in one line, naming it.
  bounds["limits"] = json::array({{{"cases", "("}, {"allocs_per_op", 0}}});
  std::ofstream(path("bad.json")) << bounds.dump();
  const auto refused = run(allocgate + " diff " + path("t.json") + " --bounds " + path("bad.json"));
  EXPECT_EQ(refused.code, 2) << refused.output;
  EXPECT_NE(refused.output.find("limits: cases '(' is not an RE2 pattern"), std::string::npos) << refused.output;
}

// argv[0] is the report's executable: a path that is not UTF-8 is written
// with replacement characters, never a report lost after every test passed.
TEST_F(ZeroCodeTests, AnExecutablePathThatIsNotUtf8KeepsTheReport) {
  const std::string dir = path("build-caf\xe9");
  std::filesystem::create_directories(dir);
  std::filesystem::create_symlink(kSuite, dir + "/tests");
  const auto result = run("'" + dir + "/tests' --gtest_filter=Strings.* --allocgate_out=" + path("u.json"));
  ASSERT_EQ(result.code, 0) << result.output;
  const json report = read_json(path("u.json"));
  EXPECT_EQ(report.at("context").at("executable"), path("build-caf\uFFFD/tests"));
  EXPECT_EQ(by_name(report).count("Strings.CopyOfALongString"), 1u);
}

TEST_F(ZeroCodeTests, ListingTheTestsWritesNoReport) {
  const auto listed = run(kSuite + " --gtest_list_tests --allocgate_out=" + path("l.json"));
  EXPECT_EQ(listed.code, 0) << listed.output;
  EXPECT_FALSE(std::filesystem::exists(path("l.json")));
}

TEST_F(ZeroCodeTests, ARepeatedTestIsARunPerRepeat) {
  ASSERT_EQ(run(kSuite + " --gtest_filter=Strings.* --gtest_repeat=3 --allocgate_out=" + path("r.json")).code, 0);
  const json report = read_json(path("r.json"));
  ASSERT_EQ(report.at("benchmarks").size(), 3u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(report["benchmarks"][i]["repetition_index"], i);
    EXPECT_EQ(report["benchmarks"][i]["allocs/op"], 2);
  }
}

// The report goes where its path leads, and replaces nothing the path names
// but a report: through a symlink (the link stays), into a FIFO in place
// (its reader gets the report, the FIFO stays), over a file keeping its
// mode; a write that fails fails the run, though every test passed.
TEST_F(ZeroCodeTests, TheReportIsWrittenWhereItsPathLeadsAndAFailedWriteFailsTheRun) {
  const std::string filter = " --gtest_filter=Strings.* --allocgate_out=";
  std::filesystem::create_directory(path("kept"));
  std::filesystem::create_symlink("kept/real.json", path("link.json"));
  ASSERT_EQ(run(kSuite + filter + path("link.json")).code, 0);
  EXPECT_TRUE(std::filesystem::is_symlink(path("link.json")));
  EXPECT_EQ(read_json(path("kept/real.json")).at("benchmarks").size(), 1u);

  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
  const auto through_fifo =
      run("cat " + path("fifo") + " >" + path("from_fifo.json") + " & " + kSuite + filter + path("fifo") + " && wait");
  EXPECT_EQ(through_fifo.code, 0) << through_fifo.output;
  EXPECT_TRUE(std::filesystem::is_fifo(path("fifo")));
  EXPECT_EQ(read_json(path("from_fifo.json")).at("benchmarks").size(), 1u);

  write("read_only.json", "{}");
  std::filesystem::permissions(path("read_only.json"), std::filesystem::perms::owner_read |
                                                           std::filesystem::perms::group_read |
                                                           std::filesystem::perms::others_read);
  ASSERT_EQ(run(kSuite + filter + path("read_only.json")).code, 0);
  EXPECT_EQ(
      std::filesystem::status(path("read_only.json")).permissions() & std::filesystem::perms::all,
      std::filesystem::perms::owner_read | std::filesystem::perms::group_read | std::filesystem::perms::others_read);
  EXPECT_EQ(read_json(path("read_only.json")).at("benchmarks").size(), 1u);

  // A path naming a descriptor (as /dev/stdout does) is the program's own
  // output: the report is appended to it, the file behind it not replaced.
  write("output.txt", "before\n");
  const auto inode = [&] {
    struct stat st {};
    ::stat(path("output.txt").c_str(), &st);
    return st.st_ino;
  };
  const ino_t before = inode();
  ASSERT_EQ(run(kSuite + filter + "/proc/self/fd/3 3>>" + path("output.txt")).code, 0);
  EXPECT_EQ(inode(), before);
  std::ifstream output(path("output.txt"));
  std::string first;
  std::getline(output, first);
  EXPECT_EQ(first, "before");
  EXPECT_EQ(json::parse(output).at("benchmarks").size(), 1u);

  // A file size limit of 1 KB: the report's write fails as on a full disk.
  const auto full = run("bash -c 'trap \"\" XFSZ; ulimit -f 1; exec " + kSuite + " --gtest_filter=Strings.*:Vectors.*" +
                        " --allocgate_out=" + path("full.json") + "'");
  EXPECT_EQ(full.code, 1) << full.output;
  EXPECT_NE(full.output.find("[  PASSED  ]"), std::string::npos) << full.output;
  EXPECT_NE(full.output.find("allocgate: report: " + path("full.json") + ": "), std::string::npos) << full.output;
  EXPECT_FALSE(std::filesystem::exists(path("full.json")));
}

// A directory gets a report a process, as ctest runs each test: the first
// process asks git for the commit, the next ones of the same binary in the
// same work tree read what it kept, with no git run (none on the PATH here),
// while what it depends on is unchanged.
TEST_F(ZeroCodeTests, AProcessATestAsksGitOnceForTheCommit) {
  if (run("git -C " + std::string(ALLOCGATE_SOURCE_DIR) + " rev-parse --verify HEAD").code != 0) {
    GTEST_SKIP() << "built outside a git work tree";
  }
  std::filesystem::create_directory(path("reports"));
  const std::string suite = kSuite + " --gtest_filter=Strings.* --allocgate_out=" + path("reports");
  ASSERT_EQ(run(suite).code, 0);
  ASSERT_EQ(run("env PATH=/nonexistent " + suite).code, 0);
  std::vector<json> reports;
  for (const auto& entry : std::filesystem::directory_iterator(path("reports"))) {
    if (entry.path().extension() == ".json") reports.push_back(read_json(entry.path().string()));
  }
  ASSERT_EQ(reports.size(), 2u);
  const json& first = reports[0].at("context");
  ASSERT_TRUE(first.contains("git_commit")) << first.dump();
  EXPECT_EQ(reports[1].at("context").value("git_commit", ""), first.at("git_commit"));
  EXPECT_EQ(reports[1].at("context").value("git_dirty", ""), first.value("git_dirty", ""));

  // What was kept for another executable, or another state, is not read.
  const std::string kept = path("reports/.allocgate-git-state");
  std::ifstream in(kept);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  in.close();
  ASSERT_NE(text.find(first.at("git_commit").get<std::string>()), std::string::npos) << text;
  for (const auto& entry : std::filesystem::directory_iterator(path("reports"))) {
    if (entry.path().extension() == ".json") std::filesystem::remove(entry.path());
  }
  write("reports/.allocgate-git-state", "another" + text);
  ASSERT_EQ(run("env PATH=/nonexistent " + suite).code, 0);
  for (const auto& entry : std::filesystem::directory_iterator(path("reports"))) {
    if (entry.path().extension() != ".json") continue;
    EXPECT_FALSE(read_json(entry.path().string()).at("context").contains("git_commit")) << entry.path();
  }
}

// A program in no work tree, run from none (a build tree outside any
// checkout): git is not started at all, where each process of a suite run a
// test a process would pay its start twice for no answer.
TEST_F(ZeroCodeTests, AProgramOutsideAnyWorkTreeStartsNoGit) {
  for (std::filesystem::path at = dir_; !at.empty(); at = at.parent_path()) {
    if (std::filesystem::exists(at / ".git")) GTEST_SKIP() << "the scratch directory is in a work tree: " << at;
    if (at == at.root_path()) break;
  }
  std::filesystem::copy_file(kSuite, path("suite"));
  std::filesystem::permissions(path("suite"), std::filesystem::perms::owner_exec, std::filesystem::perm_options::add);
  std::filesystem::create_directory(path("bin"));
  write("bin/git", "#!/bin/sh\necho \"$@\" >>" + path("git-runs") + "\nexit 1\n");
  std::filesystem::permissions(path("bin/git"), std::filesystem::perms::owner_exec, std::filesystem::perm_options::add);
  const auto counted = run("cd " + path(".") + " && env PATH=" + path("bin") + ":/usr/bin:/bin ./suite" +
                           " --gtest_filter=Strings.* --allocgate_out=" + path("r.json"));
  ASSERT_EQ(counted.code, 0) << counted.output;
  EXPECT_FALSE(read_json(path("r.json")).at("context").contains("git_commit"));
  EXPECT_FALSE(std::filesystem::exists(path("git-runs")));
  // The same program beside a .git (a file, as a worktree has): git is asked.
  write(".git", "gitdir: " + path("nowhere") + "\n");
  ASSERT_EQ(run("cd " + path(".") + " && env PATH=" + path("bin") + ":/usr/bin:/bin ./suite" +
                " --gtest_filter=Strings.* --allocgate_out=" + path("r.json"))
                .code,
            0);
  EXPECT_TRUE(std::filesystem::exists(path("git-runs")));
}

TEST_F(ZeroCodeTests, BadFlagsAndUnwritableReportsAreRefusedBeforeAnyTestRuns) {
  const auto unknown = run(kSuite + " --allocgate_outt=x.json");
  EXPECT_EQ(unknown.code, 1);
  EXPECT_NE(unknown.output.find("unknown flag --allocgate_outt"), std::string::npos) << unknown.output;
  const auto bad = run("ALLOCGATE_FAIL_ON_LEAK=maybe " + kSuite);
  EXPECT_EQ(bad.code, 1);
  EXPECT_NE(bad.output.find("ALLOCGATE_FAIL_ON_LEAK takes 1 or 0"), std::string::npos) << bad.output;
  const auto unwritable = run(kSuite + " --allocgate_out=" + path("missing/dir/r.json"));
  EXPECT_EQ(unwritable.code, 1);
  EXPECT_NE(unwritable.output.find("cannot write"), std::string::npos) << unwritable.output;
  EXPECT_EQ(unwritable.output.find("[ RUN      ]"), std::string::npos) << unwritable.output;
}

}  // namespace
