// SPDX-License-Identifier: Apache-2.0
// A benchmark registered from a shared library: its loop calls Google
// Benchmark from outside the executable's link, where allocgate::benchmark's
// -Wl,--wrap options do not reach.

#include <benchmark/benchmark.h>

#include <string>

static void BM_InALibrary(benchmark::State& state) {
  for (auto _ : state) {
    std::string s(64, 's');
    benchmark::DoNotOptimize(s.data());
  }
}
BENCHMARK(BM_InALibrary)->Iterations(10);
