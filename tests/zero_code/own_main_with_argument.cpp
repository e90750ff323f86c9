// SPDX-License-Identifier: Apache-2.0
// A suite's own main() that takes one argument of its own and passes Google
// Benchmark none, as some real suites' mains do: allocgate's flags cannot
// reach it, the environment can. "spec" runs the benchmarks through the
// overload that takes a spec string; "uninitialized" never calls
// benchmark::Initialize.
#include <benchmark/benchmark.h>

#include <iostream>
#include <string>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: " << argv[0] << " full|spec|uninitialized\n";
    return 1;
  }
  const std::string mode = argv[1];
  int benchmark_argc = 1;
  if (mode != "uninitialized") benchmark::Initialize(&benchmark_argc, argv);
  if (mode == "spec") {
    benchmark::RunSpecifiedBenchmarks(std::string("BM_vector_push_back"));
  } else {
    benchmark::RunSpecifiedBenchmarks();
  }
  benchmark::Shutdown();
  return 0;
}
