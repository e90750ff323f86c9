// SPDX-License-Identifier: Apache-2.0
// What call-site capture costs per allocation: a new/delete pair with capture
// off (the hook's usual path) and on, from shallow and deep call stacks.

#include <benchmark/benchmark.h>

#include "allocgate/scope.h"
#include "allocgate/sites.h"

namespace {

// Allocates `depth` calls down, so the unwinder has that many frames to walk.
__attribute__((noinline)) void allocate_at_depth(int depth) {
  if (depth > 0) {
    allocate_at_depth(depth - 1);
    benchmark::ClobberMemory();  // not a tail call
    return;
  }
  char* p = new char[32];
  benchmark::DoNotOptimize(p);
  delete[] p;
}

void capture_off(benchmark::State& state) {
  const int depth = static_cast<int>(state.range(0));
  for (auto _ : state) allocate_at_depth(depth);
}
BENCHMARK(capture_off)->Arg(2)->Arg(20);

void capture_on(benchmark::State& state) {
  const int depth = static_cast<int>(state.range(0));
  allocgate::CaptureSites capture;
  for (auto _ : state) allocate_at_depth(depth);
}
BENCHMARK(capture_on)->Arg(2)->Arg(20);

}  // namespace

int main(int argc, char** argv) {
  allocgate::require_hook();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
