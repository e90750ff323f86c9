// SPDX-License-Identifier: Apache-2.0
// The pool under contention: two threads formatting through one pool. The
// per-thread caches keep the shared free list (and its mutex) off the path.

#include <benchmark/benchmark.h>

#include "allocgate/benchmark.h"
#include "order_format.h"

namespace {

using allocgate::workloads::order_format::BufferPool;

void pooled_under_contention(benchmark::State& state) {
  static BufferPool pool;
  const auto orders = allocgate::workloads::order_format::make_orders(64);
  std::string line = allocgate::workloads::order_format::format_pooled(pool, orders[0]);  // warm-up
  allocgate::benchmark::CountAllocations count(state);
  std::size_t i = 0;
  for (auto _ : state) {
    line = allocgate::workloads::order_format::format_pooled(pool, orders[i++ % orders.size()]);
    benchmark::DoNotOptimize(line.data());
  }
}
BENCHMARK(pooled_under_contention)->Name("order_format/pooled_contended/1")->Threads(2);

}  // namespace
