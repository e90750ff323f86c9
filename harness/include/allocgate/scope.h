// SPDX-License-Identifier: Apache-2.0
/// @file
/// RAII scopes that measure the allocations made while they live.
#pragma once

#include "allocgate/standard.h"  // C++17, said in one line

#include <cstdint>

#include "allocgate/stats.h"

namespace allocgate {

/// Measures what the *current thread* allocates between construction and
/// destruction. Allocations by other threads are not seen. Scopes nest: an
/// inner scope's allocations are counted in the outer one too, and the peak of
/// each is its own.
///
/// The first scope of a process checks that the counting hook is live and
/// throws HookNotLinked if it is not.
///
///     allocgate::AllocationScope scope;
///     build_response(out);
///     EXPECT_EQ(scope.stats().allocations, 0u);
class AllocationScope {
 public:
  AllocationScope();
  ~AllocationScope();
  AllocationScope(const AllocationScope&) = delete;
  AllocationScope& operator=(const AllocationScope&) = delete;

  /// The figures from construction until now.
  [[nodiscard]] AllocationStats stats() const noexcept;

 private:
  AllocationStats start_;
  std::int64_t start_live_ = 0;
  std::int64_t outer_peak_ = 0;
};

/// Measures what *all threads* allocate between construction and destruction,
/// including threads that start and end inside it.
///
/// While at least one process scope is open the hook also updates shared
/// atomic totals, a locked instruction per allocation: cheap on one thread,
/// contended when many allocate at once. Open process scopes only around the
/// code under measurement. Process scopes nest like thread scopes; two that
/// overlap without nesting (opened and closed by different threads in
/// interleaved order) still count exactly, but the later one's peak may include
/// the earlier one's.
class ProcessAllocationScope {
 public:
  ProcessAllocationScope();
  ~ProcessAllocationScope();
  ProcessAllocationScope(const ProcessAllocationScope&) = delete;
  ProcessAllocationScope& operator=(const ProcessAllocationScope&) = delete;

  /// The figures from construction until now.
  [[nodiscard]] AllocationStats stats() const noexcept;

 private:
  AllocationStats start_;
  std::int64_t start_live_ = 0;
  std::int64_t outer_peak_ = 0;
};

/// Throws HookNotLinked unless operator new reaches the hook. Scopes call it;
/// call it yourself to fail early, e.g. at the start of main.
void require_hook();

}  // namespace allocgate
