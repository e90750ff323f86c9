// SPDX-License-Identifier: Apache-2.0
// Internal: the memory allocgate maps from the kernel for itself (the table
// of tracked blocks, the marking's arrays and its snapshot of the roots),
// which no root of the marking may take in. The kernel joins an anonymous
// mapping to a neighbour of the same permissions, so a thread's stack or
// thread-local storage, cut to its mapping as /proc/self/maps lists it, can
// run on into one, where the addresses it holds (every tracked block's, the
// blocks reached) would keep those blocks: a leak hidden, as mappings
// happen to lie (a huge-page-aligned table lies wherever the random base
// leaves it). Registered as they are mapped; read while other threads are
// stopped, so no lock: each slot is written end first and read begin first.
#pragma once

#include <cstddef>
#include <cstdint>

namespace allocgate::detail {

/// Zeroed read-write pages, registered; null when the kernel has none.
void* map_own_pages(std::size_t bytes) noexcept;
/// Registers pages mapped otherwise (trimmed to an alignment).
void own_pages_mapped(void* memory, std::size_t bytes) noexcept;
/// Unregisters pages, which stay mapped.
void own_pages_forgotten(void* memory, std::size_t bytes) noexcept;
/// Unregisters and unmaps pages of map_own_pages or own_pages_mapped.
void unmap_own_pages(void* memory, std::size_t bytes) noexcept;

struct OwnMapping {
  std::uintptr_t begin = 0;
  std::uintptr_t end = 0;
};
/// Copies up to `capacity` of the registered mappings into `out`; returns how many.
std::size_t own_mappings(OwnMapping* out, std::size_t capacity) noexcept;

}  // namespace allocgate::detail
