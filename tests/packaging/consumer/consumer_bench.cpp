// SPDX-License-Identifier: Apache-2.0
#include <allocgate/benchmark.h>

#include <string>

static void BM_TwoStrings(benchmark::State& state) {
  allocgate::benchmark::CountAllocations count(state);
  for (auto _ : state) {
    std::string a(32, 'a'), b(64, 'b');
    benchmark::DoNotOptimize(a.data());
    benchmark::DoNotOptimize(b.data());
  }
}
BENCHMARK(BM_TwoStrings)->Iterations(100);
