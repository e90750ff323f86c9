// SPDX-License-Identifier: Apache-2.0
// Internal: the header the hook writes in front of each block when block
// headers are linked (hook.cpp), and what the reachability check reads back
// from a word that may point at one (reachability.cpp).
#pragma once

#include <cstddef>
#include <cstdint>

#include "counting/thread_state.h"

namespace allocgate::detail {

// The header's tag: whether the block was counted, whether it was tagged
// leakable (allocated, counted, while tagging was on, outside a static's
// construction), its offset from malloc's pointer (16, or an alignment over
// 16, up to 2 MiB), a check of the header's address and the block's size,
// and, when leakable, which tagging it belongs to.
struct alignas(16) BlockHeader {
  std::size_t size;
  std::uint64_t tag;  // tagging's block_tag | check << 24 | offset << 2 | leakable << 1 | counted
};
static_assert(sizeof(BlockHeader) == 16);
inline constexpr std::uint64_t kCountedBit = 1;
inline constexpr std::uint64_t kLeakableBit = 2;
inline constexpr int kOffsetShift = 2;
inline constexpr std::uint64_t kOffsetMask = (std::uint64_t{1} << 22) - 1;  // offsets up to 4 MiB - 1
inline constexpr int kCheckShift = kOffsetShift + 22;
inline constexpr std::uint64_t kCheckBits = ((std::uint64_t{1} << 16) - 1) << kCheckShift;
static_assert(kBlockTagShift == kCheckShift + 16);

// 16 bits of a hash of the header's address and the block's size: a word
// that merely looks like a header (an array of {length, 64} records in some
// library's memory) passes plausible_header one time in 65,536, where it
// passed every time before; a header copied elsewhere never. One multiply on
// each allocation with headers.
inline std::uint64_t header_check(const void* header, std::size_t size) noexcept {
  const std::uint64_t mixed =
      (reinterpret_cast<std::uintptr_t>(header) ^ (std::uint64_t{size} << 1)) * 0x9E3779B97F4A7C15ull;
  return (mixed >> 48) << kCheckShift;
}

inline std::size_t offset_of(std::uint64_t tag) noexcept {
  return static_cast<std::size_t>(tag >> kOffsetShift & kOffsetMask);
}

inline BlockHeader* header_of(void* user) noexcept { return static_cast<BlockHeader*>(user) - 1; }

// Called on every free: a block's header no longer names it. malloc writes
// its free lists' links over the header of most freed blocks, but not of a
// block merged into a free neighbour, whose header would otherwise still
// pass plausible_header. One store to a line the free has just read.
inline void forget_header(void* user) noexcept { header_of(user)->tag = 0; }

// Whether `h`, read at `at`, can be a live block's header: its check right
// for its place and size, its offset one the hook writes (16, or a power of
// two above it), a tagging's bits only with the leakable bit, which comes
// only with the counted one, and the block within `room` bytes. A freed block fails it: malloc writes its free list's
// links over the first 16 bytes, where the header is.
inline bool plausible_header(const BlockHeader& h, const void* at, std::size_t room) noexcept {
  if ((h.tag & kCheckBits) != header_check(at, h.size)) return false;
  const std::size_t offset = offset_of(h.tag);
  if (offset < sizeof(BlockHeader) || (offset & (offset - 1)) != 0) return false;
  if (!(h.tag & kLeakableBit) && (h.tag & kBlockTagBits) != 0) return false;
  if ((h.tag & kLeakableBit) && !(h.tag & kCountedBit)) return false;
  return h.size <= room;
}

}  // namespace allocgate::detail
