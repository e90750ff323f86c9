// SPDX-License-Identifier: Apache-2.0
// The workloads against the Go versions of the case studies' jobs, on the
// same inputs and side by side in one run: the Go program (its own
// testing.Benchmark figures, ns/op) runs before and after this program's
// Google Benchmark runs of the matching cases, and each side's fastest
// figure is compared. Each case is also set against memcpy of its output's
// bytes on this machine, the ceiling for code whose job is to write them.
//
//   cmake --build --preset release --target versus-go
//   allocgate_versus_go GO_PEERS_BINARY

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "allocgate/scope.h"
#include "fastest_run.h"
#include "process.h"
#include "registry/workload.h"

namespace {

struct Pair {
  const char* cpp;  // the allocgate case
  const char* go;   // the Go program's case
  bool optimized;   // the variant the case study ends with: held to kMargin
};

// How many times faster than its Go peer's fastest run an optimized variant
// must be, in every run of this program.
constexpr double kMargin = 2.5;

constexpr Pair kPairs[] = {
    {"log_report/v1/2000", "log_report/v1", false},
    {"log_report/v3/2000", "log_report/v3", false},
    {"log_report/v4/2000", "log_report/v4", true},
    {"timestamp/naive/1", "timestamp/format", false},
    {"timestamp/optimized/1", "timestamp/appendformat", true},
    {"xml_listing/naive/1000", "xml_listing/naive", false},
    {"xml_listing/optimized/1000", "xml_listing/optimized", true},
    {"order_format/naive/1", "order_format/naive", false},
    {"order_format/pooled/1", "order_format/pooled", true},
    {"order_format/append/1", "order_format/pooled", true},
    {"row_parse/naive/1", "row_parse/naive", false},
    {"row_parse/optimized/1", "row_parse/scanner", true},
    {"row_parse/zero_copy/1", "row_parse/scanner", true},
};

// The Go program's table: "case ns/op B/op allocs" a line, after a header.
// Keeps the fastest ns/op per case over all calls.
void run_go(const std::string& binary, std::map<std::string, double>& go_ns) {
  const auto [code, text] = allocgate::reports::run_process({binary});
  if (code != 0) throw std::runtime_error(binary + " failed (exit " + std::to_string(code) + ")");
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::string name;
    double ns = 0;
    if (!(fields >> name >> ns)) continue;  // the header
    const auto [it, inserted] = go_ns.try_emplace(name, ns);
    if (!inserted) it->second = std::min(it->second, ns);
  }
}

}  // namespace

int main(int argc, char** argv) {
  allocgate::require_hook();
  benchmark::Initialize(&argc, argv);
  if (argc != 2) {
    std::cerr << "usage: allocgate_versus_go [benchmark flags] GO_PEERS_BINARY\n";
    return 2;
  }
  const std::string go_binary = argv[1];
  std::map<std::string, std::size_t> output_bytes;
  for (const Pair& pair : kPairs) {
    const allocgate::workloads::CaseRef* c = allocgate::workloads::find_case(pair.cpp);
    if (c == nullptr) {
      std::cerr << "no case " << pair.cpp << "\n";
      return 2;
    }
    auto operation = c->prepare();
    operation->run();
    const std::size_t bytes = operation->output().size();
    output_bytes[pair.cpp] = bytes;
    benchmark::RegisterBenchmark(pair.cpp,
                                 [op = std::shared_ptr(std::move(operation))](benchmark::State& state) {
                                   for (auto _ : state) op->run();
                                 })
        ->Repetitions(5)
        ->ComputeStatistics("min", allocgate::bench::fastest);
    // The ceiling: copying the output's bytes once.
    benchmark::RegisterBenchmark((std::string("memcpy/") + pair.cpp).c_str(),
                                 [bytes](benchmark::State& state) {
                                   std::vector<char> from(bytes, 'x'), to(bytes);
                                   for (auto _ : state) {
                                     std::memcpy(to.data(), from.data(), bytes);
                                     benchmark::ClobberMemory();
                                   }
                                 })
        ->Repetitions(5)
        ->ComputeStatistics("min", allocgate::bench::fastest);
  }

  std::map<std::string, double> go_ns;
  run_go(go_binary, go_ns);
  allocgate::bench::FastestRuns reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  run_go(go_binary, go_ns);

  std::printf("\n%-28s %12s %12s %8s %9s %10s %9s\n", "case", "C++ ns/op", "Go ns/op", "Go/C++", "out bytes",
              "memcpy ns", "of memcpy");
  bool all_held = true;
  for (const Pair& pair : kPairs) {
    const auto cpp = reporter.fastest.find(pair.cpp);
    const auto copy = reporter.fastest.find(std::string("memcpy/") + pair.cpp);
    const auto go = go_ns.find(pair.go);
    if (cpp == reporter.fastest.end() || copy == reporter.fastest.end() || go == go_ns.end()) continue;  // filtered out
    const double cpp_ns = cpp->second.seconds * 1e9;
    const double copy_ns = copy->second.seconds * 1e9;
    const double ratio = go->second / cpp_ns;
    const bool held = !pair.optimized || ratio >= kMargin;
    all_held = all_held && held;
    std::printf("%-28s %12.1f %12.1f %7.2fx %9zu %10.1f %8.1f%%%s\n", pair.cpp, cpp_ns, go->second, ratio,
                output_bytes[pair.cpp], copy_ns, 100 * copy_ns / cpp_ns, held ? "" : "  under the margin");
  }
  std::printf(
      "(Go/C++: how many times faster the C++ is, held to %.1fx for the optimized variants; of memcpy: the C++\n"
      " time a copy of its output would take)\n",
      kMargin);
  return all_held ? 0 : 1;
}
