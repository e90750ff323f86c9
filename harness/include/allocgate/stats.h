// SPDX-License-Identifier: Apache-2.0
/// @file
/// The figures a measurement produces.
#pragma once

#include "allocgate/standard.h"  // C++17, said in one line

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <stdexcept>

namespace allocgate {

/// Calls to the C allocation functions (malloc, calloc, realloc, free,
/// posix_memalign, aligned_alloc, memalign), counted apart from operator new.
struct CAllocationStats {
  std::uint64_t allocations = 0;    ///< blocks returned (a realloc counts one)
  std::uint64_t deallocations = 0;  ///< blocks freed (a realloc that moved counts one)
  std::uint64_t bytes_allocated = 0;

  // Spelled out: this header is C++17 (no defaulted comparisons).
  friend bool operator==(const CAllocationStats& a, const CAllocationStats& b) {
    return a.allocations == b.allocations && a.deallocations == b.deallocations &&
           a.bytes_allocated == b.bytes_allocated;
  }
  friend bool operator!=(const CAllocationStats& a, const CAllocationStats& b) { return !(a == b); }
};

/// What was allocated through the global operator new/delete during a
/// measurement. Sizes are the sizes the program requested, not what malloc
/// rounded them up to, so they are the same on every allocator.
///
/// Counts and requested bytes are always exact. The size of a freed block is
/// known when the delete passed it (sized delete: g++ does for every delete of
/// a complete type and every std::allocator, clang with -fsized-deallocation,
/// which allocgate::harness adds) or when block headers are linked
/// (allocgate::block_headers; allocgate::gtest brings them).
/// Otherwise the free is an unsized deallocation: counted, but its bytes are
/// missing from bytes_freed, so net_bytes and peak_live_bytes are upper
/// bounds. sizes_known() tells which.
struct AllocationStats {
  /// Calls to any form of operator new / new[] that returned memory.
  std::uint64_t allocations = 0;
  /// Calls to any form of operator delete / delete[] on a non-null pointer,
  /// made while counting was not paused (with block headers: on a block that
  /// was counted when it was allocated).
  std::uint64_t deallocations = 0;
  /// Bytes requested by those allocations.
  std::uint64_t bytes_allocated = 0;
  /// Requested size of the blocks freed, over the frees whose size is known.
  std::uint64_t bytes_freed = 0;
  /// bytes_allocated - bytes_freed: what the measured code left allocated.
  /// Negative when it freed blocks allocated before the measurement began.
  std::int64_t net_bytes = 0;
  /// The largest value net_bytes reached during the measurement.
  std::uint64_t peak_live_bytes = 0;
  /// Deallocations whose block size was unknown (an unsized delete without
  /// block headers); included in `deallocations`, not in `bytes_freed`.
  std::uint64_t unsized_deallocations = 0;
  /// The malloc family's calls, when allocgate::c_allocations is linked;
  /// absent (not 0) otherwise. operator new's own mallocs are not in it.
  std::optional<CAllocationStats> c;

  /// True when every free's size is known, so that bytes_freed, net_bytes and
  /// peak_live_bytes are exact.
  bool sizes_known() const noexcept { return unsized_deallocations == 0; }

  friend bool operator==(const AllocationStats& a, const AllocationStats& b) {
    return a.allocations == b.allocations && a.deallocations == b.deallocations &&
           a.bytes_allocated == b.bytes_allocated && a.bytes_freed == b.bytes_freed && a.net_bytes == b.net_bytes &&
           a.peak_live_bytes == b.peak_live_bytes && a.unsized_deallocations == b.unsized_deallocations && a.c == b.c;
  }
  friend bool operator!=(const AllocationStats& a, const AllocationStats& b) { return !(a == b); }
};

/// How the hook learns the size of a freed block; fixed for the process.
enum class SizeTracking {
  /// The default: from sized delete, unknown for unsized ones.
  sized_delete,
  block_headers,  ///< allocgate::block_headers or allocgate::gtest is linked: always known
};

/// The process's SizeTracking.
SizeTracking size_tracking() noexcept;

/// Prints the figures on one line, for failure messages and logs.
std::ostream& operator<<(std::ostream& out, const AllocationStats& stats);

/// Thrown by the first measurement of a process in which the global operator
/// new does not reach allocgate's hook (the hook's object file was not linked
/// into the executable, or another replacement won). Without this check every
/// count would read 0 and every "allocates nothing" test would pass.
class HookNotLinked : public std::logic_error {
 public:
  HookNotLinked();
};

}  // namespace allocgate
