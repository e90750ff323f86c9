// SPDX-License-Identifier: Apache-2.0
// Benchmarks in every shape a Google Benchmark JSON takes, for the readers'
// tests (gbench_shapes_test.cpp): plain, threaded, manual time, a rate counter,
// a timer paused inside the loop, the KeepRunning form, a scope of the
// benchmark's own, one that errors. Linked with allocgate::benchmark_main and
// no other change: every loop is counted. Each allocates a known number of
// times per iteration. The Flaky_ ones allocate in a way no bound can hold.

#include <benchmark/benchmark.h>

#include <string>

#include "allocgate/benchmark.h"

namespace {

// n strings too long for the small-string buffer: n allocations.
void allocate(int n) {
  for (int i = 0; i < n; ++i) {
    std::string s(64, 's');
    benchmark::DoNotOptimize(s.data());
  }
}

void BM_Two(benchmark::State& state) {
  allocate(5);  // setup: not counted
  for (auto _ : state) allocate(2);
}
BENCHMARK(BM_Two)->Iterations(50);

// Each thread is counted on its own; the runner sums the threads' counters.
void BM_OnePerThread(benchmark::State& state) {
  for (auto _ : state) allocate(1);
}
BENCHMARK(BM_OnePerThread)->Threads(2)->Iterations(20);

void BM_ManualTime(benchmark::State& state) {
  for (auto _ : state) {
    allocate(3);
    state.SetIterationTime(1e-6);
  }
}
BENCHMARK(BM_ManualTime)->UseManualTime()->Iterations(10);

void BM_WithRate(benchmark::State& state) {
  for (auto _ : state) allocate(4);
  // After the loop, not counted: the counters map allocates a node for it.
  state.counters["items"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.SetLabel(std::string(40, 'l'));
}
BENCHMARK(BM_WithRate)->Iterations(10);

// What runs while the timer is paused is left out, as Go's b.StopTimer() does.
void BM_PausedSetup(benchmark::State& state) {
  for (auto _ : state) {
    state.PauseTiming();
    allocate(7);
    state.ResumeTiming();
    allocate(1);
  }
}
BENCHMARK(BM_PausedSetup)->Iterations(10);

void BM_KeepRunning(benchmark::State& state) {
  while (state.KeepRunning()) allocate(2);
}
BENCHMARK(BM_KeepRunning)->Iterations(10);

// A scope of its own covers the loop and what follows it, in place of the
// loop's count: (10 * 1 + 20) / 10 iterations.
void BM_OwnScope(benchmark::State& state) {
  allocgate::benchmark::CountAllocations count(state);
  for (auto _ : state) allocate(1);
  allocate(20);
}
BENCHMARK(BM_OwnScope)->Iterations(10);

void BM_Errors(benchmark::State& state) {
  state.SkipWithError("no input file");
  for (auto _ : state) {
  }
}
BENCHMARK(BM_Errors);

// Allocates on the first iteration of each run only: 1/iterations per op, a
// figure that changes with the iteration count.
void Flaky_OncePerRun(benchmark::State& state) {
  bool first = true;
  for (auto _ : state) {
    if (first) allocate(1);
    first = false;
  }
}
BENCHMARK(Flaky_OncePerRun)->Iterations(1000);

// One allocation per iteration in odd runs, two in even ones: with
// repetitions, a count that varies.
void Flaky_VariesByRun(benchmark::State& state) {
  static int runs = 0;
  const int n = 1 + runs++ % 2;
  for (auto _ : state) allocate(n);
}
BENCHMARK(Flaky_VariesByRun)->Iterations(10);

}  // namespace
