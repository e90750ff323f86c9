// SPDX-License-Identifier: Apache-2.0
/// @file
/// Google Benchmark integration: exact allocs/op, bytes/op and peak bytes of
/// every benchmark's timed loop, in both the console and the JSON output, with
/// no code in the benchmarks.
///
/// Link allocgate::benchmark_main in place of benchmark::benchmark_main (or
/// allocgate::benchmark when the program has its own BENCHMARK_MAIN()). That
/// is the whole change: the link wraps Google Benchmark's loop functions
/// (State::StartKeepRunning, FinishKeepRunning, PauseTiming, ResumeTiming), so
/// every `for (auto _ : state)` and `while (state.KeepRunning())` loop is
/// counted from its first iteration to its last, on each of its threads.
/// Setup before the loop, fixtures' SetUp/TearDown, whatever runs after the
/// loop (SetBytesProcessed, SetLabel, state.counters) and whatever runs between
/// PauseTiming() and ResumeTiming() are not counted, as Go's b.StopTimer()
/// leaves them out. Only the benchmark's own threads are counted: work handed
/// to a pool of other threads is not.
///
/// allocgate::benchmark_main's main() also prints the counters exactly, warns
/// about any benchmark left without them, fails with HookNotLinked's message
/// if counting is not live, and takes --allocgate_sites: each benchmark's top
/// allocation sites and stacks per iteration, in the JSON output (the shape
/// `allocgate run --sites` writes, so `allocgate diff` names the line under a
/// regression) or, without one, on the console. Paths are relative to the
/// source tree each frame's code was built from (CaptureSites::profile), or
/// to --allocgate_source_root=DIR. Capture unwinds every allocation: the
/// times of such a run are not the code's. A program with a main() of its own
/// linked with allocgate::benchmark gets the same through the link (its calls
/// to benchmark::Initialize and RunSpecifiedBenchmarks are wrapped), and the
/// environment's ALLOCGATE_SITES=1 for a main that passes no flags on.
#pragma once

#include "allocgate/standard.h"  // C++17, said in one line

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

/// A scope of the benchmark's own choosing, for the rare benchmark whose
/// figures should cover more or less than its loop: counts the current
/// thread's allocations from its construction to its end and sets them on the
/// state in place of the loop's count (a state is never counted twice).
/// allocs/op and bytes/op are averaged over the iterations; peak_bytes is the
/// peak of live bytes. In a multi-threaded benchmark create one in each
/// thread: the runner sums the threads' figures, so allocs/op and bytes/op
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
