// SPDX-License-Identifier: Apache-2.0
// Counting every benchmark's timed loop with no code in the benchmark.
//
// The link of a program that uses allocgate::benchmark wraps Google
// Benchmark's loop entry points with ld's --wrap (wrapped.h; the list is
// ALLOCGATE_BENCHMARK_WRAPPED in cmake/allocgateIntegrations.cmake):
//
//   State::StartKeepRunning()   the loop begins: `for (auto _ : state)` calls it
//                               from State::end(), `while (state.KeepRunning())`
//                               from its first call
//   State::FinishKeepRunning()  the loop ends (both forms)
//   State::PauseTiming()        the benchmark stops the clock inside the loop
//   State::ResumeTiming()       and starts it again
//   benchmark::Initialize()     the program's main() starts Google Benchmark
//   RunSpecifiedBenchmarks()    and runs the benchmarks (three of its overloads;
//                               see benchmark_own_main.cpp)
//
// A user's object file calls these (the loop functions are inline in
// benchmark.h), so its calls reach allocgate first, whether Google Benchmark
// is Debian's shared library or a static or vendored build: --wrap rewrites
// the calls in the objects being linked, not the library. Google Benchmark's
// own calls between its functions are left alone. The counted region sits
// inside the timed one: it opens after the clock starts and closes before it
// stops, so the runner's work is never in it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "allocgate/stats.h"

namespace benchmark {
class BenchmarkReporter;
class State;
}  // namespace benchmark

namespace allocgate::benchmark::detail {

/// A CountAllocations counts this state's loop itself: the automatic count
/// leaves it alone. nullptr when none does.
void set_explicitly_counted(const ::benchmark::State* state) noexcept;

/// Sets allocs/op, bytes/op (per iteration) and peak_bytes on the state.
void set_counters(::benchmark::State& state, const AllocationStats& stats);

/// allocgate::benchmark_main's main() is the one running: the wrapped
/// Initialize leaves its flags and context to it (benchmark_own_main.cpp).
void set_allocgate_main() noexcept;

/// Runs the benchmarks as RunSpecifiedBenchmarks(display, file) does, the
/// display (Google Benchmark's default when null, with allocgate's counters
/// exact) wrapped so that each benchmark's captured sites are attributed to
/// it and a benchmark left uncounted is named on stderr; then writes the
/// sites (--allocgate_sites). Every main runs its benchmarks through it.
struct CountedRun {
  std::size_t benchmarks = 0;     ///< what RunSpecifiedBenchmarks returned
  bool counters_missing = false;  ///< some benchmark ran without counters
  bool sites_failed = false;      ///< the sites could not be written (said on stderr)
};
CountedRun run_counted(::benchmark::BenchmarkReporter* display, ::benchmark::BenchmarkReporter* file);

/// Google Benchmark's own RunSpecifiedBenchmarks(display, file), past the wrap.
std::size_t run_real(::benchmark::BenchmarkReporter* display, ::benchmark::BenchmarkReporter* file);

}  // namespace allocgate::benchmark::detail
