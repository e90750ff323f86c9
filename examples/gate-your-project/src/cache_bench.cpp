// SPDX-License-Identifier: Apache-2.0
#include <benchmark/benchmark.h>

#include <string>

#include "cache.h"

// A plain Google Benchmark: linking allocgate::benchmark_main counts its loop.
static void BM_LookupHit(benchmark::State& state) {
  Cache cache;  // setup: not counted
  for (int i = 0; i < 1000; ++i) cache.insert("users/" + std::to_string(1000 + i) + "/profile-picture", "a.jpg");
  for (auto _ : state) benchmark::DoNotOptimize(cache.lookup("users/1500/profile-picture"));
}
BENCHMARK(BM_LookupHit);
