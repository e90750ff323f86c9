// Every registered case as a benchmark named workload/variant/size, reporting
// exact allocs/op. Each case runs once before counting starts, so reused
// buffers have grown: the figures are the steady state.

#include <benchmark/benchmark.h>

#include <string>

#include "allocgate/benchmark.h"
#include "registry/workload.h"

namespace {

const bool registered = [] {
  for (const auto& workload : allocgate::workloads::all_workloads()) {
    for (const std::string_view variant : workload.variants) {
      for (const std::size_t size : workload.sizes) {
        const std::string name = allocgate::workloads::case_name(workload, variant, size);
        benchmark::RegisterBenchmark(name.c_str(), [&workload, variant, size](benchmark::State& state) {
          const auto c = workload.prepare(variant, size);
          c->run();  // warm-up
          allocgate::benchmark::CountAllocations count(state);
          for (auto _ : state) c->run();
        });
      }
    }
  }
  return true;
}();

}  // namespace
