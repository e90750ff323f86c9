// SPDX-License-Identifier: Apache-2.0
// Internal: which heap blocks the program can still reach, as LeakSanitizer
// and valgrind tell a leak from a block kept. A test's block still live at
// its end is leaked only when nothing reachable points to it; one that a
// global, a thread-local or a live stack frame holds, directly or through
// other blocks, is kept (a cache, a registry, the global locale).
//
// The marking is conservative, as theirs: every aligned word of the roots and
// of each block reached is taken for a pointer. The roots are the writable
// segments of every loaded module (globals, statics), the calling thread's
// stack above a frame the caller names and its thread-local storage, and
// every other thread's registers, stack in use and thread-local storage,
// read while those threads are stopped (other_threads.h). A word points to a
// block when it holds the block's start (or the start past new[]'s 8-byte
// array cookie) and the 16 bytes before it are a live block's header
// (block_header.h): the marking follows only blocks that operator new
// returned with headers linked. Memory from malloc itself (an exception
// in flight, a C library's buffers) is not read: a block held only there is
// a leak, so a framework's adapter judges a run once the exception that
// ended it is handled.
//
// Nothing here allocates: its tables are mapped from the kernel.
#pragma once

#include <link.h>

#include <cstddef>
#include <cstdint>

namespace allocgate::detail {

class StoppedThreads;
class RootSnapshot;

/// The set of blocks the marking reached, by their user pointers.
class ReachedBlocks {
 public:
  ReachedBlocks() noexcept = default;
  ~ReachedBlocks();
  ReachedBlocks(const ReachedBlocks&) = delete;
  ReachedBlocks& operator=(const ReachedBlocks&) = delete;

  /// False when the marking did not complete (no memory for its tables):
  /// then it reached nothing. A word that leads into memory that faults
  /// (unmapped since the marking listed it) is skipped, not an end.
  bool complete() const noexcept { return complete_; }
  bool contains(const void* block) const noexcept;
  /// Calls visit(block) for each block reached.
  template <typename Visit>
  void for_each(Visit visit) const noexcept {
    for (std::size_t i = 0; i < capacity_; ++i) {
      if (slots_[i] != nullptr) visit(slots_[i]);
    }
  }

 private:
  friend class Marking;
  friend void mark_reachable(ReachedBlocks& reached, const void* stack_floor, const StoppedThreads* others,
                             const RootSnapshot* before, bool (*judged)(const void* block) noexcept) noexcept;
  bool insert(void* block) noexcept;  // false when already there, or no memory

  void** slots_ = nullptr;  // open addressing; nullptr is empty
  std::size_t capacity_ = 0;
  std::size_t used_ = 0;
  bool complete_ = false;
};

/// The calling thread's roots as they are now (every module's writable
/// segments, its thread-local storage, its stack from `stack_floor` up),
/// copied, as a test's body begins. A word found unchanged at the verdict was
/// written before any block the body allocated existed: when it holds such a
/// block's address, it is by reuse, a chunk that free() handed back before
/// (libdw's, stdio's: what the hold of freed blocks does not reach) and that
/// malloc gave the body, while an old pointer to it stayed (glibc's
/// sigaction copies 120 bytes of its own stack into doctest's static
/// handlers). mark_reachable does not follow such a word to a block the
/// verdict judges. Nothing here allocates: its copy is mapped from the kernel.
class RootSnapshot {
 public:
  RootSnapshot() noexcept = default;
  ~RootSnapshot();
  RootSnapshot(const RootSnapshot&) = delete;
  RootSnapshot& operator=(const RootSnapshot&) = delete;

  /// Replaces what was taken; false, and nothing kept, without memory for it.
  bool take(const void* stack_floor) noexcept;
  /// The words taken of one root that holds all of [begin, end): the word
  /// at `address` is then the result's [(address - base) / 8]; null when no
  /// one root does.
  const std::uintptr_t* words_of(std::uintptr_t begin, std::uintptr_t end, std::uintptr_t& base) const noexcept;

 private:
  struct State;
  State* state_ = nullptr;  // mapped on the first take
  bool taken_ = false;
};

/// Marks every block reachable now from the roots into `reached`. The
/// stack is read from `stack_floor` up, when the caller names a frame that
/// outlives the code being checked and whose callers' frames hold only
/// what it keeps. Below it, frames overlie frames that have returned, and
/// a slot not written since holds an old pointer, to a block freed since,
/// or to one that is the check's own: the address of a block freed may be a
/// new block's, which the old pointer would then keep.
/// The other threads are stopped for the marking, or, given `others`, were
/// stopped by the caller, who then reads what it needs of them while they
/// still are (the verdict's tally, split_live_blocks).
/// Given `before` and `judged`, a root's word unchanged since `before` was
/// taken is not followed to a block for which judged(block) holds (a block
/// the verdict judges: allocated since).
void mark_reachable(ReachedBlocks& reached, const void* stack_floor = nullptr, const StoppedThreads* others = nullptr,
                    const RootSnapshot* before = nullptr,
                    bool (*judged)(const void* block) noexcept = nullptr) noexcept;

/// Calls fn() holding the dynamic linker's lock of its list of modules, as
/// LeakSanitizer stops the world: the marking walks that list, and another
/// thread stopped while it holds the lock (unwinding an exception, walking
/// its stack) would keep it from the marking for good. The lock is
/// recursive: the marking takes it again on this thread.
template <typename Fn>
void holding_the_loader(Fn& fn) noexcept {
  ::dl_iterate_phdr(
      [](dl_phdr_info*, std::size_t, void* data) {
        (*static_cast<Fn*>(data))();
        return 1;  // once
      },
      &fn);
}

/// Reads the size of the static thread-local storage once, before any test
/// needs it (the lookup may allocate).
void prepare_reachability() noexcept;

}  // namespace allocgate::detail
