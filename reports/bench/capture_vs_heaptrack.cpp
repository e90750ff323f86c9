// SPDX-License-Identifier: Apache-2.0
// What call-site capture costs, side by side with what it replaces:
//
// - per allocation, against heaptrack on the same case. heaptrack watches
//   `allocgate loop CASE --runs N`, run alone and under it, each at two run
//   counts, so that what a process pays once (start-up, the warm-up run,
//   heaptrack's attach and its final write) cancels in the difference.
//   allocgate's capture runs in process: the case's operation timed by
//   Google Benchmark with capture off and on. Wall time is Google
//   Benchmark's; the processes' CPU time is their children's (getrusage),
//   heaptrack_interpret's included.
// - `allocgate run --no-timing` with and without --sites, over every case.
// - `allocgate profile` of the largest case.
//
// Each figure is the fastest of its runs (five of a process, ten of an
// operation), interleaved at random with the others': on a shared machine,
// the least disturbed one.
//
//   cmake --build --preset release --target capture-vs-heaptrack

#include <benchmark/benchmark.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "allocgate/measure.h"
#include "allocgate/scope.h"
#include "allocgate/sites.h"
#include "fastest_run.h"
#include "process.h"
#include "registry/workload.h"

namespace {

using allocgate::reports::run_process;
namespace fs = std::filesystem;

constexpr const char* kCase = "xml_listing/naive/1000";
constexpr const char* kLargestCase = "xml_listing/naive/100000";
constexpr long kFewRuns = 100;
constexpr long kManyRuns = 400;

double cpu_seconds(const rusage& usage) {
  auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

// A process an iteration: `allocgate ARGS`, under heaptrack when asked.
void process(benchmark::State& state, std::vector<std::string> allocgate_args, bool heaptrack) {
  const fs::path data = fs::temp_directory_path() / ("allocgate-capture-bench-" + std::to_string(::getpid()));
  const fs::path report = data.string() + ".json";
  std::vector<std::string> args;
  if (heaptrack) args = {"heaptrack", "-o", data.string()};
  args.emplace_back(ALLOCGATE_EXE);
  for (std::string& arg : allocgate_args) args.push_back(arg == "REPORT" ? report.string() : std::move(arg));
  double cpu = 0;
  for (auto _ : state) {
    rusage before{}, after{};
    getrusage(RUSAGE_CHILDREN, &before);
    const int code = run_process(args).first;
    getrusage(RUSAGE_CHILDREN, &after);
    for (const char* extension : {".zst", ".gz", ".json"}) fs::remove(data.string() + extension);
    if (code != 0) {
      state.SkipWithError((args[0] + " failed").c_str());
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

void add(const std::string& name, std::function<void(benchmark::State&)> body, bool one_iteration) {
  auto* b = benchmark::RegisterBenchmark(name.c_str(), std::move(body));
  b->UseRealTime()
      ->Unit(benchmark::kMillisecond)
      ->Repetitions(one_iteration ? 5 : 10)
      ->ComputeStatistics("min", allocgate::bench::fastest);
  if (one_iteration) b->Iterations(1);
}

}  // namespace

int main(int argc, char** argv) {
  allocgate::require_hook();
  if (!allocgate::reports::on_path("heaptrack")) {
    std::cerr << "heaptrack is not installed: apt-get install heaptrack\n";
    return 2;
  }
  for (bool heaptrack : {false, true}) {
    for (long runs : {kFewRuns, kManyRuns}) {
      add(
          std::string(heaptrack ? "heaptrack" : "alone") + "/" + std::to_string(runs),
          [=](benchmark::State& s) {
            process(s, {"loop", kCase, "--runs", std::to_string(runs)}, heaptrack);
          },
          true);
    }
  }
  add(
      "operation/alone", [](benchmark::State& s) { operation(s, false); }, false);
  add(
      "operation/captured", [](benchmark::State& s) { operation(s, true); }, false);
  add(
      "run/no-timing",
      [](benchmark::State& s) {
        process(s, {"run", "--no-timing", "--out", "REPORT"}, false);
      },
      true);
  add(
      "run/no-timing/sites",
      [](benchmark::State& s) {
        process(s, {"run", "--no-timing", "--sites", "--out", "REPORT"}, false);
      },
      true);
  add(
      "profile/largest",
      [](benchmark::State& s) {
        process(s, {"profile", kLargestCase}, false);
      },
      true);

  // Repetitions interleaved at random, so that a slow spell of the machine
  // falls on every benchmark alike, not on one (flags given after it win).
  std::vector<char*> args(argv, argv + argc);
  char interleave[] = "--benchmark_enable_random_interleaving=true";
  args.insert(args.begin() + 1, interleave);
  int arg_count = static_cast<int>(args.size());
  benchmark::Initialize(&arg_count, args.data());
  if (benchmark::ReportUnrecognizedArguments(arg_count, args.data())) return 1;
  allocgate::bench::FastestRuns reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();

  if (reporter.fastest.size() != 9) return 1;  // filtered, or a run failed: nothing to compare
  const auto c = allocgate::workloads::find_case(kCase)->prepare();
  const double per_run = allocgate::allocs_per_run(1, [&] { c->run(); }).mean;
  auto seconds = [&](const std::string& name, bool cpu = false) {
    const auto& m = reporter.fastest.at(name);
    return cpu ? m.cpu_seconds : m.seconds;
  };
  auto heaptrack_ns = [&](bool cpu) {
    auto extra = [&](const std::string& w) {
      return seconds(w + "/" + std::to_string(kManyRuns), cpu) - seconds(w + "/" + std::to_string(kFewRuns), cpu);
    };
    return (extra("heaptrack") - extra("alone")) / (per_run * static_cast<double>(kManyRuns - kFewRuns)) * 1e9;
  };
  const double capture_ns = (seconds("operation/captured") - seconds("operation/alone")) / per_run * 1e9;
  std::printf("\nper allocation, %s (%.0f allocations an operation):\n", kCase, per_run);
  std::printf("  heaptrack watching allocgate loop:  %6.0f ns wall, %6.0f ns CPU (both processes)\n",
              heaptrack_ns(false), heaptrack_ns(true));
  std::printf("  allocgate's capture, in process:    %6.0f ns\n", capture_ns);
  std::printf("  capture / heaptrack:                %6.2f of the wall time, %.2f of the CPU time\n",
              capture_ns / heaptrack_ns(false), capture_ns / heaptrack_ns(true));
  std::printf("allocgate run --no-timing --sites:   %.2f s, %.2fx run --no-timing (%.2f s)\n",
              seconds("run/no-timing/sites"), seconds("run/no-timing/sites") / seconds("run/no-timing"),
              seconds("run/no-timing"));
  std::printf("allocgate profile %s:  %.2f s\n", kLargestCase, seconds("profile/largest"));
  return 0;
}
