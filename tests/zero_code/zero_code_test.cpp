// SPDX-License-Identifier: Apache-2.0
// A suite written as Google Benchmark's guide writes one (docs_style_bench.cpp),
// linked the ways a team links it, counted with no line of allocgate's in it:
// exact whole allocs/op for every benchmark, bounds recorded at one iteration
// count that hold at another, and an error naming the cause for each way the
// link can go wrong.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "command.h"
#include "report.h"

namespace {

using allocgate::reports::CaseIndex;
using allocgate::reports::read_report;
using allocgate::reports::Report;
using allocgate::reports::testing::Result;
using allocgate::reports::testing::run;
using allocgate::reports::testing::ScratchDirTest;

// What each benchmark's loop allocates per iteration, by construction. Setup,
// teardown, fixtures, paused sections and counters set after the loop are
// all outside it.
const std::map<std::string, double> kAllocsPerOp{
    {"BM_StringCreation", 0},
    {"BM_StringCopy", 0},  // "hello" fits the small-string buffer
    {"BM_memcpy/8", 0},
    {"BM_memcpy/64", 0},
    {"BM_memcpy/512", 0},
    {"BM_memcpy/4096", 0},
    {"BM_memcpy/8192", 0},
    {"BM_vector_push_back", 1},
    {"BM_SetInsert_With_Timer_Control/64/16", 16},  // one node per insert; the set built while paused
    {"BM_SetInsert_With_Timer_Control/512/16", 16},
    {"BM_SetInsert_With_Timer_Control/64/64", 64},
    {"BM_SetInsert_With_Timer_Control/512/64", 64},
    {"BM_MultiThreaded/threads:2", 1},
    {"MyFixture/BarTest/100/repeats:3", 1},
    {"BM_KeepRunning/iterations:1000", 1},
    {"UserCountersExample1", 0},
};

class ZeroCode : public ScratchDirTest {
 protected:
  // The suite's JSON, run with these flags; fails the test on a non-zero exit.
  std::string run_suite(const std::string& binary, const std::string& name, const std::string& flags = "") {
    const std::string json = path(name);
    const Result r = run(binary + " --benchmark_min_time=0.002 " + flags + " --benchmark_out=" + json);
    EXPECT_EQ(r.code, 0) << r.output;
    return json;
  }

  static void expect_exact_figures(const Report& report) {
    EXPECT_EQ(report.cases.size(), kAllocsPerOp.size()) << report.source_summary;
    for (const auto& c : report.cases) {
      ASSERT_TRUE(kAllocsPerOp.count(c.name)) << c.name;
      EXPECT_EQ(c.allocs_per_op, kAllocsPerOp.at(c.name)) << c.name;
      EXPECT_FALSE(c.allocs_per_op_min.has_value()) << c.name;  // the same in every repetition
      ASSERT_TRUE(c.bytes_per_op.has_value()) << c.name;
      EXPECT_EQ(std::floor(*c.bytes_per_op), *c.bytes_per_op) << c.name;
    }
  }

  // The command ran to exit 2, saying `message`.
  static void expect_refused(const Result& r, const std::string& message) {
    EXPECT_EQ(r.code, 2) << r.output;
    EXPECT_NE(r.output.find(message), std::string::npos) << r.output;
  }

  const std::string allocgate_ = ALLOCGATE_BIN;
};

TEST_F(ZeroCode, EveryBenchmarkReportsExactFiguresAndBoundsHoldAtAnotherIterationCount) {
  const std::string few = run_suite(ZERO_CODE_BENCH, "few.json");
  const std::string many = run_suite(ZERO_CODE_BENCH, "many.json", "--benchmark_min_time=0.05");
  const Report few_report = read_report(few), many_report = read_report(many);
  expect_exact_figures(few_report);
  expect_exact_figures(many_report);
  // A timed stretch holds what it inserted: the peak is one iteration's nodes,
  // not what the paused sections freed.
  for (const auto* name : {"BM_SetInsert_With_Timer_Control/64/16", "BM_SetInsert_With_Timer_Control/512/64"}) {
    const auto insert = CaseIndex(many_report).find(name);
    ASSERT_TRUE(insert.has_value()) << name;
    EXPECT_EQ(insert->peak_bytes, insert->bytes_per_op) << name;
  }
  // The two runs did take different iteration counts.
  const auto push_back_few = CaseIndex(few_report).find("BM_vector_push_back");
  const auto push_back_many = CaseIndex(many_report).find("BM_vector_push_back");
  ASSERT_TRUE(push_back_few.has_value());
  ASSERT_TRUE(push_back_many.has_value());
  EXPECT_LT(*push_back_few->iterations * 5, *push_back_many->iterations);

  const std::string bounds = path("bounds.json");
  const Result update = run(allocgate_ + " diff --update --bounds " + bounds + " " + few);
  ASSERT_EQ(update.code, 0) << update.output;
  EXPECT_NE(update.output.find(std::to_string(kAllocsPerOp.size()) + " change(s)"), std::string::npos) << update.output;
  const Result gate = run(allocgate_ + " diff --bounds " + bounds + " " + many);
  EXPECT_EQ(gate.code, 0) << gate.output;
  EXPECT_NE(gate.output.find("0 regression(s), 0 improved, " + std::to_string(kAllocsPerOp.size()) + " ok"),
            std::string::npos)
      << gate.output;
}

// BENCHMARK_MAIN() of its own, linked with allocgate::benchmark: the same
// figures, the context that names the toolchain for the gate, and the sites.
TEST_F(ZeroCode, ASuiteWithItsOwnMainIsCountedAndNamesItsToolchain) {
  const Report report = read_report(run_suite(ZERO_CODE_BENCH_OWN_MAIN, "own.json"));
  expect_exact_figures(report);
  EXPECT_FALSE(report.toolchain().empty());
  const Report with_sites = read_report(
      run_suite(ZERO_CODE_BENCH_OWN_MAIN, "sites.json", "--allocgate_sites --benchmark_filter=BM_vector_push_back"));
  ASSERT_EQ(with_sites.cases.size(), 1u);
  ASSERT_FALSE(with_sites.cases[0].sites.empty());
  EXPECT_EQ(with_sites.cases[0].sites[0].allocs_per_op, 1);
  const Result malformed = run(std::string(ZERO_CODE_BENCH_OWN_MAIN) + " --allocgate_sites=yes");
  EXPECT_EQ(malformed.code, 1) << malformed.output;  // as allocgate's main and Google Benchmark's refuse a flag
  EXPECT_NE(malformed.output.find("allocgate: --allocgate_sites takes true or false, not 'yes'"), std::string::npos)
      << malformed.output;
}

// A main that takes an argument of its own and gives Google Benchmark no
// flags: the environment turns the sites on, as BENCHMARK_OUT names the file.
TEST_F(ZeroCode, AMainThatTakesNoFlagsGetsSitesFromTheEnvironment) {
  const std::string json = path("env.json");
  const std::string environment =
      "ALLOCGATE_SITES=1 BENCHMARK_FILTER=BM_vector_push_back BENCHMARK_MIN_TIME=0.002 BENCHMARK_OUT=" + json + " ";
  const Result r = run(environment + ZERO_CODE_BENCH_OWN_ARGS + " full");
  ASSERT_EQ(r.code, 0) << r.output;
  // The console's counters are columns of exact figures, as allocgate's main
  // prints them, not Google Benchmark's "allocs/op=1".
  EXPECT_NE(r.output.find("   allocs/op"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("allocs/op="), std::string::npos) << r.output;
  const Report report = read_report(json);
  ASSERT_EQ(report.cases.size(), 1u);
  ASSERT_FALSE(report.cases[0].sites.empty());
  EXPECT_EQ(report.cases[0].sites[0].allocs_per_op, 1);

  // The overload with a spec string is counted, and says its sites are not written.
  const Result spec = run(environment + ZERO_CODE_BENCH_OWN_ARGS + " spec");
  ASSERT_EQ(spec.code, 0) << spec.output;
  EXPECT_NE(spec.output.find("allocgate: --allocgate_sites: some benchmarks' sites were not written: this main runs "
                             "them through benchmark::RunSpecifiedBenchmarks(spec)"),
            std::string::npos)
      << spec.output;
  EXPECT_EQ(read_report(json).cases[0].allocs_per_op, 1);

  // A main that never calls benchmark::Initialize: counted, the context and
  // the sites there, and what is not read said.
  const Result uninitialized = run(environment + ZERO_CODE_BENCH_OWN_ARGS + " uninitialized");
  ASSERT_EQ(uninitialized.code, 0) << uninitialized.output;
  EXPECT_NE(uninitialized.output.find("allocgate: this main calls benchmark::RunSpecifiedBenchmarks without "
                                      "benchmark::Initialize: neither Google Benchmark's flags nor allocgate's"),
            std::string::npos)
      << uninitialized.output;
  const Report without = read_report(json);
  ASSERT_EQ(without.cases.size(), 1u);
  EXPECT_EQ(without.cases[0].allocs_per_op, 1);
  ASSERT_FALSE(without.cases[0].sites.empty());
  EXPECT_FALSE(without.toolchain().empty());
  const Result checked = run(std::string(ALLOCGATE_BIN) + " diff " + json);
  EXPECT_EQ(checked.output.find("not linked with allocgate::benchmark"), std::string::npos) << checked.output;

  const Result malformed = run("ALLOCGATE_SITES=yes " + std::string(ZERO_CODE_BENCH_OWN_ARGS) + " full");
  EXPECT_EQ(malformed.code, 1) << malformed.output;
  EXPECT_NE(malformed.output.find("allocgate: ALLOCGATE_SITES takes 1 or 0 (true or false), not 'yes'"),
            std::string::npos)
      << malformed.output;
}

// With repetitions, the _cv row gives each counter's spread in percent, as
// the time columns do, and "-" where the figure is 0 in every repetition
// (0/0), never "-nan".
TEST_F(ZeroCode, RepetitionsPrintTheCountersSpreadInPercent) {
  const Result r = run(std::string(ZERO_CODE_BENCH) +
                       " --benchmark_filter='^(BM_StringCopy|BM_vector_push_back)$' --benchmark_repetitions=3"
                       " --benchmark_min_time=0.002");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(r.output.find("nan"), std::string::npos) << r.output;
  std::map<std::string, std::string> cv_rows;  // the row's name -> its counter columns
  std::istringstream lines(r.output);
  for (std::string line; std::getline(lines, line);) {
    const std::string name = line.substr(0, line.find(' '));
    if (name.size() > 3 && name.compare(name.size() - 3, 3, "_cv") == 0) {
      // The counters follow the iteration count, which the cv row gives as 3.
      cv_rows[name] = line.substr(line.rfind(" 3 ") + 3);
    }
  }
  ASSERT_EQ(cv_rows.size(), 2u) << r.output;
  // "hello" allocates nothing: no spread of nothing.
  EXPECT_THAT(cv_rows["BM_StringCopy_cv"], testing::MatchesRegex(" *- +- +- +-")) << r.output;
  // One allocation of 4 bytes in every repetition, none leaked.
  EXPECT_THAT(cv_rows["BM_vector_push_back_cv"], testing::MatchesRegex(" *0.00 % +0.00 % +0.00 % +-")) << r.output;
}

// A ->Threads(2) benchmark's threads run one call path: its stacks are one
// stack of 1 allocs/op from the benchmark function in, not one per thread at
// 0.5 each (their runner frames differ: the main thread's, a new thread's).
TEST_F(ZeroCode, AThreadedBenchmarksCallPathIsOneStack) {
  const std::string json = run_suite(ZERO_CODE_BENCH, "threads.json", "--allocgate_sites --benchmark_filter=BM_Multi");
  std::ifstream in(json);
  const nlohmann::json entry = nlohmann::json::parse(in)["benchmarks"].at(0);
  ASSERT_EQ(entry["name"], "BM_MultiThreaded/threads:2");
  const nlohmann::json& stacks = entry["stacks"];
  ASSERT_EQ(stacks.size(), 1u) << stacks.dump(1);
  EXPECT_EQ(stacks[0]["allocs_per_op"], 1) << stacks.dump(1);
  // Outermost first: the benchmark's own function, never the runner's or main.
  EXPECT_EQ(stacks[0]["frames"].at(0), "BM_MultiThreaded") << stacks.dump(1);
}

// `allocgate profile` reads a user's benchmark JSON: each site of a case with
// its share of the case's figures.
TEST_F(ZeroCode, ProfileReadsTheSitesOfAUsersBenchmarkJson) {
  const std::string json = run_suite(ZERO_CODE_BENCH, "sites.json",
                                     "--allocgate_sites --benchmark_filter='BM_vector_push_back|BM_SetInsert'");
  const Result r = run(allocgate_ + " profile " + json + " BM_SetInsert_With_Timer_Control/512/64");
  ASSERT_EQ(r.code, 0) << r.output;
  // 64 inserts, one node each, all in the benchmark's own line.
  EXPECT_THAT(r.output, testing::HasSubstr("BM_SetInsert_With_Timer_Control/512/64 (" + json + "): 64 allocs/op, "))
      << r.output;
  EXPECT_THAT(r.output, testing::ContainsRegex("by count \\(each site's share of the case's allocs/op and B/op\\):\n"
                                               "  64 allocs/op \\(100%\\), [0-9.]+ temporary, [0-9]+ B/op \\(100%\\): "
                                               "BM_SetInsert_With_Timer_Control \\(tests/zero_code/"
                                               "docs_style_bench.cpp:[0-9]+\\)\n"))
      << r.output;
  const Result unknown = run(allocgate_ + " profile " + json + " BM_vector_pushback");
  EXPECT_EQ(unknown.code, 2);
  EXPECT_THAT(unknown.output,
              testing::HasSubstr("no case named 'BM_vector_pushback'; did you mean BM_vector_push_back?"));
  const Result without_sites =
      run(allocgate_ + " profile " +
          run_suite(ZERO_CODE_BENCH, "plain.json", "--benchmark_filter=BM_vector_push_back") + " BM_vector_push_back");
  EXPECT_EQ(without_sites.code, 2);
  EXPECT_THAT(without_sites.output, testing::HasSubstr("BM_vector_push_back has no sites: run the benchmark with "
                                                       "--allocgate_sites"));
  const Result file_alone = run(allocgate_ + " profile " + json);
  EXPECT_EQ(file_alone.code, 2);
  EXPECT_THAT(file_alone.output, testing::HasSubstr("is a file: name the case in it too"));
}

// benchmark::benchmark_main linked ahead of allocgate::benchmark_main: allocgate's
// main runs, its flags work, its context is written.
TEST_F(ZeroCode, AllocgatesMainWinsOverGoogleBenchmarksLinkedBeforeIt) {
  const std::string json =
      run_suite(ZERO_CODE_BENCH_BOTH_MAINS, "both.json", "--allocgate_sites --benchmark_filter=BM_vector_push_back");
  const Report report = read_report(json);
  ASSERT_EQ(report.cases.size(), 1u);
  EXPECT_FALSE(report.toolchain().empty());
  EXPECT_FALSE(report.cases[0].sites.empty());
}

// A suite linked with Google Benchmark alone: the gate says what is missing.
TEST_F(ZeroCode, AReportFromAnotherMainIsRefusedNamingTheCause) {
  const std::string json = run_suite(ZERO_CODE_BENCH_PLAIN, "plain.json");
  expect_refused(run(allocgate_ + " diff --bounds " + path("none.json") + " " + json),
                 "no benchmark reports allocs/op: the program that wrote it was not linked with allocgate::benchmark "
                 "or allocgate::benchmark_main");
}

// A benchmark whose loop is in a shared library cannot be counted: said, with
// the cause, and the run fails rather than pass without its figures.
TEST_F(ZeroCode, ABenchmarkInASharedLibraryIsNamedAsUncounted) {
  const Result r =
      run(std::string(ZERO_CODE_BENCH_LIBRARY) + " --benchmark_filter='BM_InALibrary|BM_vector_push_back'");
  expect_refused(r,
                 "allocgate: BM_InALibrary/iterations:10 reports no allocation counters: its loop is in a shared "
                 "library or plugin");
  EXPECT_EQ(r.output.find("allocgate: BM_vector_push_back reports no"), std::string::npos) << r.output;
}

// Google Benchmark's main() as a shared library, loaded beside allocgate's:
// allocgate's runs (the executable's symbols come first), and refuses to go on
// with two, naming the other.
TEST_F(ZeroCode, ASharedBenchmarkMainBesideAllocgatesIsNamed) {
  const Result r = run(std::string(ZERO_CODE_BENCH_SHARED_MAIN) + " --benchmark_filter=BM_vector_push_back");
  expect_refused(r, "allocgate: two main()s are linked: allocgate::benchmark_main's and Google Benchmark's (");
  EXPECT_NE(r.output.find("libbenchmark_main_shared.so"), std::string::npos) << r.output;
}

}  // namespace

namespace {

using allocgate::reports::read_report;
using allocgate::reports::testing::Result;
using allocgate::reports::testing::run;

class GitContext : public allocgate::reports::testing::ScratchDirTest {
 protected:
  // The suite, copied into a git work tree of its own with one commit.
  void SetUp() override {
    ScratchDirTest::SetUp();
    const std::string git = "git -C " + dir_.string() + " -c user.name=t -c user.email=t@example.invalid ";
    ASSERT_EQ(run(git + "init -q").code, 0);
    write("tracked.txt", "one\n");
    ASSERT_EQ(run(git + "add tracked.txt && " + git + "commit -qm one").code, 0);
    head_ = run("git -C " + dir_.string() + " rev-parse HEAD").output;
    head_.pop_back();
    ASSERT_EQ(run("cp " + std::string(ZERO_CODE_BENCH) + " " + path("bench")).code, 0);
  }

  nlohmann::json context_of_run(const std::string& environment = "") {
    const std::string json = path("bench.json");
    const Result r = run(environment + " " + path("bench") +
                         " --benchmark_filter=BM_vector_push_back --benchmark_min_time=0.002 --benchmark_out=" + json);
    EXPECT_EQ(r.code, 0) << r.output;
    std::ifstream in(json);
    return nlohmann::json::parse(in)["context"];
  }

  std::string head_;
};

// The commit the suite measured is in its context, so `history add` files
// the run under it with no flag; a tree with changes says so.
TEST_F(GitContext, TheCommitAndAChangedTreeAreInTheContext) {
  nlohmann::json context = context_of_run("env -u ALLOCGATE_GIT_COMMIT -u GITHUB_SHA");
  EXPECT_EQ(context.value("git_commit", ""), head_);
  EXPECT_EQ(context.value("git_dirty", ""), "false");
  const Result added = run(std::string(ALLOCGATE_BIN) + " history --db " + path("h.db") + " add " + path("bench.json"));
  EXPECT_EQ(added.code, 0) << added.output;

  write("tracked.txt", "two\n");
  context = context_of_run("env -u ALLOCGATE_GIT_COMMIT -u GITHUB_SHA");
  EXPECT_EQ(context.value("git_commit", ""), head_);
  EXPECT_EQ(context.value("git_dirty", ""), "true");

  // CI names the commit it checked out; what is not a commit's name is not used.
  context = context_of_run("ALLOCGATE_GIT_COMMIT=v1.2-rc1");
  EXPECT_EQ(context.value("git_commit", ""), "v1.2-rc1");
  EXPECT_FALSE(context.contains("git_dirty"));
  context = context_of_run("ALLOCGATE_GIT_COMMIT='x\"y'");
  EXPECT_EQ(context.value("git_commit", ""), head_);
}

}  // namespace
