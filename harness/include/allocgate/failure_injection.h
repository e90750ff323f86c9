// SPDX-License-Identifier: Apache-2.0
/// @file
/// Making allocations fail on purpose, to test exception safety.
#pragma once

#include "allocgate/standard.h"  // C++17, said in one line

#include <cstdint>
#include <functional>
#include <new>
#include <utility>

namespace allocgate {

/// Makes the Nth allocation attempt from now on the current thread fail
/// (N = 0 is the next one): the throwing forms of operator new throw
/// std::bad_alloc, the nothrow forms return nullptr. The new_handler is not
/// called for an injected failure. One shot: later allocations succeed.
///
/// Arming a second injection on a thread while one is armed throws
/// std::logic_error: two countdowns on one thread have no useful meaning.
class InjectAllocationFailure {
 public:
  explicit InjectAllocationFailure(std::uint64_t nth);
  ~InjectAllocationFailure();
  InjectAllocationFailure(const InjectAllocationFailure&) = delete;
  InjectAllocationFailure& operator=(const InjectAllocationFailure&) = delete;

  /// Whether the failure has happened.
  [[nodiscard]] bool fired() const noexcept;
};

/// The result of fail_each_allocation.
struct FailureSweep {
  /// Allocation attempts fn makes when none fails: the number of failure
  /// points tested.
  std::uint64_t allocation_points = 0;
  /// Of those failures, how many reached the sweep as std::bad_alloc...
  std::uint64_t propagated = 0;
  /// ...and how many fn absorbed and completed anyway.
  std::uint64_t absorbed = 0;
};

// The sweep catches std::bad_alloc: it needs exceptions. Without them
// (-fno-exceptions) InjectAllocationFailure still makes the nothrow forms
// return null.
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)

/// Runs fn() with allocation 0 failing, then allocation 1, 2, ... until a run
/// completes without reaching the injected failure; that final run is the
/// successful one. Exceptions other than std::bad_alloc propagate. Throws
/// std::runtime_error after `max_points` failures (fn keeps allocating more).
/// Check your invariants inside fn, e.g. catch bad_alloc there and verify the
/// container is unchanged.
template <class Fn>
FailureSweep fail_each_allocation(Fn&& fn, std::uint64_t max_points = 1'000'000);

namespace detail {
[[noreturn]] void throw_sweep_limit(std::uint64_t max_points);
}

template <class Fn>
FailureSweep fail_each_allocation(Fn&& fn, std::uint64_t max_points) {
  FailureSweep sweep;
  for (std::uint64_t nth = 0;; ++nth) {
    if (nth > max_points) detail::throw_sweep_limit(max_points);
    InjectAllocationFailure failure(nth);
    bool propagated = false;
    try {
      std::invoke(fn);
    } catch (const std::bad_alloc&) {
      if (!failure.fired()) throw;  // a real out-of-memory, not ours
      propagated = true;
    }
    if (!failure.fired()) {
      sweep.allocation_points = nth;
      return sweep;
    }
    ++(propagated ? sweep.propagated : sweep.absorbed);
  }
}

#endif  // exceptions

}  // namespace allocgate
