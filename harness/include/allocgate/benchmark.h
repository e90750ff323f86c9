/// @file
/// Google Benchmark integration (link allocgate::benchmark): exact allocs/op,
/// bytes/op and peak bytes in both the console and the JSON output.
///
///     static void BM_format(benchmark::State& state) {
///       const auto input = make_input();                  // not counted
///       allocgate::benchmark::CountAllocations count(state);
///       for (auto _ : state) format(input);
///     }
///
/// Why a line per benchmark instead of a benchmark::MemoryManager: the memory
/// manager measures a whole call of the benchmark function, setup included, plus
/// the runner's own allocations, and divides by a small iteration count, so a
/// benchmark that allocates nothing per iteration reports a fraction. Counting
/// from just before the loop to just after it is exact.
///
/// Link allocgate::benchmark_main instead of benchmark::benchmark_main to also
/// get a warning for every benchmark that reports no allocation counters, a
/// HookNotLinked error before anything runs if counting is not live, and the
/// flag --allocgate_sites: each benchmark's top allocation sites and stacks per
/// iteration, in the JSON output (the shape `allocgate run --sites` writes, so
/// `allocgate diff` names the line under a regression) or, without one, on the
/// console. Paths are relative to --allocgate_source_root (default: the
/// current directory). Capture unwinds every allocation: the times of such a
/// run are not the code's.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>

#include "allocgate/report_keys.h"
#include "allocgate/scope.h"
#include "allocgate/sites.h"

namespace allocgate::benchmark {

/// Counter names, as they appear in the console and in the JSON output.
using keys::kAllocsPerOp;
using keys::kBytesPerOp;
using keys::kPeakBytes;

/// Counts the allocations of the current thread from its construction to its
/// end, and sets them on the state as counters: allocs/op and bytes/op are
/// averaged over the iterations (exact integers for deterministic code), and
/// peak_bytes is the peak of live bytes. Create it right before the
/// `for (auto _ : state)` loop. In a multi-threaded benchmark create one in
/// each thread: the runner sums the threads' figures, so allocs/op and bytes/op
/// stay per iteration and peak_bytes is the sum of the threads' peaks.
class CountAllocations {
 public:
  explicit CountAllocations(::benchmark::State& state);
  ~CountAllocations();
  CountAllocations(const CountAllocations&) = delete;
  CountAllocations& operator=(const CountAllocations&) = delete;

 private:
  ::benchmark::State& state_;
  AllocationScope scope_;
  std::unique_ptr<CaptureSites> sites_;  ///< with --allocgate_sites
};

/// A console reporter that prints allocgate's counters exactly (Google
/// Benchmark's own prints six significant digits with SI suffixes, so 1234567
/// allocations would read "1.23457M"). Other output is the console's own.
std::unique_ptr<::benchmark::BenchmarkReporter> make_exact_console_reporter(
    ::benchmark::ConsoleReporter::OutputOptions options = ::benchmark::ConsoleReporter::OO_Defaults);

/// The body of allocgate::benchmark_main's main(): runs the benchmarks like
/// BENCHMARK_MAIN() with the exact console reporter, adds allocgate_toolchain
/// to the JSON context (the key `allocgate diff` looks bounds up by), warns
/// on stderr about each benchmark without counters, and takes
/// --allocgate_sites[=true|false] and --allocgate_source_root=DIR.
/// Returns the process exit code.
int run_benchmarks_main(int argc, char** argv);

}  // namespace allocgate::benchmark
