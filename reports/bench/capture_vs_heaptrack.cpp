// Call-site capture against heaptrack, on the same loop and side by side:
// `allocgate loop CASE --runs N` on its own, with --sites (allocgate's
// capture, in process) and under heaptrack. Each runs at two run counts, so
// that what a process pays once (start-up, the warm-up run, symbolizing,
// heaptrack's attach and its final write) cancels in the difference; the
// plain loop's difference is the work itself, and what is left per
// allocation is each tool's cost. Wall time is Google Benchmark's; CPU time
// is the children's (getrusage), which counts heaptrack_interpret too.
//
//   cmake --build --preset release --target capture-vs-heaptrack

#include <benchmark/benchmark.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "allocgate/measure.h"
#include "allocgate/scope.h"
#include "process.h"
#include "registry/workload.h"

namespace {

using allocgate::reports::run_process;
namespace fs = std::filesystem;

constexpr const char* kCase = "xml_listing/naive/1000";
constexpr long kFewRuns = 100;
constexpr long kManyRuns = 400;

enum Watcher { kAlone, kSites, kHeaptrack };
const char* const kWatcherNames[] = {"alone", "sites", "heaptrack"};

double cpu_seconds(const rusage& usage) {
  auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

void loop(benchmark::State& state, Watcher watcher, long runs) {
  const fs::path data = fs::temp_directory_path() / ("allocgate-capture-bench-" + std::to_string(::getpid()));
  std::vector<std::string> args;
  if (watcher == kHeaptrack) args = {"heaptrack", "-o", data.string()};
  for (const char* arg : {ALLOCGATE_EXE, "loop", kCase, "--runs"}) args.emplace_back(arg);
  args.push_back(std::to_string(runs));
  if (watcher == kSites) args.emplace_back("--sites");
  double cpu = 0;
  for (auto _ : state) {
    rusage before{}, after{};
    getrusage(RUSAGE_CHILDREN, &before);
    const int code = run_process(args).first;
    getrusage(RUSAGE_CHILDREN, &after);
    for (const char* extension : {".zst", ".gz"}) fs::remove(data.string() + extension);
    if (code != 0) {
      state.SkipWithError((std::string(kWatcherNames[watcher]) + " loop failed").c_str());
      return;
    }
    cpu += cpu_seconds(after) - cpu_seconds(before);
  }
  state.counters["cpu_s"] = benchmark::Counter(cpu, benchmark::Counter::kAvgIterations);
}

// Keeps each benchmark's median (wall seconds, CPU seconds), for the summary.
class MedianKeeper : public benchmark::ConsoleReporter {
 public:
  std::map<std::string, std::pair<double, double>> medians;

  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      if (run.aggregate_name != "median") continue;
      const auto cpu = run.counters.find("cpu_s");
      medians[run.run_name.function_name] = {run.GetAdjustedRealTime() / benchmark::GetTimeUnitMultiplier(run.time_unit),
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
  for (Watcher watcher : {kAlone, kSites, kHeaptrack}) {
    for (long runs : {kFewRuns, kManyRuns}) {
      benchmark::RegisterBenchmark((std::string(kWatcherNames[watcher]) + "/" + std::to_string(runs)).c_str(),
                                   [=](benchmark::State& state) { loop(state, watcher, runs); })
          ->Iterations(1)
          ->Repetitions(3)
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
    }
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  MedianKeeper reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();

  const auto c = allocgate::workloads::find_case(kCase)->prepare();
  const double per_run = allocgate::allocs_per_run(1, [&] { c->run(); }).mean;
  const double allocations = per_run * static_cast<double>(kManyRuns - kFewRuns);
  auto cost_ns = [&](const char* watcher, bool cpu) {
    auto value = [&](const std::string& name) {
      const auto& m = reporter.medians.at(name);
      return cpu ? m.second : m.first;
    };
    auto extra = [&](const std::string& w) {
      return value(w + "/" + std::to_string(kManyRuns)) - value(w + "/" + std::to_string(kFewRuns));
    };
    return (extra(watcher) - extra("alone")) / allocations * 1e9;
  };
  if (reporter.medians.size() != 6) return 1;  // filtered, or a run failed: nothing to compare
  std::printf("\nper allocation, %s (%.0f allocations a run), over %ld more runs:\n", kCase, per_run,
              kManyRuns - kFewRuns);
  std::printf("  heaptrack:               %6.0f ns wall, %6.0f ns CPU\n", cost_ns("heaptrack", false),
              cost_ns("heaptrack", true));
  std::printf("  allocgate loop --sites:  %6.0f ns wall, %6.0f ns CPU\n", cost_ns("sites", false),
              cost_ns("sites", true));
  std::printf("  capture / heaptrack:     %6.2f wall,    %6.2f CPU\n",
              cost_ns("sites", false) / cost_ns("heaptrack", false), cost_ns("sites", true) / cost_ns("heaptrack", true));
  return 0;
}
