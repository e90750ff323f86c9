// SPDX-License-Identifier: Apache-2.0
// Exact per-iteration figures in the console and JSON output of a real Google
// Benchmark run, excluding the benchmark's setup and the runner's own
// allocations: from the loop alone, and from a CountAllocations scope.

#include <benchmark/benchmark.h>
#include <array>
#include <memory>

#include <sstream>
#include <string>
#include <vector>

#include "allocgate/benchmark.h"
#include "allocgate/gtest.h"
#include "escape.h"

namespace {

using allocgate::test::escape;

void BM_ThreeAllocationsPerIteration(benchmark::State& state) {
  std::vector<std::string> setup(100, std::string(50, 's'));  // 101 allocations, not counted
  escape(setup.data());
  allocgate::benchmark::CountAllocations count(state);
  for (auto _ : state) {
    std::string a(20, 'a'), b(30, 'b'), c(40, 'c');
    escape(a.data());
    escape(b.data());
    escape(c.data());
  }
}
BENCHMARK(BM_ThreeAllocationsPerIteration)->Iterations(37);

// Keeps one 24-byte block per iteration: leaked_bytes/op 24.
std::vector<std::unique_ptr<std::array<char, 24>>> g_kept_blocks;
void BM_LeaksABlockPerIteration(benchmark::State& state) {
  for (auto _ : state) g_kept_blocks.push_back(std::make_unique<std::array<char, 24>>());
}
BENCHMARK(BM_LeaksABlockPerIteration)->Iterations(10);

void BM_NoAllocation(benchmark::State& state) {
  std::string buffer(1000, 'x');
  allocgate::benchmark::CountAllocations count(state);
  for (auto _ : state) {
    buffer[0] = static_cast<char>(buffer[0] + 1);
    escape(buffer.data());
  }
}
BENCHMARK(BM_NoAllocation)->Iterations(1000);

void BM_ManyAllocations(benchmark::State& state) {
  std::vector<char*> blocks(1234);
  allocgate::benchmark::CountAllocations count(state);
  for (auto _ : state) {
    for (char*& b : blocks) escape(b = new char[10]);
    for (char* b : blocks) delete[] b;
  }
}
BENCHMARK(BM_ManyAllocations)->Iterations(3);

// No line of allocgate's: the loop is counted, and nothing before or after it.
void BM_LoopAlone(benchmark::State& state) {
  std::vector<std::string> setup(10, std::string(50, 's'));
  escape(setup.data());
  for (auto _ : state) {
    std::string a(20, 'a');
    escape(a.data());
  }
  state.SetLabel(std::string(30, 'l'));
  state.counters["after"] = 1;
}
BENCHMARK(BM_LoopAlone)->Iterations(10);

// A loop left with break after SkipWithError never reaches FinishKeepRunning:
// the next loop on the thread still counts from its own start.
void BM_LeftWithBreak(benchmark::State& state) {
  for (auto _ : state) {
    std::string a(20, 'a');
    escape(a.data());
    state.SkipWithError("stop");
    break;
  }
}
BENCHMARK(BM_LeftWithBreak)->Iterations(10);

// Collects the runs while also printing them through a real reporter.
template <class Reporter>
class Capture : public Reporter {
 public:
  void ReportRuns(const std::vector<benchmark::BenchmarkReporter::Run>& runs) override {
    for (const auto& run : runs) this->runs.push_back(run);
    Reporter::ReportRuns(runs);
  }
  std::vector<benchmark::BenchmarkReporter::Run> runs;
};

// Runs the benchmarks matching `filter` through a console reporter that
// prints nowhere, and returns their runs.
std::vector<benchmark::BenchmarkReporter::Run> run_quietly(const std::string& filter) {
  Capture<benchmark::ConsoleReporter> console;
  std::ostringstream sink;
  console.SetOutputStream(&sink);
  console.SetErrorStream(&sink);
  benchmark::RunSpecifiedBenchmarks(&console, filter);
  return console.runs;
}

const benchmark::BenchmarkReporter::Run& find(const std::vector<benchmark::BenchmarkReporter::Run>& runs,
                                              const std::string& name) {
  for (const auto& run : runs) {
    if (run.benchmark_name().find(name) != std::string::npos) return run;
  }
  throw std::runtime_error("no run named " + name);
}

// What an iteration leaves allocated, per iteration: the vector's growth is
// freed as it grows, the kept blocks are not.
TEST(BenchmarkIntegration, ALeakPerIterationIsItsBytes) {
  g_kept_blocks.reserve(16);  // the vector itself does not grow in the loop
  const auto runs = run_quietly("BM_LeaksABlockPerIteration");
  const auto& leaks = find(runs, "BM_LeaksABlockPerIteration");
  EXPECT_EQ(leaks.counters.at("allocs/op").value, 1.0);
  EXPECT_EQ(leaks.counters.at("leaked_bytes/op").value, 24.0);
  g_kept_blocks.clear();
}

TEST(BenchmarkIntegration, CountersAreExactPerIteration) {
  const auto runs = run_quietly("BM_(ThreeAllocationsPerIteration|NoAllocation)");
  const auto& three = find(runs, "BM_ThreeAllocationsPerIteration");
  EXPECT_EQ(three.iterations, 37);
  EXPECT_EQ(three.counters.at("allocs/op").value, 3.0);
  EXPECT_EQ(three.counters.at("bytes/op").value, 21.0 + 31 + 41);
  EXPECT_EQ(three.counters.at("peak_bytes").value, 93.0);
  EXPECT_EQ(three.counters.at("leaked_bytes/op").value, 0.0);  // every block freed within its iteration
  const auto& none = find(runs, "BM_NoAllocation");
  EXPECT_EQ(none.counters.at("allocs/op").value, 0.0);
  EXPECT_EQ(none.counters.at("bytes/op").value, 0.0);
}

TEST(BenchmarkIntegration, APeakOverFreesOfUnknownSizeIsLeftOut) {
  const auto runs = run_quietly("BM_ManyAllocations");
  const auto& many = find(runs, "BM_ManyAllocations");
  EXPECT_EQ(many.counters.at("allocs/op").value, 1234.0);
  EXPECT_EQ(many.counters.count("peak_bytes"), 0u);
  EXPECT_EQ(many.counters.count("leaked_bytes/op"), 0u);  // unknown, not 0
}

TEST(BenchmarkIntegration, TheExactConsolePrintsEveryDigit) {
  auto console = allocgate::benchmark::make_exact_console_reporter(benchmark::ConsoleReporter::OO_Tabular);
  std::ostringstream text;
  console->SetOutputStream(&text);
  console->SetErrorStream(&text);
  benchmark::RunSpecifiedBenchmarks(console.get(), "BM_(ManyAllocations|ThreeAllocationsPerIteration)");
  std::string header, many, three;
  std::istringstream lines(text.str());
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("Benchmark", 0) == 0) header = line;
    if (line.rfind("BM_ManyAllocations", 0) == 0) many = line;
    if (line.rfind("BM_ThreeAllocations", 0) == 0) three = line;
  }
  EXPECT_NE(header.find("   allocs/op    bytes/op  peak_bytes leaked_bytes/op"), std::string::npos) << text.str();
  // Google Benchmark's own console would print 1.234k and 12.34k here.
  // delete[] of a char array passes no size: without block headers the peak
  // and the leak are unknown and show as "-" rather than as wrong numbers.
  EXPECT_TRUE(many.ends_with("        1234       12340           -           -")) << many;
  EXPECT_TRUE(three.ends_with("           3          93          93           0")) << three;
}

TEST(BenchmarkIntegration, CountersAppearInTheJson) {
  Capture<benchmark::JSONReporter> json;
  std::ostringstream json_text;
  json.SetOutputStream(&json_text);
  json.SetErrorStream(&json_text);
  benchmark::RunSpecifiedBenchmarks(&json, "BM_ThreeAllocationsPerIteration");
  const std::string text = json_text.str();
  EXPECT_NE(text.find("\"allocs/op\": 3.0000000000000000e+00"), std::string::npos) << text;
  EXPECT_NE(text.find("\"bytes/op\": 9.3000000000000000e+01"), std::string::npos) << text;
}

TEST(BenchmarkIntegration, EveryLoopIsCountedWithNoLineInTheBenchmark) {
  const auto runs = run_quietly("BM_(LeftWithBreak|LoopAlone)");
  const auto& broken = find(runs, "BM_LeftWithBreak");
  EXPECT_TRUE(broken.error_occurred);
  EXPECT_EQ(broken.counters.count("allocs/op"), 0u);  // an errored run has no figures
  const auto& alone = find(runs, "BM_LoopAlone");
  EXPECT_EQ(alone.counters.at("allocs/op").value, 1.0);
  EXPECT_EQ(alone.counters.at("bytes/op").value, 21.0);
  EXPECT_EQ(alone.counters.at("peak_bytes").value, 21.0);
  EXPECT_EQ(alone.counters.at("after").value, 1.0);
}

}  // namespace
