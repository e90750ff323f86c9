// Benchmarks in every shape a Google Benchmark JSON takes, for the readers'
// tests (gbench_shapes_test.cpp): plain, threaded, manual time, a rate counter
// beside allocgate's, one that errors, one without allocgate's counters.
// Each allocates a known number of times per iteration.

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
  allocgate::benchmark::CountAllocations count(state);
  for (auto _ : state) allocate(2);
}
BENCHMARK(BM_Two)->Iterations(50);

// Each thread counts its own; the runner sums the threads' counters.
void BM_OnePerThread(benchmark::State& state) {
  allocgate::benchmark::CountAllocations count(state);
  for (auto _ : state) allocate(1);
}
BENCHMARK(BM_OnePerThread)->Threads(2)->Iterations(20);

void BM_ManualTime(benchmark::State& state) {
  allocgate::benchmark::CountAllocations count(state);
  for (auto _ : state) {
    allocate(3);
    state.SetIterationTime(1e-6);
  }
}
BENCHMARK(BM_ManualTime)->UseManualTime()->Iterations(10);

void BM_WithRate(benchmark::State& state) {
  {
    allocgate::benchmark::CountAllocations count(state);
    for (auto _ : state) allocate(4);
  }
  // After counting: the counters map allocates a node for it.
  state.counters["items"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_WithRate)->Iterations(10);

void BM_Errors(benchmark::State& state) {
  state.SkipWithError("no input file");
  for (auto _ : state) {
  }
}
BENCHMARK(BM_Errors);

void BM_Uncounted(benchmark::State& state) {
  for (auto _ : state) allocate(1);
}
BENCHMARK(BM_Uncounted)->Iterations(10);

}  // namespace
