#include <allocgate/benchmark.h>

#include <string>

#include "cache.h"

static void BM_LookupHit(benchmark::State& state) {
  Cache cache;
  for (int i = 0; i < 1000; ++i) cache.insert("users/" + std::to_string(1000 + i) + "/profile-picture", "a.jpg");
  allocgate::benchmark::CountAllocations count(state);  // counts the loop, not the setup
  for (auto _ : state) benchmark::DoNotOptimize(cache.lookup("users/1500/profile-picture"));
}
BENCHMARK(BM_LookupHit);
