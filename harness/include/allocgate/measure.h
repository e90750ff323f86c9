// SPDX-License-Identifier: Apache-2.0
/// @file
/// One-call measurements: `measure(fn)` and Go's `AllocsPerRun`.
#pragma once

#include "allocgate/standard.h"  // C++17, said in one line

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <utility>

#include "allocgate/scope.h"
#include "allocgate/stats.h"

namespace allocgate {

/// Which allocations a measurement sees.
enum class Threads {
  current,  ///< the calling thread's only (AllocationScope)
  all,      ///< every thread's (ProcessAllocationScope)
};

/// Runs fn() once and returns what it allocated.
template <class Fn>
AllocationStats measure(Fn&& fn, Threads threads = Threads::current) {
  if (threads == Threads::all) {
    ProcessAllocationScope scope;
    std::invoke(std::forward<Fn>(fn));
    return scope.stats();
  }
  AllocationScope scope;
  std::invoke(std::forward<Fn>(fn));
  return scope.stats();
}

/// The result of allocs_per_run.
struct AllocsPerRun {
  /// Total allocations over the measured runs divided by the runs, exactly.
  double mean = 0;
  /// What Go's testing.AllocsPerRun returns: total / runs, truncated.
  std::uint64_t truncated = 0;
  /// Everything the measured runs allocated, summed.
  AllocationStats total;
  int runs = 0;
};

/// Go's testing.AllocsPerRun: calls fn() once to warm up (not counted), then
/// `runs` more times, and returns the allocations per run. Throws
/// std::invalid_argument when runs <= 0 (Go divides by zero there).
namespace detail {
// Out of line, so that the header compiles without exceptions too.
[[noreturn]] void throw_invalid_runs(int runs);
}  // namespace detail

template <class Fn>
AllocsPerRun allocs_per_run(int runs, Fn&& fn, Threads threads = Threads::current) {
  if (runs <= 0) detail::throw_invalid_runs(runs);
  std::invoke(fn);
  AllocsPerRun result;
  result.runs = runs;
  result.total = measure(
      [&] {
        for (int i = 0; i < runs; ++i) std::invoke(fn);
      },
      threads);
  result.mean = static_cast<double>(result.total.allocations) / runs;
  result.truncated = result.total.allocations / static_cast<std::uint64_t>(runs);
  return result;
}

}  // namespace allocgate
