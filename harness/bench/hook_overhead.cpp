// What the hook costs: the same allocation-heavy loops built three times,
// without allocgate, with the default hook (counts, bytes, live bytes from
// sized deletes) and with block headers (live bytes for every delete form).
// hook_overhead.sh runs the three side by side.

#include <benchmark/benchmark.h>

#include <array>
#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

#if ALLOCGATE_HOOKED
#include "allocgate/scope.h"
#endif

namespace {

// Sizes that cross several malloc size classes, like a real program's mix.
constexpr std::array<std::size_t, 8> kSizes{8, 24, 40, 64, 100, 256, 512, 1000};

// One new[]/delete[] pair per iteration; delete[] of a char array passes no
// size.
void BM_NewDeletePair(benchmark::State& state) {
  std::size_t i = 0;
  for (auto _ : state) {
    char* p = new char[kSizes[i++ % kSizes.size()]];
    benchmark::DoNotOptimize(p);
    delete[] p;
  }
}
BENCHMARK(BM_NewDeletePair);

// The same through std::allocator, which frees with sized delete.
void BM_AllocatorPair(benchmark::State& state) {
  std::allocator<char> allocator;
  std::size_t i = 0;
  for (auto _ : state) {
    const std::size_t n = kSizes[i++ % kSizes.size()];
    char* p = allocator.allocate(n);
    benchmark::DoNotOptimize(p);
    allocator.deallocate(p, n);
  }
}
BENCHMARK(BM_AllocatorPair);

// 64 blocks live at once, then freed: the pattern of building a container.
void BM_BatchOf64(benchmark::State& state) {
  std::array<char*, 64> blocks{};
  for (auto _ : state) {
    for (std::size_t i = 0; i < blocks.size(); ++i) blocks[i] = new char[kSizes[i % kSizes.size()]];
    benchmark::DoNotOptimize(blocks.data());
    for (char* p : blocks) delete[] p;
  }
}
BENCHMARK(BM_BatchOf64);

// Ordinary library code: a vector of strings built and destroyed.
void BM_VectorOfStrings(benchmark::State& state) {
  for (auto _ : state) {
    std::vector<std::string> v;
    for (int i = 0; i < 100; ++i) v.emplace_back(static_cast<std::size_t>(20 + i % 50), 'x');
    benchmark::DoNotOptimize(v.data());
  }
}
BENCHMARK(BM_VectorOfStrings);

// Node-based containers: one allocation per element.
void BM_MapOfStrings(benchmark::State& state) {
  for (auto _ : state) {
    std::map<int, std::string> m;
    for (int i = 0; i < 100; ++i) m.emplace(i * 7919 % 1000, std::string(static_cast<std::size_t>(16 + i % 40), 'm'));
    benchmark::DoNotOptimize(m.size());
  }
}
BENCHMARK(BM_MapOfStrings);

}  // namespace

int main(int argc, char** argv) {
#if ALLOCGATE_HOOKED
  allocgate::require_hook();  // also pulls the hook into the link
#endif
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
