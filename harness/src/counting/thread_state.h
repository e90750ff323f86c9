// SPDX-License-Identifier: Apache-2.0
// Internal: the counters and per-thread control state that the allocation hook
// updates. Everything here is defined in hook.cpp, so any harness function that
// reads a counter pulls the hook's object file (and with it the replaced
// operator new/delete) into the link, even from a static archive.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "capture/unwind.h"

namespace allocgate::detail {

/// Raw per-thread counters; only the owning thread reads or writes them.
struct ThreadCounters {
  std::uint64_t allocations = 0;
  std::uint64_t deallocations = 0;
  std::uint64_t bytes_allocated = 0;        // bytes requested from operator new
  std::uint64_t bytes_freed = 0;            // requested size of the blocks freed
                                            // whose size the hook knew
  std::uint64_t unsized_deallocations = 0;  // frees whose size it did not
  std::int64_t peak_live_bytes = 0;         // high-water mark of live_bytes(), reset
                                            // by each scope and restored when it ends

  // Derived rather than kept, so that a free updates two counters, not three.
  // Negative when this thread frees others' blocks.
  std::int64_t live_bytes() const noexcept { return static_cast<std::int64_t>(bytes_allocated - bytes_freed); }
};

/// Calls to the C allocation functions (malloc family), counted only when
/// allocgate::c_allocations is linked. Sizes of freed blocks are unknown to
/// free(), so only requested bytes are kept.
struct CCounters {
  std::uint64_t allocations = 0;
  std::uint64_t deallocations = 0;
  std::uint64_t bytes_allocated = 0;
};

/// Call-site capture: the return addresses of each allocation's stack,
/// aggregated by stack in a table reserved before capture starts, so the
/// hook only ever writes into memory it already has.
inline constexpr int kMaxFrames = 32;

struct CapturedStack {
  std::uint64_t hash = 0;  // 0: an empty slot
  std::uint32_t depth = 0;
  std::uint64_t count = 0;
  std::uint64_t bytes = 0;
  std::uint64_t temporary = 0;  // freed before the thread's next allocation
  // Of its blocks, those a leak check found still live (block_tracker.h).
  std::uint64_t live_count = 0;
  std::uint64_t live_bytes = 0;
  void* frames[kMaxFrames];
};

struct StackTable {
  CapturedStack* slots = nullptr;
  std::size_t capacity = 0;   // a power of two
  std::uint64_t dropped = 0;  // allocations whose stack found no free slot
  FrameRuleCache rules;       // for unwind_stack
  StackAnchor anchor;         // where the capture began, for unwind_stack to join
  // The capture's callers when it began, innermost first: every stack
  // captured in its scope ends with them (the runner's frames, main, libc's
  // start), and profile() leaves them out, so a call path is one stack
  // whichever thread ran it.
  void* callers[kMaxUnwindFrames] = {};
  int caller_depth = 0;
  bool use_backtrace = false;  // the plain unwinder, glibc's backtrace()
  // The thread's last captured allocation, until its next one: freed before
  // then, it is a temporary (heaptrack's definition) of last_slot's stack.
  CapturedStack* last_slot = nullptr;
  void* last_block = nullptr;
};

/// Bits of ThreadState::mode. The hook tests `mode | hook_flags` once and takes
/// the general path only when some bit is set, so the common case is one branch.
enum ModeBits : std::uint32_t {
  kPaused = 1u << 0,
  kForbidden = 1u << 1,
  kFailureArmed = 1u << 2,
  kCapturing = 1u << 3,
  kBuildingStatic = 1u << 4,        // a function-local static is being built: one-time initialisation
  kTellingFrameworkCode = 1u << 5,  // each allocation's stack tells the framework's from the test's
};

/// A test framework's code in the program (integrations/core/framework_code.h),
/// for a thread that runs a test's body with the framework's work inside it:
/// an allocation made from the framework's functions is not the test's.
struct CodeRange {
  std::uintptr_t begin = 0;
  std::uintptr_t end = 0;  // one past the last byte
};
struct FrameworkCode {
  const CodeRange* framework = nullptr;  // sorted, disjoint
  std::size_t framework_count = 0;
  const CodeRange* boundaries = nullptr;  // the functions that call a test's body: where its stack ends
  std::size_t boundary_count = 0;
  FrameRuleCache rules;  // for unwind_stack, reserved by the owner
};

/// Whether the allocation being made on this thread is the test's: its
/// stack, walked from the hook out, meets a boundary before any of the
/// framework's functions. One that meets a framework function first (an
/// assertion's message, a section's tracker) or no boundary at all (the
/// framework's runner) is not.
bool allocation_is_the_tests(FrameworkCode& code) noexcept;

struct ThreadState {
  ThreadCounters counters;
  CCounters c_counters;
  std::uint32_t mode = 0;
  std::uint32_t pause_depth = 0;
  std::uint32_t forbid_depth = 0;
  // Allocations made while paused. Never shown to users: the hook probe uses
  // it as evidence that operator new really reaches this hook.
  std::uint64_t uncounted_allocations = 0;
  // Allocations made while an allocation was forbidden on this thread.
  std::uint64_t forbidden_allocations = 0;
  std::uint64_t forbidden_bytes = 0;
  std::uint64_t first_forbidden_size = 0;
  std::uint64_t forbidden_reported = 0;  // how many guards have already reported
  // Failure injection: the number of allocation attempts still to pass before
  // one fails. Meaningful only while kFailureArmed is set.
  std::uint64_t fail_countdown = 0;
  bool failure_fired = false;
  bool fail_rest = false;  // every attempt after the failing one fails too (memory run out)
  // A failure sweep's child (integrations/core/failure_sweep.h): told of each
  // attempt the countdown counts, and whether it is the one failing.
  void (*on_attempt)(bool failing) noexcept = nullptr;
  // The table counted allocations' stacks go to, while capture is on.
  StackTable* capture = nullptr;
  bool capturing_now = false;  // the unwinder is running: do not recurse
  // While a framework's test body runs on this thread (kTellingFrameworkCode).
  FrameworkCode* framework_code = nullptr;
  // Function-local statics being built on this thread: what they allocate is
  // one-time initialisation, counted apart from every scope's figures
  // (ProcessCounters::one_time) and never a test's leak (block_tracker.h).
  std::uint32_t static_depth = 0;

  void refresh_mode() noexcept {
    mode = (pause_depth != 0 ? kPaused : 0u) | (forbid_depth != 0 ? kForbidden : 0u) |
           (capture != nullptr ? kCapturing : 0u) | (static_depth != 0 ? kBuildingStatic : 0u) |
           (framework_code != nullptr ? kTellingFrameworkCode : 0u) | (mode & kFailureArmed);
  }
};

/// Where a block header keeps its tag (hook.cpp): the top 24 bits, so that
/// 16,777,215 taggings (tests) pass before one tag comes round again.
inline constexpr int kBlockTagShift = 40;
inline constexpr std::uint64_t kBlockTagBits = ~std::uint64_t{0} << kBlockTagShift;

/// One share of the process-wide totals.
struct alignas(64) ProcessTally {  // a cache line of its own: the other share is written by other threads
  std::atomic<std::uint64_t> allocations{0};
  std::atomic<std::uint64_t> deallocations{0};
  std::atomic<std::uint64_t> bytes_allocated{0};
  std::atomic<std::uint64_t> bytes_freed{0};
  std::atomic<std::uint64_t> unsized_deallocations{0};
  std::atomic<std::int64_t> live_bytes{0};
  // While blocks are tagged (kTaggingBlocks): the tagged blocks allocated
  // and not freed yet, and their bytes. A share may wrap below zero (a
  // thread freeing another's block); the two shares' sum is exact.
  std::atomic<std::uint64_t> tagged_blocks{0};
  std::atomic<std::uint64_t> tagged_bytes{0};
};

/// Totals over all threads, kept only while a process-wide scope is open
/// (kProcessScopeOpen). They are two shares: the owner's, the first thread
/// that opened a process scope (GoogleTest's and the runner's main thread,
/// nearly always the only one that allocates), which it alone writes, with a
/// plain load and store; and the other threads', added to with lock-prefixed
/// instructions. Measured on a suite of small tests, the three locked adds
/// per allocation and per free of a single shared tally were most of what
/// counting cost.
struct ProcessCounters {
  std::uint32_t open_scopes = 0;  // guarded by the scopes' mutex (scope.cpp)
  // Set before kProcessScopeOpen, which the hook reads with acquire: a
  // thread that sees the flag sees its owner.
  std::atomic<const ThreadState*> owner{nullptr};
  ProcessTally owned;   // written only by `owner`
  ProcessTally shared;  // by every other thread
  std::atomic<std::int64_t> peak_live_bytes{0};
  std::atomic<std::uint64_t> c_allocations{0};
  std::atomic<std::uint64_t> c_deallocations{0};
  std::atomic<std::uint64_t> c_bytes_allocated{0};
  // The tag of the blocks allocated now, in their headers' top bits
  // (kBlockTagBits): a new one each time tagging starts (block_tracker.cpp).
  std::atomic<std::uint64_t> block_tag{0};
  // While tagging: a block allocated before it began whose free is not
  // counted (a test's fixture, which GoogleTest's factory made). Compared,
  // never written through: a pointer handed in may not be a block's start.
  std::atomic<void*> disowned_block{nullptr};
  // What function-local statics allocated while they were built, on any
  // thread (kBuildingStatic): the first use's cost, whichever test pays it.
  // Counted here only, so a test's figures do not depend on what ran before.
  std::atomic<std::uint64_t> one_time_allocations{0};
  std::atomic<std::uint64_t> one_time_bytes{0};
  // Whether a new block with a header is cleared before it is handed out
  // (clear_new_blocks, block_tracker.h): the reachability marking reads
  // every word of a live block, and a word the program never wrote holds
  // what the memory's last block left there, which can be a stale pointer.
  std::atomic<bool> clear_new_blocks{false};
  // Whether a freed block no test run allocated is held back from malloc
  // for a while (hold_freed_blocks, block_tracker.h).
  std::atomic<bool> hold_freed_blocks{false};
  // While kCapturingOtherThreads: the table that takes the stacks of the
  // counted allocations of every thread with no capture of its own (a test's
  // workers), and the lock its writers take. One table for many threads, so
  // a writer holds the lock while it unwinds too: its rules cache is shared.
  std::atomic<StackTable*> other_threads_capture{nullptr};
  std::atomic<bool> other_threads_capture_busy{false};

  std::int64_t live_bytes() const noexcept {
    return owned.live_bytes.load(std::memory_order_relaxed) + shared.live_bytes.load(std::memory_order_relaxed);
  }
};

/// The calling thread's state. Defined in hook.cpp as a constinit
/// thread_local: no TLS init function, no destructor, valid from the first
/// allocation of the process to the last one of the thread.
ThreadState& thread_state() noexcept;

ProcessCounters& process_counters() noexcept;

/// Process-wide bits the hook tests together with ThreadState::mode: while
/// any is set, every call takes the general path. The layout bits are fixed
/// by the first allocation of the process and never change after it.
/// Their bits are apart from the ModeBits', as the two words are or-ed.
enum HookFlags : std::uint32_t {
  kLayoutUnknown = 1u << 16,          // no allocation yet: the first one reads the layout
  kBlockHeaders = 1u << 17,           // allocgate::block_headers is linked
  kCAllocationsLinked = 1u << 18,     // operator new must bypass the counted malloc
  kProcessScopeOpen = 1u << 19,       // keep the process-wide totals too
  kTrackingBlocks = 1u << 20,         // keep each block's size until it is freed (block_tracker.h)
  kTaggingBlocks = 1u << 21,          // with block headers: tag each block, tally the tagged ones live
  kCapturingOtherThreads = 1u << 22,  // a capture takes the stacks of threads without one of their own
};
static_assert(((kPaused | kForbidden | kFailureArmed | kCapturing | kBuildingStatic | kTellingFrameworkCode) &
               (kLayoutUnknown | kBlockHeaders | kCAllocationsLinked | kProcessScopeOpen | kTrackingBlocks |
                kTaggingBlocks | kCapturingOtherThreads)) == 0);

/// Hands `table` the stacks of the counted allocations of every thread that
/// has no capture of its own, or with null takes them back; once it returns
/// with null, no thread writes into the table it had.
void capture_other_threads(StackTable* table) noexcept;

/// With block headers linked: marks a block allocated before tagging began
/// as not counted, so that neither it nor its free is counted (hook.cpp).
void uncount_block(void* block) noexcept;

std::atomic<std::uint32_t>& hook_flags() noexcept;

/// Writes on standard error where a delete the hook stopped was called from
/// (`frames`, innermost first, the hook's own among them).
using DeleteSiteWriter = void (*)(void* const* frames, int depth);

/// With block headers linked, a delete of a block whose header operator new
/// did not write (a malloc'd block, one deleted already, a pointer into a
/// block) is undefined behaviour that glibc would abort on inside free, with
/// no word of where: the hook stops it in one line instead, and names the
/// delete's line through `writer` when allocgate::sites is linked (it sets
/// one as it loads), or its functions as glibc's backtrace_symbols_fd does.
void set_delete_site_writer(DeleteSiteWriter writer) noexcept;

/// This file's path as the compiler saw it: the symbolizer tells the hook's
/// own frames (internal helpers, unqualified in DWARF) by their file.
const char* hook_source_file() noexcept;

}  // namespace allocgate::detail

// Link-time options, read by the first allocation of the process. hook.cpp
// defines them weak and false; the OBJECT libraries allocgate::block_headers
// (block_headers.cpp) and allocgate::c_allocations define theirs true, and
// allocgate::gtest defines allocgate_gtest_linked true, which brings block
// headers too (a test's leaks told by its blocks' tags, block_tracker.h).
extern "C" const bool allocgate_block_headers_linked;
extern "C" const bool allocgate_c_allocations_linked;
extern "C" const bool allocgate_gtest_linked;

// How operator new and delete reach the C allocator. Weak definitions in
// hook.cpp call malloc, free and posix_memalign; allocgate::c_allocations
// defines them to call glibc's own functions directly, so that operator new's
// malloc is never counted a second time as a C allocation.
extern "C" void* allocgate_new_malloc(std::size_t size) noexcept;
extern "C" void allocgate_new_free(void* p) noexcept;
extern "C" int allocgate_new_memalign(void** p, std::size_t align, std::size_t size) noexcept;
