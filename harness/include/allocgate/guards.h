// SPDX-License-Identifier: Apache-2.0
/// @file
/// Guards that change what the hook does on the current thread.
#pragma once

#include "allocgate/standard.h"  // C++17, said in one line

#include <cstdint>

namespace allocgate {

/// Where a guard was created. std::source_location would do, but libstdc++ 12
/// offers it to g++ only (clang 14 lacks the builtin it needs).
struct SourceLocation {
  const char* file = "";
  std::uint32_t line = 0;
  static constexpr SourceLocation current(const char* file = __builtin_FILE(),
                                          std::uint32_t line = __builtin_LINE()) noexcept {
    return SourceLocation{file, line};
  }
};

/// What a ForbidAllocations guard saw when it ended.
struct ForbiddenAllocations {
  std::uint64_t count = 0;       ///< allocations made while forbidden
  std::uint64_t bytes = 0;       ///< bytes they requested
  std::uint64_t first_size = 0;  ///< size of the first one
  const char* guard_file = "";   ///< where the guard that reports was created
  std::uint32_t guard_line = 0;
};

/// Called when a ForbidAllocations guard that saw allocations ends. The
/// default prints one line to stderr and aborts; allocgate's GoogleTest
/// integration installs one that fails the current test instead.
using ForbiddenAllocationHandler = void (*)(const ForbiddenAllocations&);

/// The handler must not throw: it is called from a destructor.
/// Installs a handler (nullptr restores the default) and returns the previous.
ForbiddenAllocationHandler set_forbidden_allocation_handler(ForbiddenAllocationHandler handler) noexcept;

/// Forbids allocation on the current thread while it lives. An allocation is
/// not refused (the code under test keeps running); it is recorded, and when
/// the guard ends the handler is called once with the count and sizes.
/// Other threads may allocate freely. Nested guards report each forbidden
/// allocation once, in the innermost guard that ends after it.
class ForbidAllocations {
 public:
  explicit ForbidAllocations(SourceLocation where = SourceLocation::current()) noexcept;
  ~ForbidAllocations();
  ForbidAllocations(const ForbidAllocations&) = delete;
  ForbidAllocations& operator=(const ForbidAllocations&) = delete;

  /// Allocations made on this thread since this guard began.
  [[nodiscard]] std::uint64_t violations() const noexcept;

 private:
  std::uint64_t start_;
  SourceLocation where_;
};

/// Stops counting the current thread's allocations and frees while it lives,
/// for a harness's own bookkeeping. Nests. A forbid guard does not see
/// allocations made while paused. Free a block allocated while paused while
/// paused too: a free after counting resumes is counted (with
/// allocgate::block_headers linked it is not, the header remembers).
class PauseCounting {
 public:
  PauseCounting() noexcept;
  ~PauseCounting();
  PauseCounting(const PauseCounting&) = delete;
  PauseCounting& operator=(const PauseCounting&) = delete;

  /// Resumes counting before the guard ends. Calling it again, or letting the
  /// guard end afterwards, does nothing more.
  void resume() noexcept;

 private:
  bool active_ = true;
};

/// What the current thread allocates while it lives is kept on purpose beyond
/// the test that allocates it: an entry a cache interns for later tests, a
/// thread_local built on first use, a std::call_once's result. With
/// allocgate::gtest it is one-time initialisation, as a function-local
/// static's construction is without it: left out of the test's figures
/// (whichever test comes first would pay it) and reported apart
/// (`allocgate_one_time_allocs`), never a leak. Nests; other threads'
/// allocations are not covered. A block kept without it is told by
/// reachability: kept, counted, and reported as kept bytes, not leaked.
///
///     TEST(Names, InternsOnce) {
///       { allocgate::KeptAcrossTests kept; names().intern("alpha"); }
///       EXPECT_EQ(names().size(), 1u);
///     }
class KeptAcrossTests {
 public:
  KeptAcrossTests() noexcept;
  ~KeptAcrossTests();
  KeptAcrossTests(const KeptAcrossTests&) = delete;
  KeptAcrossTests& operator=(const KeptAcrossTests&) = delete;
};

}  // namespace allocgate
