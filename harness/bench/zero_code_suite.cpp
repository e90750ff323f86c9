// SPDX-License-Identifier: Apache-2.0
// A suite of 40 plain Google Benchmarks (no allocgate header), for the cost of
// counting with no code: built without allocgate, with the hook alone, and
// with allocgate::benchmark_main (zero_code_overhead.sh runs them side by side).

#include <benchmark/benchmark.h>

#include <string>

namespace {

// One allocation per iteration: a string past the small-string buffer.
template <int N>
void BM_OneAllocation(benchmark::State& state) {
  for (auto _ : state) {
    std::string s(32 + N, 'x');
    benchmark::DoNotOptimize(s.data());
  }
  state.SetBytesProcessed(state.iterations() * (32 + N));
}

#define ALLOCGATE_FOUR(n)                          \
  BENCHMARK_TEMPLATE(BM_OneAllocation, n * 4 + 0); \
  BENCHMARK_TEMPLATE(BM_OneAllocation, n * 4 + 1); \
  BENCHMARK_TEMPLATE(BM_OneAllocation, n * 4 + 2); \
  BENCHMARK_TEMPLATE(BM_OneAllocation, n * 4 + 3)
ALLOCGATE_FOUR(0);
ALLOCGATE_FOUR(1);
ALLOCGATE_FOUR(2);
ALLOCGATE_FOUR(3);
ALLOCGATE_FOUR(4);
ALLOCGATE_FOUR(5);
ALLOCGATE_FOUR(6);
ALLOCGATE_FOUR(7);
ALLOCGATE_FOUR(8);
ALLOCGATE_FOUR(9);

}  // namespace
