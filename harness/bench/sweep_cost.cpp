// SPDX-License-Identifier: Apache-2.0
// What a failure sweep costs: a test of P allocations (sweep_cost_suite.cpp)
// swept at every one of them (--allocgate_fail_each=all: P points, a child
// forked for each) against the same test run P + 2 times in one process
// (--gtest_repeat: the sweep's two runs with no failure and one a point),
// each a process of the suite started and waited for. Per point, the two
// differ by what isolating a point costs: a fork and a child's exit.
//   build/release/harness/bench/sweep_cost --benchmark_repetitions=3

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>
#include <vector>

extern char** environ;

namespace {

// Runs the suite with `flags`, its output discarded; false when it fails.
bool run_suite(long allocations, const std::string& flags) {
  std::vector<std::string> args{SWEEP_COST_SUITE, "--gtest_filter=Cost.Allocates", flags};
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  ::setenv("SWEEP_COST_ALLOCATIONS", std::to_string(allocations).c_str(), 1);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  const int error = ::posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) return false;
  int status = 0;
  return ::waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

void report(benchmark::State& state, long points) {
  state.counters["points"] = static_cast<double>(points);
  // Seconds per point: the time of an iteration over its points.
  state.counters["per_point"] = benchmark::Counter(
      static_cast<double>(points), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void swept(benchmark::State& state) {
  const long points = state.range(0);
  for (auto _ : state) {
    if (!run_suite(points, "--allocgate_fail_each=all")) state.SkipWithError("the sweep failed");
  }
  report(state, points);
}
BENCHMARK(swept)->Arg(10)->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond)->UseRealTime();

void repeated(benchmark::State& state) {
  const long points = state.range(0);
  for (auto _ : state) {
    if (!run_suite(points, "--gtest_repeat=" + std::to_string(points + 2))) state.SkipWithError("the runs failed");
  }
  report(state, points);
}
BENCHMARK(repeated)->Arg(10)->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
