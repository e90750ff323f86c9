// SPDX-License-Identifier: Apache-2.0
// Counting every benchmark's timed loop with no code in the benchmark.
//
// The link of a program that uses allocgate::benchmark wraps Google
// Benchmark's loop entry points with ld's --wrap (see kWrappedSymbols and
// harness/CMakeLists.txt):
//
//   State::StartKeepRunning()   the loop begins: `for (auto _ : state)` calls it
//                               from State::end(), `while (state.KeepRunning())`
//                               from its first call
//   State::FinishKeepRunning()  the loop ends (both forms)
//   State::PauseTiming()        the benchmark stops the clock inside the loop
//   State::ResumeTiming()       and starts it again
//   benchmark::Initialize()     the program's main() starts Google Benchmark
//
// A user's object file calls these (the loop functions are inline in
// benchmark.h), so its calls reach allocgate first, whether Google Benchmark
// is Debian's shared library or a static or vendored build: --wrap rewrites
// the calls in the objects being linked, not the library. Google Benchmark's
// own calls between its functions are left alone. The counted region sits
// inside the timed one: it opens after the clock starts and closes before it
// stops, so the runner's work is never in it.
#pragma once

#include <cstdint>

#include "allocgate/stats.h"

namespace benchmark {
class State;
}

namespace allocgate::benchmark::detail {

/// A CountAllocations counts this state's loop itself: the automatic count
/// leaves it alone. nullptr when none does.
void set_explicitly_counted(const ::benchmark::State* state) noexcept;

/// Sets allocs/op, bytes/op (per iteration) and peak_bytes on the state.
void set_counters(::benchmark::State& state, const AllocationStats& stats);

/// allocgate::benchmark_main's main() is the one running: the wrapped
/// Initialize leaves its flags and context to it.
void set_allocgate_main() noexcept;

}  // namespace allocgate::benchmark::detail
