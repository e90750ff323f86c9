// Call-site capture against heaptrack, on the same case and side by side.
// heaptrack watches `allocgate loop CASE --runs N`, run alone and under it,
// each at two run counts, so that what a process pays once (start-up, the
// warm-up run, heaptrack's attach and its final write) cancels in the
// difference. allocgate's capture runs in process, the case's operation
// timed by Google Benchmark with capture off and on. What is left per
// allocation is each tool's cost. Wall time is Google Benchmark's; the
// processes' CPU time is their children's (getrusage), heaptrack_interpret's
// included.
//
//   cmake --build --preset release --target capture-vs-heaptrack

#include <benchmark/benchmark.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "allocgate/measure.h"
#include "allocgate/scope.h"
#include "allocgate/sites.h"
#include "process.h"
#include "registry/workload.h"

namespace {

using allocgate::reports::run_process;
namespace fs = std::filesystem;

constexpr const char* kCase = "xml_listing/naive/1000";
constexpr long kFewRuns = 100;
constexpr long kManyRuns = 400;

double cpu_seconds(const rusage& usage) {
  auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

// `allocgate loop`, alone or under heaptrack, once an iteration.
void loop_process(benchmark::State& state, bool heaptrack, long runs) {
  const fs::path data = fs::temp_directory_path() / ("allocgate-capture-bench-" + std::to_string(::getpid()));
  std::vector<std::string> args;
  if (heaptrack) args = {"heaptrack", "-o", data.string()};
  for (const char* arg : {ALLOCGATE_EXE, "loop", kCase, "--runs"}) args.emplace_back(arg);
  args.push_back(std::to_string(runs));
  double cpu = 0;
  for (auto _ : state) {
    rusage before{}, after{};
    getrusage(RUSAGE_CHILDREN, &before);
    const int code = run_process(args).first;
    getrusage(RUSAGE_CHILDREN, &after);
    for (const char* extension : {".zst", ".gz"}) fs::remove(data.string() + extension);
    if (code != 0) {
      state.SkipWithError(heaptrack ? "heaptrack failed" : "allocgate loop failed");
      return;
    }
    cpu += cpu_seconds(after) - cpu_seconds(before);
  }
  state.counters["cpu_s"] = benchmark::Counter(cpu, benchmark::Counter::kAvgIterations);
}

// One operation of the case an iteration, in this process, with call-site
// capture on (one capture over all iterations, as `loop --sites` has) or off.
void operation(benchmark::State& state, bool capture) {
  const auto c = allocgate::workloads::find_case(kCase)->prepare();
  c->run();
  std::unique_ptr<allocgate::CaptureSites> sites;
  if (capture) sites = std::make_unique<allocgate::CaptureSites>(4096);
  for (auto _ : state) c->run();
  if (sites) sites->stop();
}

// Keeps each benchmark's fastest run (wall seconds, CPU seconds), for the
// summary: on a shared machine the fastest of five is the least disturbed.
class MinimumKeeper : public benchmark::ConsoleReporter {
 public:
  std::map<std::string, std::pair<double, double>> minima;

  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      if (run.aggregate_name != "min") continue;
      const auto cpu = run.counters.find("cpu_s");
      minima[run.run_name.function_name] = {run.GetAdjustedRealTime() / benchmark::GetTimeUnitMultiplier(run.time_unit),
                                            cpu != run.counters.end() ? cpu->second.value : 0};
    }
    ConsoleReporter::ReportRuns(runs);
  }
};

}  // namespace

int main(int argc, char** argv) {
  allocgate::require_hook();
  if (!allocgate::reports::on_path("heaptrack")) {
    std::cerr << "heaptrack is not installed: apt-get install heaptrack\n";
    return 2;
  }
  auto min_of_five = [](benchmark::internal::Benchmark* b) {
    b->Repetitions(5)->ComputeStatistics(
        "min", [](const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); });
  };
  for (bool heaptrack : {false, true}) {
    for (long runs : {kFewRuns, kManyRuns}) {
      const std::string name = std::string(heaptrack ? "heaptrack" : "alone") + "/" + std::to_string(runs);
      auto* b = benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& s) { loop_process(s, heaptrack, runs); });
      b->Iterations(1)->UseRealTime()->Unit(benchmark::kMillisecond);
      min_of_five(b);
    }
  }
  for (bool capture : {false, true}) {
    auto* b = benchmark::RegisterBenchmark(capture ? "operation/captured" : "operation/alone",
                                          [=](benchmark::State& s) { operation(s, capture); });
    b->UseRealTime()->Unit(benchmark::kMillisecond);
    min_of_five(b);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  MinimumKeeper reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();

  if (reporter.minima.size() != 6) return 1;  // filtered, or a run failed: nothing to compare
  const auto c = allocgate::workloads::find_case(kCase)->prepare();
  const double per_run = allocgate::allocs_per_run(1, [&] { c->run(); }).mean;
  auto seconds = [&](const std::string& name, bool cpu) {
    const auto& m = reporter.minima.at(name);
    return cpu ? m.second : m.first;
  };
  auto heaptrack_ns = [&](bool cpu) {
    auto extra = [&](const std::string& w) {
      return seconds(w + "/" + std::to_string(kManyRuns), cpu) - seconds(w + "/" + std::to_string(kFewRuns), cpu);
    };
    return (extra("heaptrack") - extra("alone")) / (per_run * static_cast<double>(kManyRuns - kFewRuns)) * 1e9;
  };
  const double capture_ns = (seconds("operation/captured", false) - seconds("operation/alone", false)) / per_run * 1e9;
  std::printf("\nper allocation, %s (%.0f allocations an operation):\n", kCase, per_run);
  std::printf("  heaptrack watching allocgate loop:   %6.0f ns wall, %6.0f ns CPU (both processes)\n",
              heaptrack_ns(false), heaptrack_ns(true));
  std::printf("  allocgate's capture, in process:     %6.0f ns\n", capture_ns);
  std::printf("  capture / heaptrack:                 %6.2f of the wall time, %.2f of the CPU time\n",
              capture_ns / heaptrack_ns(false), capture_ns / heaptrack_ns(true));
  return 0;
}
