// SPDX-License-Identifier: Apache-2.0
// Internal: the blocks allocated while tracking is on and not freed yet, each
// with its requested size. What a leak check per test reads: a leak is a
// block allocated during the test and still live at its end, told by address,
// not by a net byte count (a test that frees an older buffer and leaks a new
// one of the same size leaks), and a free that passes no size (libstdc++ 12
// frees a std::string so) still finds the size of a block it tracks.
//
// Two ways, chosen when tracking starts:
//  - tagging, when block headers are linked (allocgate::gtest links them) and
//    no stacks are wanted: the hook writes a tag into each block's header and
//    keeps a tally of the tagged blocks still live, owner's and others' shares
//    as the process totals (thread_state.h). No table: about 100 instructions
//    less per allocation and per free, the table's probe and its cache miss.
//  - the table, otherwise: the hook calls track_block and untrack_block while
//    kTrackingBlocks is set; one lock guards it, as a test's threads allocate
//    at once. It lives in pages mapped from the kernel, so it never reaches
//    the hook. It keeps each block's stack, which a leak's lines need.
#pragma once

#include <cstddef>
#include <cstdint>

namespace allocgate::detail {

class RootSnapshot;  // reachability.h

struct CapturedStack;

struct TrackedBlock {
  void* block = nullptr;
  std::size_t size = 0;
  CapturedStack* stack = nullptr;  // the capture's stack that allocated it, if one was on
  bool counted = false;            // false: the harness's or its caller's own (paused), not the code's
  bool kept_by_static = false;     // allocated while a function-local static was built: not a leak
};

/// From now on the hook tracks, anew: by tagging when block headers are
/// linked and with_stacks is false (live_blocks can then give totals only),
/// else in the emptied table.
void start_tracking_blocks(bool with_stacks = false) noexcept;
/// Stops tracking; live_blocks still reads what it was until the next start.
void stop_tracking_blocks() noexcept;

/// Called by the hook for every block it returns while tracking.
void track_block(void* block, std::size_t size, bool counted, CapturedStack* stack) noexcept;
/// Called by the hook for every block freed while tracking: false when the
/// block was allocated before tracking began; else `found` is what was kept.
bool untrack_block(void* block, TrackedBlock& found) noexcept;
/// Between these, the calling thread builds a function-local static (the
/// C++ runtime's __cxa_guard_acquire and __cxa_guard_release, which
/// allocgate::gtest defines in the program for every caller): what it
/// allocates is counted, but kept by the static for the program's life, so
/// not a leak. allocgate::KeptAcrossTests, the
/// user's word for a block kept on purpose, calls them too.
void begin_static_initialization() noexcept;
void end_static_initialization() noexcept;

/// Marks a block allocated before tracking began as not the code's, so that
/// its free is not counted either (a test fixture's own storage). When
/// tagging, one block at a time: the last one disowned.
void disown_block(void* block, std::size_t size) noexcept;

/// From now on, with block headers, each new block up to 128 KiB is cleared
/// before it is handed out: split_live_blocks' marking reads every word of
/// a live block, and a word its program never wrote (a std::string's unused
/// inline buffer, a vector's spare capacity) would otherwise hold what the
/// memory's last block left there: a stale pointer that keeps a leak.
void clear_new_blocks() noexcept;

/// From now on, with block headers, a block freed (the framework's, its
/// runner's, an earlier test's) is held back from malloc, up to 64 MiB,
/// oldest handed back first: a stale copy of its address (a cleared
/// vector's spare capacity, where a section's name was; the bytes of a
/// struct sigaction that glibc copies from its stack and the kernel never
/// wrote, kept in doctest's static handlers) then cannot be the address of
/// a block a later test allocates, whose leak it would hide from
/// split_live_blocks' marking.
void hold_freed_blocks() noexcept;

/// The counted blocks still tracked, but those kept by a static: leaked bytes and blocks, and calls
/// visit(block) for each, under the table's lock (visit must not allocate); when tagging, visits none.
struct LiveTotals {
  std::uint64_t blocks = 0;
  std::uint64_t bytes = 0;
};
LiveTotals live_blocks(void (*visit)(const TrackedBlock&, void*) = nullptr, void* data = nullptr) noexcept;

/// The counted blocks still tracked, as live_blocks gives them, split by
/// reachability (reachability.h): kept, still reachable from the program's
/// globals, this thread's stack or its thread-locals; leaked, not. visit
/// sees the leaked ones only. Marks only when some block is live: a test that
/// freed all it allocated pays nothing more. When the marking cannot
/// complete, every live block is leaked, as before it.
struct LiveSplit {
  LiveTotals leaked;
  LiveTotals kept;
};
/// `stack_floor` and `before` are mark_reachable's: a root's word unchanged
/// since `before` was taken keeps no block allocated since.
LiveSplit split_live_blocks(const void* stack_floor, void (*visit)(const TrackedBlock&, void*) = nullptr,
                            void* data = nullptr, const RootSnapshot* before = nullptr) noexcept;

}  // namespace allocgate::detail
