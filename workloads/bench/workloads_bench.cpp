// SPDX-License-Identifier: Apache-2.0
// Every registered case as a benchmark named workload/variant/size, reporting
// exact allocs/op. Each case runs once before counting starts, so reused
// buffers have grown: the figures are the steady state.

#include <benchmark/benchmark.h>

#include "allocgate/benchmark.h"
#include "registry/workload.h"

namespace {

const bool registered = [] {
  for (const auto& c : allocgate::workloads::all_cases()) {
    benchmark::RegisterBenchmark(c.name.c_str(), [&c](benchmark::State& state) {
      const auto operation = c.prepare();
      operation->run();  // warm-up
      allocgate::benchmark::CountAllocations count(state);
      for (auto _ : state) operation->run();
    });
  }
  return true;
}();

}  // namespace
