// SPDX-License-Identifier: Apache-2.0
// Google Benchmark's own first example, as its user guide writes it: no
// allocgate code. Linked with allocgate-benchmark-main, each reports allocs/op.
#include <benchmark/benchmark.h>

#include <string>

static void BM_StringCreation(benchmark::State& state) {
  for (auto _ : state) std::string empty_string;
}
BENCHMARK(BM_StringCreation);

static void BM_StringCopy(benchmark::State& state) {
  std::string x = "hello";
  for (auto _ : state) std::string copy(x);
}
BENCHMARK(BM_StringCopy);

static void BM_LongStringCopy(benchmark::State& state) {
  std::string x(100, 'x');  // longer than the small-string buffer: one allocation per copy
  for (auto _ : state) {
    std::string copy(x);
    benchmark::DoNotOptimize(copy);
  }
}
BENCHMARK(BM_LongStringCopy);
