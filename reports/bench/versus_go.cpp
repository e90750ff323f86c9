// SPDX-License-Identifier: Apache-2.0
// The workloads against the Go versions of the case studies' jobs, on the
// same inputs and side by side in one run: in each round the Go program (its
// own testing.Benchmark figures, ns/op) runs before, between and after two
// passes of this program's Google Benchmark runs of the matching cases, and
// each side's fastest figure is compared. Each case is also set against memcpy of its output's
// bytes on this machine, the ceiling for code whose job is to write them.
//
//   cmake --build --preset release --target versus-go    (ALLOCGATE_VERSUS_GO_ROUNDS rounds)
//   allocgate_versus_go [benchmark flags] GO_PEERS_BINARY [--rounds N]
//
// With more than one round it ends with a Markdown table of each case's
// worst and best ratio over the rounds, the table docs/measurements.md shows.

#include <benchmark/benchmark.h>
#include <CLI/CLI.hpp>

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

// One round: the Go program and this program's benchmarks in turn, Go first
// and last: each side measured in separate windows of time, so that a slow
// spell of the shared machine spoils one window, not a side's every figure.
constexpr int kPasses = 2;  // of the benchmarks, each of kRepetitions
constexpr int kRepetitions = 3;
struct Round {
  allocgate::bench::FastestRuns cpp;
  std::map<std::string, double> go_ns;
};

// A round's figures for one pair, or false when it was filtered out.
struct Figures {
  double cpp_ns, go_ns, copy_ns;
};
bool figures_of(const Round& round, const Pair& pair, Figures& figures) {
  const auto cpp = round.cpp.fastest.find(pair.cpp);
  const auto copy = round.cpp.fastest.find(std::string("memcpy/") + pair.cpp);
  const auto go = round.go_ns.find(pair.go);
  if (cpp == round.cpp.fastest.end() || copy == round.cpp.fastest.end() || go == round.go_ns.end()) return false;
  figures = {cpp->second.seconds * 1e9, go->second, copy->second.seconds * 1e9};
  return true;
}

// Prints a round's table; false when an optimized variant missed the margin.
bool print_round(const Round& round, const std::map<std::string, std::size_t>& output_bytes) {
  std::printf("\n%-28s %12s %12s %8s %9s %10s %9s\n", "case", "C++ ns/op", "Go ns/op", "Go/C++", "out bytes",
              "memcpy ns", "of memcpy");
  bool all_held = true;
  for (const Pair& pair : kPairs) {
    Figures f;
    if (!figures_of(round, pair, f)) continue;
    const double ratio = f.go_ns / f.cpp_ns;
    const bool held = !pair.optimized || ratio >= kMargin;
    all_held = all_held && held;
    std::printf("%-28s %12.1f %12.1f %7.2fx %9zu %10.1f %8.1f%%%s\n", pair.cpp, f.cpp_ns, f.go_ns, ratio,
                output_bytes.at(pair.cpp), f.copy_ns, 100 * f.copy_ns / f.cpp_ns, held ? "" : "  under the margin");
  }
  std::printf(
      "(Go/C++: how many times faster the C++ is, held to %.1fx for the optimized variants; of memcpy: the C++\n"
      " time a copy of its output would take)\n",
      kMargin);
  return all_held;
}

// Over every round, as a Markdown table: each side's range of fastest
// figures and the worst and best ratio a round saw.
void print_summary(const std::vector<Round>& rounds) {
  std::printf(
      "\n%zu rounds:\n\n| case | C++ ns/op | Go ns/op | Go/C++, worst-best | of memcpy |\n"
      "| --- | ---: | ---: | ---: | ---: |\n",
      rounds.size());
  for (const Pair& pair : kPairs) {
    std::vector<Figures> seen;
    for (const Round& round : rounds) {
      Figures f;
      if (figures_of(round, pair, f)) seen.push_back(f);
    }
    if (seen.empty()) continue;
    const auto range = [&](auto field) {
      const auto [low, high] = std::minmax_element(
          seen.begin(), seen.end(), [&](const Figures& a, const Figures& b) { return field(a) < field(b); });
      return std::pair(field(*low), field(*high));
    };
    const auto [cpp_low, cpp_high] = range([](const Figures& f) { return f.cpp_ns; });
    const auto [go_low, go_high] = range([](const Figures& f) { return f.go_ns; });
    const auto [worst, best] = range([](const Figures& f) { return f.go_ns / f.cpp_ns; });
    const auto [copy_low, copy_high] = range([](const Figures& f) { return f.copy_ns / f.cpp_ns; });
    const char* bold = pair.optimized ? "**" : "";
    std::printf("| %s%s%s | %.1f-%.1f | %.1f-%.1f | %s%.2f-%.2fx%s | %.1f-%.1f%% |\n", bold, pair.cpp, bold, cpp_low,
                cpp_high, go_low, go_high, bold, worst, best, bold, 100 * copy_low, 100 * copy_high);
  }
}

}  // namespace

int main(int argc, char** argv) {
  allocgate::require_hook();
  benchmark::Initialize(&argc, argv);
  CLI::App app("The workloads against their Go peers, side by side, in rounds", "allocgate_versus_go");
  std::string go_binary;
  int round_count = 1;
  app.add_option("go-peers", go_binary, "The Go peers' program, built from ALLOCGATE_GO_PEERS_DIR")->required();
  app.add_option("--rounds", round_count, "Rounds, one after another; each must hold the margin")
      ->check(CLI::Range(1, 100));
  CLI11_PARSE(app, argc, argv);

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
        ->Repetitions(kRepetitions)
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
        ->Repetitions(kRepetitions)
        ->ComputeStatistics("min", allocgate::bench::fastest);
  }

  std::vector<Round> rounds(static_cast<std::size_t>(round_count));
  bool all_held = true;
  for (Round& round : rounds) {
    run_go(go_binary, round.go_ns);
    for (int pass = 0; pass < kPasses; ++pass) {
      benchmark::RunSpecifiedBenchmarks(&round.cpp);
      run_go(go_binary, round.go_ns);
    }
    all_held = print_round(round, output_bytes) && all_held;
  }
  benchmark::Shutdown();
  if (rounds.size() > 1) print_summary(rounds);
  return all_held ? 0 : 1;
}
