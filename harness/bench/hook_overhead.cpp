// SPDX-License-Identifier: Apache-2.0
// What the hook costs: the same allocation-heavy loops built three times,
// without allocgate, with the default hook (counts, bytes, live bytes from
// sized deletes) and with block headers (live bytes for every delete form).
// hook_overhead.sh runs the three side by side.
//
//   hook_overhead_<build> [Google Benchmark flags]   time each operation
//   hook_overhead_<build> --ops NAME COUNT            run COUNT operations and
//                                                     exit, for callgrind

#include <benchmark/benchmark.h>

#include <array>
#include <cstddef>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#if ALLOCGATE_HOOKED
#include "allocgate/scope.h"
#endif

namespace {

// Sizes that cross several malloc size classes, like a real program's mix.
constexpr std::array<std::size_t, 8> kSizes{8, 24, 40, 64, 100, 256, 512, 1000};

// One new[]/delete[] pair; delete[] of a char array passes no size.
void new_delete_pair(std::size_t i) {
  char* p = new char[kSizes[i % kSizes.size()]];
  benchmark::DoNotOptimize(p);
  delete[] p;
}

// The same through std::allocator, which frees with sized delete.
void allocator_pair(std::size_t i) {
  std::allocator<char> allocator;
  const std::size_t n = kSizes[i % kSizes.size()];
  char* p = allocator.allocate(n);
  benchmark::DoNotOptimize(p);
  allocator.deallocate(p, n);
}

// 64 blocks live at once, then freed: the pattern of building a container.
void batch_of_64(std::size_t) {
  std::array<char*, 64> blocks{};
  for (std::size_t i = 0; i < blocks.size(); ++i) blocks[i] = new char[kSizes[i % kSizes.size()]];
  benchmark::DoNotOptimize(blocks.data());
  for (char* p : blocks) delete[] p;
}

// Ordinary library code: a vector of strings built and destroyed.
void vector_of_strings(std::size_t) {
  std::vector<std::string> v;
  for (int i = 0; i < 100; ++i) v.emplace_back(static_cast<std::size_t>(20 + i % 50), 'x');
  benchmark::DoNotOptimize(v.data());
}

// Node-based containers: one allocation per element.
void map_of_strings(std::size_t) {
  std::map<int, std::string> m;
  for (int i = 0; i < 100; ++i) m.emplace(i * 7919 % 1000, std::string(static_cast<std::size_t>(16 + i % 40), 'm'));
  benchmark::DoNotOptimize(m.size());
}

struct Operation {
  const char* name;
  void (*run)(std::size_t);
};
constexpr std::array<Operation, 5> kOperations{{{"BM_NewDeletePair", new_delete_pair},
                                                {"BM_AllocatorPair", allocator_pair},
                                                {"BM_BatchOf64", batch_of_64},
                                                {"BM_VectorOfStrings", vector_of_strings},
                                                {"BM_MapOfStrings", map_of_strings}}};

void run_benchmark(benchmark::State& state, void (*run)(std::size_t)) {
  std::size_t i = 0;
  for (auto _ : state) run(i++);
}

// --ops NAME COUNT: the operation COUNT times, nothing else, so that the
// difference of two instruction counts is the operations' alone.
int run_fixed(std::string_view name, long count) {
  for (const Operation& op : kOperations) {
    if (name != op.name) continue;
    for (long i = 0; i < count; ++i) op.run(static_cast<std::size_t>(i));
    return 0;
  }
  std::cerr << "hook_overhead: no operation named " << name << '\n';
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
#if ALLOCGATE_HOOKED
  allocgate::require_hook();  // also pulls the hook into the link
#endif
  if (argc == 4 && std::string_view(argv[1]) == "--ops") return run_fixed(argv[2], std::atol(argv[3]));
  for (const Operation& op : kOperations) benchmark::RegisterBenchmark(op.name, run_benchmark, op.run);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
