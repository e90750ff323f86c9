// SPDX-License-Identifier: Apache-2.0
// The readers on Google Benchmark's JSON in each shape it takes, written by a
// real benchmark binary (gbench_shapes_bench.cpp) with this machine's Google
// Benchmark: plain, repetitions, aggregates only, threads, manual time, a rate
// counter, a paused timer, an error; and figures no bound can hold.

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "command.h"
#include "json_file.h"
#include "report.h"

namespace {

namespace fs = std::filesystem;
using allocgate::reports::CaseIndex;
using allocgate::reports::Report;

using allocgate::reports::testing::Result;
using allocgate::reports::testing::run;

// What each counted benchmark allocates per iteration, by construction.
const std::map<std::string, double> kAllocsPerOp{
    {"BM_Two/iterations:50", 2},
    {"BM_OnePerThread/iterations:20/threads:2", 1},  // per iteration of each thread
    {"BM_ManualTime/iterations:10/manual_time", 3},
    {"BM_WithRate/iterations:10", 4},
    {"BM_PausedSetup/iterations:10", 1},
    {"BM_KeepRunning/iterations:10", 2},
    {"BM_OwnScope/iterations:10", 3},
};

class GoogleBenchmarkShapes : public ::testing::TestWithParam<std::string> {
 protected:
  // The binary's JSON with these flags.
  std::string write_json(const std::string& flags) {
    // A folder per test: ctest runs them in parallel.
    std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->test_suite_name();
    test += std::string(".") + ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::replace(test.begin(), test.end(), '/', '_');
    dir_ = fs::temp_directory_path() / ("allocgate-gbench-shapes-" + test + "-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    const std::string file = (dir_ / (std::to_string(std::hash<std::string>{}(flags)) + ".json")).string();
    const Result r = run(std::string(ALLOCGATE_SHAPES_BENCH) + " --benchmark_filter=^BM_ " + flags +
                         " --benchmark_out=" + file + " --benchmark_out_format=json");
    EXPECT_EQ(r.code, 0) << r.output;
    return file;
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }
  fs::path dir_;
};

TEST_P(GoogleBenchmarkShapes, EveryCountedBenchmarkHasItsExactFigures) {
  const std::string file = write_json(GetParam());
  const Report report = allocgate::reports::read_report(file);
  ASSERT_EQ(report.cases.size(), kAllocsPerOp.size()) << report.source_summary;
  for (const auto& c : report.cases) {
    ASSERT_TRUE(kAllocsPerOp.count(c.name)) << c.name;
    EXPECT_EQ(c.allocs_per_op, kAllocsPerOp.at(c.name)) << c.name;
    EXPECT_EQ(c.bytes_per_op.value_or(-1), 65 * kAllocsPerOp.at(c.name)) << c.name;  // 64 characters and a NUL
    EXPECT_TRUE(c.ns_median.has_value()) << c.name;
  }
  ASSERT_EQ(report.not_run.size(), 1u);
  EXPECT_EQ(report.not_run[0].name, "BM_Errors");
  EXPECT_TRUE(report.not_run[0].errored);
  EXPECT_EQ(report.not_run[0].message, "no input file");

  const bool aggregates_only = GetParam().find("report_aggregates_only") != std::string::npos;
  EXPECT_EQ(report.source_summary,
            aggregates_only
                ? "0 benchmark(s) from their iteration runs, 7 from their mean aggregate (aggregates only); "
                  "1 errored"
                : "7 benchmark(s) from their iteration runs; 1 errored");
}

// The command says what it used, fails the gate on the error, and reads the
// same figures from every shape: bounds recorded from one shape hold for all.
TEST_P(GoogleBenchmarkShapes, TheCommandGatesComparesAndTabulatesIt) {
  const std::string plain = write_json("");
  const std::string file = write_json(GetParam());
  const std::string bounds = file + ".bounds.json";
  fs::remove(bounds);
  const std::string allocgate = ALLOCGATE_BIN;
  ASSERT_EQ(run(allocgate + " diff --update --bounds " + bounds + " " + plain).code, 0);
  const Result gate = run(allocgate + " diff --bounds " + bounds + " " + file);
  EXPECT_EQ(gate.code, 1) << gate.output;  // BM_Errors errored
  EXPECT_NE(gate.output.find("ERROR BM_Errors: the benchmark reported an error: no input file\n"), std::string::npos)
      << gate.output;
  EXPECT_NE(gate.output.find("0 regression(s), 1 errored, 0 improved, 7 ok"), std::string::npos) << gate.output;
  EXPECT_NE(gate.output.find("allocgate: " + file + ": "), std::string::npos) << gate.output;
  const Result cmp = run(allocgate + " compare " + plain + " " + file);
  EXPECT_EQ(cmp.code, 0) << cmp.output;
  EXPECT_NE(cmp.output.find("BM_Two/iterations:50"), std::string::npos) << cmp.output;
  const Result table = run(allocgate + " table " + file);
  EXPECT_EQ(table.code, 0) << table.output;
  EXPECT_NE(table.output.find("BM_ManualTime/iterations:10/manual_time"), std::string::npos) << table.output;
}

// Figures that would make a flaky bound are refused by --update, one line
// each naming the benchmark and the likely cause, and nothing is written; a
// count that varies between repetitions fails the gate as such.
TEST(GoogleBenchmarkFlakyFigures, AreRefusedByTheUpdateAndFailTheGate) {
  const fs::path dir = fs::temp_directory_path() / ("allocgate-gbench-flaky-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string json = (dir / "bench.json").string(), bounds = (dir / "bounds.json").string();
  const Result bench = run(std::string(ALLOCGATE_SHAPES_BENCH) +
                           " --benchmark_filter=^Flaky_ --benchmark_repetitions=3 --benchmark_out=" + json);
  ASSERT_EQ(bench.code, 0) << bench.output;
  const Report report = allocgate::reports::read_report(json);
  const auto once = CaseIndex(report).find("Flaky_OncePerRun/iterations:1000");
  ASSERT_TRUE(once.has_value());
  EXPECT_EQ(once->allocs_per_op, 0.001);
  EXPECT_FALSE(once->allocs_per_op_min.has_value());  // the same fraction every repetition
  const auto varies = CaseIndex(report).find("Flaky_VariesByRun/iterations:10");
  ASSERT_TRUE(varies.has_value());
  EXPECT_EQ(varies->allocs_per_op, 2);
  EXPECT_EQ(varies->allocs_per_op_min, 1.0);

  const std::string allocgate = ALLOCGATE_BIN;
  const Result update = run(allocgate + " diff --update --bounds " + bounds + " " + json);
  EXPECT_EQ(update.code, 2) << update.output;
  EXPECT_NE(update.output.find("allocgate: not recording Flaky_OncePerRun/iterations:1000: allocs/op 0.001 over 3000 "
                               "iterations is not a whole number, so it changes with the iteration count"),
            std::string::npos)
      << update.output;
  EXPECT_NE(update.output.find("allocgate: not recording Flaky_VariesByRun/iterations:10: allocs/op varies: 1-2 "
                               "allocs/op between repetitions"),
            std::string::npos)
      << update.output;
  EXPECT_FALSE(fs::exists(bounds));

  // Bounds written by hand: without a tolerance the varying count fails.
  std::ofstream(bounds) << R"({"allocgate_bounds_version": 1, "toolchains": {")" << report.toolchain()
                        << R"(": {"Flaky_VariesByRun/iterations:10": {"allocs_per_op": 2},
                                  "Flaky_OncePerRun/iterations:1000": {"allocs_per_op": 0, "tolerance": 0.01}}}})";
  const Result gate = run(allocgate + " diff --bounds " + bounds + " " + json);
  EXPECT_EQ(gate.code, 1) << gate.output;
  EXPECT_NE(gate.output.find("VARIES Flaky_VariesByRun/iterations:10: varies: 1-2 allocs/op between repetitions"),
            std::string::npos)
      << gate.output;
  EXPECT_NE(gate.output.find("0 regression(s), 1 varying, 0 improved, 1 ok"), std::string::npos) << gate.output;
}

// The line that allocates in gbench_shapes_bench.cpp, found by its text.
unsigned allocating_line() {
  return allocgate::reports::testing::line_of(ALLOCGATE_SHAPES_SOURCE, "std::string s(64, 's');");
}

// --allocgate_sites: a user's benchmark regresses, and the gate names the
// user's file and line, relative to the source tree it was built from (the
// git work tree, or the CMake build's source directory: both are this
// checkout's), from whatever directory the benchmark runs in.
TEST(GoogleBenchmarkSites, TheGateNamesTheLineOfAUsersBenchmark) {
  const fs::path dir = fs::temp_directory_path() / ("allocgate-gbench-sites-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string json = (dir / "bench.json").string(), bounds = (dir / "bounds.json").string();
  const Result bench = run("cd / && " + std::string(ALLOCGATE_SHAPES_BENCH) +
                           " --allocgate_sites --benchmark_filter='BM_Two|BM_OnePerThread' --benchmark_out=" + json);
  ASSERT_EQ(bench.code, 0) << bench.output;

  const Report report = allocgate::reports::read_report(json);
  const std::string where = "reports/tests/gbench_shapes_bench.cpp";
  for (const auto& [name, allocs] :
       {std::pair{"BM_Two/iterations:50", 2.0}, std::pair{"BM_OnePerThread/iterations:20/threads:2", 1.0}}) {
    const auto c = CaseIndex(report).find(name);
    ASSERT_TRUE(c.has_value()) << name;
    ASSERT_EQ(c->sites.size(), 1u) << name;
    EXPECT_EQ(c->sites[0].where().file, where);
    EXPECT_EQ(c->sites[0].where().line, allocating_line());
    EXPECT_EQ(c->sites[0].allocs_per_op, allocs) << name;  // the same figure as allocs/op
    EXPECT_EQ(c->allocs_per_op, allocs) << name;
    EXPECT_FALSE(c->stacks.empty());
  }

  // Bounds of one allocation fewer: the gate fails at that line.
  std::ofstream(bounds) << R"({"allocgate_bounds_version": 1, "toolchains": {")" << report.toolchain()
                        << R"(": {"BM_Two/iterations:50": {"allocs_per_op": 1}}}})";
  const std::string allocgate = ALLOCGATE_BIN;
  const Result gate = run(allocgate + " diff --bounds " + bounds + " " + json);
  EXPECT_EQ(gate.code, 1) << gate.output;
  const std::string line = std::to_string(allocating_line());
  // g++ inlines allocate() ("allocate"), clang 14 does not ("(anonymous namespace)::allocate").
  const std::string function = CaseIndex(report).find("BM_Two/iterations:50")->sites[0].where().function;
  EXPECT_EQ(function.substr(function.rfind("allocate")), "allocate");
  EXPECT_NE(gate.output.find(
                "REGRESSION BM_Two/iterations:50: allocs/op 2 > bound 1 (+1)\n    2 allocs/op (2 temporary) from " +
                function + " (" + where + ":" + line + ")\n"),
            std::string::npos)
      << gate.output;
  const Result annotated = run("GITHUB_ACTIONS=true " + allocgate + " diff --bounds " + bounds + " " + json);
  EXPECT_NE(annotated.output.find("::error file=" + where + ",line=" + line + ",title=allocation regression::"),
            std::string::npos)
      << annotated.output;
}

std::string shape_name(const ::testing::TestParamInfo<std::string>& info) {
  static const char* const kNames[] = {"Plain", "Repetitions", "AggregatesOnly", "DisplayAggregatesOnly"};
  return kNames[info.index];
}

INSTANTIATE_TEST_SUITE_P(Flags, GoogleBenchmarkShapes,
                         ::testing::Values("", "--benchmark_repetitions=3",
                                           "--benchmark_repetitions=3 --benchmark_report_aggregates_only=true",
                                           "--benchmark_repetitions=3 --benchmark_display_aggregates_only=true"),
                         shape_name);

}  // namespace
