// SPDX-License-Identifier: Apache-2.0
// The allocation hook: replacements of all 20 replaceable global allocation and
// deallocation functions ([new.delete]), counting into per-thread state.
//
// Rules this file keeps, because it runs inside every allocation of the process:
//  - it never allocates through operator new, never locks and never prints;
//  - its state is constinit thread_local plain data: no TLS init function
//    (pre-main allocations are counted) and no destructor (allocations made by
//    thread_local destructors at thread exit are still safe to count);
//  - the common call (nothing paused, forbidden, armed or captured on this
//    thread, no process-wide scope) is one test of ThreadState::mode |
//    hook_flags (two with block headers), malloc or free, and a few adds: it
//    must cost no more than libstdc++'s own operator new (harness/bench
//    measures it). Everything else goes through the general path below.
//
// Block layouts, fixed for the process by its first allocation:
//  - default: malloc's block is the user's. A freed block's size is the one
//    sized delete passes ([expr.delete]: the size that was requested), which
//    g++ passes for every delete of a complete type and every std::allocator
//    deallocation, and clang does with -fsized-deallocation (the package adds
//    it). An unsized delete (a delete[] of a trivially destructible array, an
//    explicit ::operator delete(p), code built without sized deallocation) is
//    counted as an unsized deallocation: its bytes are unknown.
//  - block headers (link allocgate::block_headers; allocgate::gtest links
//    them too): each block carries a 16-byte header in front of the user's
//    pointer with its requested size, whether it was counted and, while a
//    test's blocks are tagged, its test's tag, so every free's size is known.
//    The header moves each block one malloc size class up, which is what it
//    costs.
//
// Build option: ALLOCGATE_REPLACE_OPERATORS=0 keeps the counters without the
// replacements; used to test that the harness detects a missing hook.

#include <execinfo.h>
#include <malloc.h>
#include <sched.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#include "counting/block_header.h"
#include "counting/block_tracker.h"
#include "counting/thread_state.h"

#ifndef ALLOCGATE_REPLACE_OPERATORS
#define ALLOCGATE_REPLACE_OPERATORS 1
#endif

#define ALLOCGATE_LIKELY(x) __builtin_expect(!!(x), 1)
#define ALLOCGATE_UNLIKELY(x) __builtin_expect(!!(x), 0)

// The defaults of the link-time options; see thread_state.h.
extern "C" __attribute__((weak)) const bool allocgate_block_headers_linked = false;
extern "C" __attribute__((weak)) const bool allocgate_c_allocations_linked = false;
extern "C" __attribute__((weak)) const bool allocgate_gtest_linked = false;

// The general path's route to the C allocator; see thread_state.h.
extern "C" __attribute__((weak)) void* allocgate_new_malloc(std::size_t size) noexcept { return std::malloc(size); }
extern "C" __attribute__((weak)) void allocgate_new_free(void* p) noexcept { std::free(p); }
extern "C" __attribute__((weak)) int allocgate_new_memalign(void** p, std::size_t align, std::size_t size) noexcept {
  return posix_memalign(p, align, size);
}

namespace allocgate::detail {
namespace {

constinit thread_local ThreadState t_state{};
constinit ProcessCounters g_process{};
constinit std::atomic<std::uint32_t> g_flags{kLayoutUnknown};

[[maybe_unused]] constexpr std::size_t kDefaultAlign = __STDCPP_DEFAULT_NEW_ALIGNMENT__;
constexpr std::size_t kUnknownSize = static_cast<std::size_t>(-1);

// The flags, reading the layout on the process's first allocation. Threads
// racing here compute the same bits; the layout bits are set before
// kLayoutUnknown is cleared, in one variable's modification order.
// Acquire: a thread that sees kProcessScopeOpen sees the owner stored before it.
std::uint32_t current_flags() noexcept {
  std::uint32_t flags = g_flags.load(std::memory_order_acquire);
  if (ALLOCGATE_UNLIKELY(flags & kLayoutUnknown)) {
    // Volatile reads: g++ folds a weak constant to the value it sees here,
    // and the point is the value another object file links in.
    const bool headers = *static_cast<const volatile bool*>(&allocgate_block_headers_linked) ||
                         *static_cast<const volatile bool*>(&allocgate_gtest_linked);
    const bool c_allocations = *static_cast<const volatile bool*>(&allocgate_c_allocations_linked);
    const std::uint32_t layout = (headers ? kBlockHeaders : 0u) | (c_allocations ? kCAllocationsLinked : 0u);
    g_flags.fetch_or(layout, std::memory_order_relaxed);
    flags = g_flags.fetch_and(~static_cast<std::uint32_t>(kLayoutUnknown), std::memory_order_relaxed) &
            ~static_cast<std::uint32_t>(kLayoutUnknown);
  }
  return flags;
}

// ---------------------------------------------------------------------------
// Counting

inline void count_allocation(ThreadCounters& c, std::size_t size) noexcept {
  ++c.allocations;
  c.bytes_allocated += size;
  if (c.live_bytes() > c.peak_live_bytes) c.peak_live_bytes = c.live_bytes();
}

inline void count_deallocation(ThreadCounters& c, std::size_t size) noexcept {
  ++c.deallocations;
  c.bytes_freed += size;
}

inline void count_unsized_deallocation(ThreadCounters& c) noexcept {
  ++c.deallocations;
  ++c.unsized_deallocations;
}

inline void raise_peak(std::atomic<std::int64_t>& peak, std::int64_t live) noexcept {
  std::int64_t seen = peak.load(std::memory_order_relaxed);
  while (live > seen && !peak.compare_exchange_weak(seen, live, std::memory_order_relaxed)) {
  }
}

// The owner's share has one writer: a load and a store, no lock prefix.
template <typename T>
inline T add_owned(std::atomic<T>& counter, T n) noexcept {
  const T sum = counter.load(std::memory_order_relaxed) + n;
  counter.store(sum, std::memory_order_relaxed);
  return sum;
}

// The owner's side of the process totals, inlined into the counted test's
// path, which has checked the owner already.
[[gnu::always_inline]] inline void count_owned_allocation(std::size_t size) noexcept {
  ProcessTally& own = g_process.owned;
  add_owned<std::uint64_t>(own.allocations, 1);
  add_owned<std::uint64_t>(own.bytes_allocated, size);
  const std::int64_t live = add_owned(own.live_bytes, static_cast<std::int64_t>(size)) +
                            g_process.shared.live_bytes.load(std::memory_order_relaxed);
  raise_peak(g_process.peak_live_bytes, live);
}

// A free whose size is known.
[[gnu::always_inline]] inline void count_owned_deallocation(std::size_t size) noexcept {
  ProcessTally& own = g_process.owned;
  add_owned<std::uint64_t>(own.deallocations, 1);
  add_owned<std::uint64_t>(own.bytes_freed, size);
  add_owned(own.live_bytes, -static_cast<std::int64_t>(size));
}

// A new block's bytes, cleared when the leak check marks reachability
// (thread_state.h's clear_new_blocks): up to malloc's mmap threshold, above
// which its blocks are fresh pages, zero already.
constexpr std::size_t kClearedUpTo = std::size_t{128} * 1024;
[[gnu::always_inline]] inline void clear_if_marking(void* user, std::size_t size) noexcept {
  if (g_process.clear_new_blocks.load(std::memory_order_relaxed) && size <= kClearedUpTo) std::memset(user, 0, size);
}

// What malloc is asked for a block of `size` bytes behind a header. glibc's
// smallest chunk (32 bytes) holds a header and up to 8 bytes: the block's
// address is then its chunk's end, the address of the chunk after it, and
// malloc keeps chunk addresses in its own state (its top chunk, a bin),
// in libc's globals, which the leak check reads as roots. Such a block,
// cut from the top, was kept by malloc's word: a leak of a new int found
// or not by where the heap happened to end. One byte more puts every block
// inside a chunk of 48 bytes or more, at no chunk's address.
constexpr std::size_t kSmallestHeaderedRequest = 25;
[[gnu::always_inline]] inline std::size_t headered_request(std::size_t size) noexcept {
  const std::size_t request = sizeof(BlockHeader) + size;
  return request < kSmallestHeaderedRequest ? kSmallestHeaderedRequest : request;
}

// The blocks held back from malloc (hold_freed_blocks, block_tracker.h): a
// queue through their headers, the oldest first. Each header, forgotten
// (tag 0), keeps the next block's address in its size field.
struct HeldBlocks {
  std::atomic_flag lock = ATOMIC_FLAG_INIT;
  BlockHeader* oldest = nullptr;
  BlockHeader* newest = nullptr;
  std::size_t bytes = 0;
};
constinit HeldBlocks g_held;
constexpr std::size_t kHeldBytes = std::size_t{64} << 20;

void hold_block(BlockHeader* header) noexcept;

// Hands a block with a header back to malloc, or holds it: one with the
// header right in front of its data, a test's as the framework's.
[[gnu::always_inline]] inline void free_with_header(BlockHeader* header, std::uint64_t tag) noexcept {
  if (ALLOCGATE_UNLIKELY(g_process.hold_freed_blocks.load(std::memory_order_relaxed)) &&
      offset_of(tag) == sizeof(BlockHeader)) {
    hold_block(header);
  } else {
    allocgate_new_free(header);
  }
}

// Counted by malloc's own size of each, which needs no field of the header.
void hold_block(BlockHeader* header) noexcept {
  const std::size_t size = malloc_usable_size(header);
  while (g_held.lock.test_and_set(std::memory_order_acquire)) {
  }
  *header = BlockHeader{0, 0};
  if (g_held.newest != nullptr) {
    g_held.newest->size = reinterpret_cast<std::uintptr_t>(header);
  } else {
    g_held.oldest = header;
  }
  g_held.newest = header;
  g_held.bytes += size;
  BlockHeader* release = nullptr;  // what goes back, oldest first, outside the lock
  BlockHeader* last = nullptr;
  while (g_held.bytes > kHeldBytes && g_held.oldest != g_held.newest) {
    BlockHeader* oldest = g_held.oldest;
    g_held.oldest = reinterpret_cast<BlockHeader*>(oldest->size);
    oldest->size = 0;
    if (last != nullptr) {
      last->size = reinterpret_cast<std::uintptr_t>(oldest);
    } else {
      release = oldest;
    }
    last = oldest;
    g_held.bytes -= malloc_usable_size(oldest);
  }
  g_held.lock.clear(std::memory_order_release);
  while (release != nullptr) {
    BlockHeader* next = reinterpret_cast<BlockHeader*>(release->size);
    allocgate_new_free(release);
    release = next;
  }
}

// The tagged blocks' tally: `blocks` and `bytes` added, modulo 2^64 (a free
// adds their negation).
[[gnu::always_inline]] inline void count_owned_tagged(std::uint64_t blocks, std::uint64_t bytes) noexcept {
  add_owned(g_process.owned.tagged_blocks, blocks);
  add_owned(g_process.owned.tagged_bytes, bytes);
}

void count_process_allocation(const ThreadState& t, std::size_t size) noexcept {
  if (g_process.owner.load(std::memory_order_relaxed) == &t) {
    count_owned_allocation(size);
    return;
  }
  constexpr auto relaxed = std::memory_order_relaxed;
  const auto grown = static_cast<std::int64_t>(size);
  ProcessTally& other = g_process.shared;
  other.allocations.fetch_add(1, relaxed);
  other.bytes_allocated.fetch_add(size, relaxed);
  raise_peak(g_process.peak_live_bytes,
             other.live_bytes.fetch_add(grown, relaxed) + grown + g_process.owned.live_bytes.load(relaxed));
}

void count_process_deallocation(const ThreadState& t, std::size_t size) noexcept {
  constexpr auto relaxed = std::memory_order_relaxed;
  if (g_process.owner.load(relaxed) == &t) {
    if (size != kUnknownSize) {
      count_owned_deallocation(size);
      return;
    }
    add_owned<std::uint64_t>(g_process.owned.deallocations, 1);
    add_owned<std::uint64_t>(g_process.owned.unsized_deallocations, 1);
    return;
  }
  ProcessTally& other = g_process.shared;
  other.deallocations.fetch_add(1, relaxed);
  if (size == kUnknownSize) {
    other.unsized_deallocations.fetch_add(1, relaxed);
    return;
  }
  other.bytes_freed.fetch_add(size, relaxed);
  other.live_bytes.fetch_sub(static_cast<std::int64_t>(size), relaxed);
}

void count_tagged(const ThreadState& t, std::uint64_t blocks, std::uint64_t bytes) noexcept {
  if (g_process.owner.load(std::memory_order_relaxed) == &t) {
    count_owned_tagged(blocks, bytes);
    return;
  }
  g_process.shared.tagged_blocks.fetch_add(blocks, std::memory_order_relaxed);
  g_process.shared.tagged_bytes.fetch_add(bytes, std::memory_order_relaxed);
}

// A word at a time, inline: a stack is a dozen or two words, less than the
// call to memcmp costs.
bool same_frames(void* const* a, void* const* b, int depth) noexcept {
  for (int i = 0; i < depth; ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

// Adds the calling stack to the table, returning its slot, or null when the
// table is full. backtrace() was called once when capture began, so glibc has
// loaded its unwinder and neither unwinder allocates; the callers' guard
// (capturing_now) keeps a nested allocation from recursing anyway.
// Not inlined: the stack's first frame is its return address in its caller,
// one of the harness's frames, whichever caller that is.
[[gnu::noinline]] CapturedStack* record_into(StackTable& table, std::size_t size) noexcept {
  void* frames[kMaxFrames];
  std::uint64_t hash = 0;
  int depth = 0;
  if (table.use_backtrace) {
    depth = backtrace_stack(frames, kMaxFrames);
    hash = hash_frames(frames, depth);
  } else {
    depth = unwind_stack(frames, kMaxFrames, table.rules, hash);
  }
  hash |= 1;  // never 0, which marks an empty slot
  const std::size_t mask = table.capacity - 1;
  for (std::size_t probe = 0, i = hash & mask; probe < table.capacity; ++probe, i = (i + 1) & mask) {
    CapturedStack& slot = table.slots[i];
    if (slot.hash == 0) {
      slot.hash = hash;
      slot.depth = static_cast<std::uint32_t>(depth);
      std::memcpy(slot.frames, frames, sizeof(void*) * static_cast<std::size_t>(depth));
    } else if (slot.hash != hash || slot.depth != static_cast<std::uint32_t>(depth) ||
               !same_frames(slot.frames, frames, depth)) {
      continue;
    }
    ++slot.count;
    slot.bytes += size;
    return &slot;
  }
  ++table.dropped;
  return nullptr;
}

// Adds this allocation's stack to the thread's own capture.
void record_stack(ThreadState& t, std::size_t size) noexcept {
  if (t.capturing_now) return;
  t.capturing_now = true;
  StackTable& table = *t.capture;
  table.last_slot = record_into(table, size);
  // allocate_once sets it once the block is known; after a drop, an older
  // block's free is no temporary of a stack the table has not got.
  table.last_block = nullptr;
  t.capturing_now = false;
}

// Adds this allocation's stack to the table of the threads with no capture
// of their own (a test's workers), under its lock. Returns its slot, for the
// block's leak line; the temporaries of these threads are not told (the last
// block is each thread's, the table everyone's).
CapturedStack* record_other_threads_stack(ThreadState& t, std::size_t size) noexcept {
  if (t.capturing_now || g_process.other_threads_capture.load(std::memory_order_relaxed) == nullptr) return nullptr;
  t.capturing_now = true;
  while (g_process.other_threads_capture_busy.exchange(true, std::memory_order_acquire)) sched_yield();
  CapturedStack* slot = nullptr;
  // Read again under the lock: taken back meanwhile, the table is not ours.
  if (StackTable* table = g_process.other_threads_capture.load(std::memory_order_acquire)) {
    slot = record_into(*table, size);
  }
  g_process.other_threads_capture_busy.store(false, std::memory_order_release);
  t.capturing_now = false;
  return slot;
}

// An allocation that succeeded while some mode bit is set. Returns whether it
// is counted.
bool admit_special(ThreadState& t, std::size_t size) noexcept {
  if (t.mode & kPaused) {
    ++t.uncounted_allocations;
    return false;
  }
  if ((t.mode & kTellingFrameworkCode) && !t.capturing_now) {
    t.capturing_now = true;  // the unwinder allocates nothing; should it, that is not walked again
    const bool the_tests = allocation_is_the_tests(*t.framework_code);
    t.capturing_now = false;
    if (!the_tests) {
      ++t.uncounted_allocations;
      return false;
    }
  }
  if (t.mode & kBuildingStatic) {  // a first use's, not the code's each time: apart
    g_process.one_time_allocations.fetch_add(1, std::memory_order_relaxed);
    g_process.one_time_bytes.fetch_add(size, std::memory_order_relaxed);
    return false;
  }
  if (t.mode & kForbidden) {
    if (t.forbidden_allocations == t.forbidden_reported) t.first_forbidden_size = size;
    ++t.forbidden_allocations;
    t.forbidden_bytes += size;
  }
  if (t.mode & kCapturing) record_stack(t, size);
  return true;
}

// Failure injection: true when this allocation attempt is the one to fail.
// Checked once per operator new call, before the new_handler loop, so a retry
// after the handler is not a second attempt.
// Allocations made while counting is paused are the harness's own bookkeeping
// (an assertion's message, a capture's table), never the code's: they are
// neither failure points nor counted towards the countdown. Nor is what a
// function-local static allocates as it is built (kBuildingStatic): it
// happens in whichever test uses it first, so a point there would move with
// the order the tests run in, and a finding's command run alone would fail
// another allocation than the sweep did. Nor is the framework's own in a
// test's body, where only its stack tells it (kTellingFrameworkCode: Catch2
// v2's and doctest's assertions and sections, compiled into the test's
// code), told as admit_special tells it. Both only while a failure is armed.
bool injected_failure_due(ThreadState& t) noexcept {
  if ((t.mode & (kFailureArmed | kPaused | kBuildingStatic)) != kFailureArmed) return false;
  if ((t.mode & kTellingFrameworkCode) && !t.capturing_now) {
    t.capturing_now = true;
    const bool the_tests = allocation_is_the_tests(*t.framework_code);
    t.capturing_now = false;
    if (!the_tests) return false;
  }
  if (t.failure_fired) return true;  // armed still: fail_rest, every later attempt fails
  const bool failing = t.fail_countdown == 0;
  if (t.on_attempt != nullptr) t.on_attempt(failing);
  if (!failing) {
    --t.fail_countdown;
    return false;
  }
  if (!t.fail_rest) t.mode &= ~static_cast<std::uint32_t>(kFailureArmed);  // one shot
  t.failure_fired = true;
  return true;
}

// ---------------------------------------------------------------------------
// The general path: any layout, any alignment, any mode.

// One attempt at a block: returns the user's pointer, or nullptr when the C
// allocator has none.
void* allocate_once(std::size_t size, std::size_t align, std::uint32_t flags) noexcept {
  ThreadState& t = t_state;
  const std::size_t offset = !(flags & kBlockHeaders) ? 0 : align > sizeof(BlockHeader) ? align : sizeof(BlockHeader);
  if (size > static_cast<std::size_t>(-1) - offset || offset > kOffsetMask) return nullptr;
  // malloc(0) may return null; the standard wants a unique pointer. And malloc
  // aligns a block only for the objects that fit in it (C11 7.22.3): jemalloc
  // gives an 8-byte block 8-byte alignment. A block smaller than the alignment
  // asked for is requested at that size.
  const std::size_t request = offset == 0                     ? (size == 0 ? 1 : size)
                              : offset == sizeof(BlockHeader) ? headered_request(size)
                                                              : offset + size;
  void* base = nullptr;
  if (align <= alignof(std::max_align_t)) {
    base = allocgate_new_malloc(request < align ? align : request);
  } else if (allocgate_new_memalign(&base, align, request) != 0) {
    base = nullptr;
  }
  if (base == nullptr) return nullptr;
  const bool counted = t.mode == 0 || admit_special(t, size);
  if (counted) {
    count_allocation(t.counters, size);
    if (flags & kProcessScopeOpen) count_process_allocation(t, size);
  }
  void* user = static_cast<char*>(base) + offset;
  CapturedStack* slot = nullptr;
  if ((t.mode & kCapturing) && counted) {
    slot = t.capture->last_slot;
    if (slot != nullptr) t.capture->last_block = user;
  } else if ((flags & kCapturingOtherThreads) && counted) {
    slot = record_other_threads_stack(t, size);
  }
  if (flags & kTrackingBlocks) track_block(user, size, counted, slot);
  if (!(flags & kBlockHeaders)) return base;
  std::uint64_t tag = std::uint64_t{offset} << kOffsetShift | (counted ? kCountedBit : 0);
  if ((flags & kTaggingBlocks) && counted && t.static_depth == 0) {
    tag |= g_process.block_tag.load(std::memory_order_relaxed) | kLeakableBit;
    count_tagged(t, 1, size);
  }
  *header_of(user) = BlockHeader{size, tag | header_check(header_of(user), size)};
  clear_if_marking(user, size);
  return user;
}

// The standard's loops ([new.delete.single]/4): retry through the new_handler
// until it succeeds; without a handler, throw (or return null for nothrow).
[[gnu::noinline, maybe_unused]] void* new_or_throw(std::size_t size, std::size_t align) {
  const std::uint32_t flags = current_flags();
  if (injected_failure_due(t_state)) throw std::bad_alloc();
  for (;;) {
    if (void* p = allocate_once(size, align, flags)) return p;
    std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) throw std::bad_alloc();
    handler();
  }
}

[[gnu::noinline, maybe_unused]] void* new_or_null(std::size_t size, std::size_t align) noexcept {
  const std::uint32_t flags = current_flags();
  if (injected_failure_due(t_state)) return nullptr;
  for (;;) {
    if (void* p = allocate_once(size, align, flags)) return p;
    std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) return nullptr;
    try {
      handler();
    } catch (const std::bad_alloc&) {
      return nullptr;
    }
  }
}

constinit std::atomic<DeleteSiteWriter> g_delete_site_writer{nullptr};

void write_text(const char* text) noexcept {
  for (std::size_t left = std::strlen(text); left > 0;) {
    const ssize_t n = ::write(STDERR_FILENO, text, left);
    if (n <= 0) return;
    text += n;
    left -= static_cast<std::size_t>(n);
  }
}

// A delete of a block whose header is not one operator new wrote: said in
// one line, where it was called from, and the process stopped as
// AddressSanitizer stops it (glibc would abort in free, saying only
// "invalid pointer"). Nothing is counted any more: the hook is paused.
[[noreturn, gnu::noinline, gnu::cold]] void stop_foreign_delete(void* user) noexcept {
  t_state.mode |= kPaused;
  char line[320];
  std::snprintf(line, sizeof line,
                "allocgate: operator delete of %p, a block operator new did not allocate: malloc'd and freed with "
                "delete, deleted twice, or not a block's start (undefined behaviour: stopped here; AddressSanitizer's "
                "alloc-dealloc-mismatch and double-free name where it was allocated)\n",
                user);
  write_text(line);
  void* frames[64];
  const int depth = ::backtrace(frames, 64);
  if (const DeleteSiteWriter writer = g_delete_site_writer.load(std::memory_order_acquire); writer != nullptr) {
    writer(frames, depth);
  } else {
    write_text("allocgate: the delete was called from:\n");
    ::backtrace_symbols_fd(frames, depth, STDERR_FILENO);
  }
  std::abort();
}

// `size` is what sized delete passed, or kUnknownSize. With block headers the
// header's size wins: it cannot be wrong.
[[gnu::noinline, maybe_unused]] void delete_general(void* user, std::size_t size) noexcept {
  if (user == nullptr) return;
  ThreadState& t = t_state;
  const std::uint32_t flags = current_flags();
  if ((t.mode & kCapturing) && t.capture != nullptr && user == t.capture->last_block) {
    ++t.capture->last_slot->temporary;  // freed before the thread allocated again
    t.capture->last_block = nullptr;
  }
  void* base = user;
  bool counted = !(t.mode & kPaused);
  std::uint64_t header_tag = 0;
  if (flags & kBlockHeaders) {
    const BlockHeader h = *header_of(user);
    // A malloc'd block's 16 bytes in front are malloc's own; a deleted block's tag is 0.
    if (ALLOCGATE_UNLIKELY(!plausible_header(h, header_of(user), static_cast<std::size_t>(-1)))) {
      stop_foreign_delete(user);
    }
    header_tag = h.tag;
    forget_header(user);
    size = h.size;
    counted = h.tag & kCountedBit;
    base = static_cast<char*>(user) - offset_of(h.tag);
    if (flags & kTaggingBlocks) {
      // A block of this tagging's, freed: no longer live. Tags of earlier
      // taggings are not this one's (in their top bits).
      if ((h.tag & kLeakableBit) && (h.tag & kBlockTagBits) == g_process.block_tag.load(std::memory_order_relaxed)) {
        count_tagged(t, static_cast<std::uint64_t>(-1), -static_cast<std::uint64_t>(size));
      }
      if (user == g_process.disowned_block.load(std::memory_order_relaxed)) counted = false;
    }
  }
  // A tracked block knows its size and whether it was counted, whatever
  // delete form frees it and whichever thread does.
  if (TrackedBlock tracked; (flags & kTrackingBlocks) && untrack_block(user, tracked)) {
    size = tracked.size;
    counted = tracked.counted;
  }
  if (counted) {
    if (size == kUnknownSize) {
      count_unsized_deallocation(t.counters);
    } else {
      count_deallocation(t.counters, size);
    }
    if (flags & kProcessScopeOpen) count_process_deallocation(t, size);
  }
  if (flags & kBlockHeaders) {
    free_with_header(static_cast<BlockHeader*>(base), header_tag);
  } else {
    allocgate_new_free(base);
  }
}

// ---------------------------------------------------------------------------
// The fast path, inlined into the operators below.

// Blocks allocated on the fast path with headers: the header right in front
// of malloc's pointer, counted, untagged.
constexpr std::uint64_t kPlainCounted = sizeof(BlockHeader) << kOffsetShift | kCountedBit;

// A counted test's state on the thread that owns the process totals
// (GoogleTest's main thread, where nearly all of a suite's allocations are
// made): block headers, a process scope open, blocks tagged, no mode bit.
// Its calls take a path of their own: through the general path, counting
// cost a suite of tests 1.14x its time. Out of line, so that the common
// path's code stays as it was.
constexpr std::uint32_t kCountedTest = kBlockHeaders | kProcessScopeOpen | kTaggingBlocks;

// Whether the calling thread owns the process totals, with the flags read
// again with acquire (the fast path read them relaxed; on x86 the same
// instruction): this thread then sees the tag and the tally that the thread
// which set kTaggingBlocks wrote before it.
bool tagging_on_the_owner(const ThreadState& t) noexcept {
  return g_flags.load(std::memory_order_acquire) == kCountedTest &&
         g_process.owner.load(std::memory_order_relaxed) == &t;
}

// Null when this is not the owner, or malloc has no block: the general path decides.
[[gnu::noinline, maybe_unused]] void* new_counted_test(ThreadState& t, std::size_t size) noexcept {
  if (size > static_cast<std::size_t>(-1) - sizeof(BlockHeader) || !tagging_on_the_owner(t)) return nullptr;
  void* base = std::malloc(headered_request(size));
  if (base == nullptr) return nullptr;
  count_allocation(t.counters, size);
  count_owned_allocation(size);
  std::uint64_t tag = kPlainCounted;
  if (t.static_depth == 0) {
    tag |= g_process.block_tag.load(std::memory_order_relaxed) | kLeakableBit;
    count_owned_tagged(1, size);
  }
  auto* header = static_cast<BlockHeader*>(base);
  *header = BlockHeader{size, tag | header_check(header, size)};
  clear_if_marking(header + 1, size);
  return header + 1;
}

// False when the general path must free it: another thread's call, an
// uncounted or over-aligned block, the disowned block.
[[gnu::noinline, maybe_unused]] bool delete_counted_test(ThreadState& t, void* p) noexcept {
  if (p == nullptr || !tagging_on_the_owner(t)) return false;
  BlockHeader* header = header_of(p);
  const std::uint64_t tag = header->tag;
  if ((tag & ~(kBlockTagBits | kCheckBits | kLeakableBit)) != kPlainCounted ||
      p == g_process.disowned_block.load(std::memory_order_relaxed)) {
    return false;
  }
  const std::size_t freed = header->size;
  if ((tag & kLeakableBit) && (tag & kBlockTagBits) == g_process.block_tag.load(std::memory_order_relaxed)) {
    count_owned_tagged(static_cast<std::uint64_t>(-1), -static_cast<std::uint64_t>(freed));
  }
  count_deallocation(t.counters, freed);
  count_owned_deallocation(freed);
  header->tag = 0;  // forget_header
  free_with_header(header, tag);
  return true;
}

// The fast path's other layouts: block headers, a counted test; null when
// the general path decides. (The size first, so that the caller's flags
// are loaded into the second argument's register, not the size's.)
[[gnu::always_inline, maybe_unused]] inline void* new_fast_otherwise(std::size_t size, std::uint32_t state) noexcept {
  ThreadState& t = t_state;
  if (state == kBlockHeaders && size <= static_cast<std::size_t>(-1) - sizeof(BlockHeader)) {
    if (void* base = std::malloc(headered_request(size)); ALLOCGATE_LIKELY(base != nullptr)) {
      count_allocation(t.counters, size);
      auto* header = static_cast<BlockHeader*>(base);
      *header = BlockHeader{size, kPlainCounted | header_check(header, size)};
      clear_if_marking(header + 1, size);
      return header + 1;
    }
  } else if (state == kCountedTest) {
    return new_counted_test(t, size);
  }
  return nullptr;
}

// Every layout but the common one, and the general path after it: out of
// line and reached by a jump, so that the common path in the operators is
// its own code to its return, with no join whose registers the other
// layouts shape (two instructions an allocation).
template <bool kNothrow>
[[gnu::noinline, maybe_unused]] void* new_otherwise(std::size_t size, std::uint32_t state) noexcept(kNothrow) {
  if (void* p = new_fast_otherwise(size, state)) return p;
  if constexpr (kNothrow) {
    return new_or_null(size, kDefaultAlign);
  } else {
    return new_or_throw(size, kDefaultAlign);
  }
}

// The common path: nothing paused, forbidden, armed or captured on this
// thread, no layout but malloc's, no process-wide scope.
template <bool kNothrow>
[[gnu::always_inline, maybe_unused]] inline void* new_fast(std::size_t size) noexcept(kNothrow) {
  ThreadState& t = t_state;
  const std::uint32_t state = t.mode | g_flags.load(std::memory_order_relaxed);
  if (ALLOCGATE_LIKELY(state == 0)) {
    if (void* p = std::malloc(size); ALLOCGATE_LIKELY(p != nullptr)) {
      count_allocation(t.counters, size);
      return p;
    }
    return new_otherwise<kNothrow>(size, 0);  // not `state`, which the call to malloc would have to keep
  }
  return new_otherwise<kNothrow>(size, state);
}

// kSized: `size` is what sized delete passed; otherwise it is unknown.
template <bool kSized>
[[gnu::always_inline, maybe_unused]] inline bool delete_fast(void* p, std::size_t size) noexcept {
  ThreadState& t = t_state;
  const std::uint32_t state = t.mode | g_flags.load(std::memory_order_relaxed);
  if (ALLOCGATE_LIKELY(state == 0)) {
    if (p != nullptr) {
      if constexpr (kSized) {
        count_deallocation(t.counters, size);
      } else {
        count_unsized_deallocation(t.counters);
      }
      std::free(p);
    }
    return true;
  }
  if (state == kBlockHeaders && p != nullptr) {
    BlockHeader* header = header_of(p);
    if (ALLOCGATE_LIKELY((header->tag & ~kCheckBits) == kPlainCounted)) {
      count_deallocation(t.counters, header->size);
      header->tag = 0;  // forget_header
      free_with_header(header, kPlainCounted);
      return true;
    }
  } else if (state == kCountedTest) {
    return delete_counted_test(t, p);
  }
  return false;
}

}  // namespace

ThreadState& thread_state() noexcept { return t_state; }
void set_delete_site_writer(DeleteSiteWriter writer) noexcept {
  g_delete_site_writer.store(writer, std::memory_order_release);
}
ProcessCounters& process_counters() noexcept { return g_process; }

void capture_other_threads(StackTable* table) noexcept {
  if (table != nullptr) {
    g_process.other_threads_capture.store(table, std::memory_order_release);
    hook_flags().fetch_or(kCapturingOtherThreads, std::memory_order_seq_cst);
    return;
  }
  hook_flags().fetch_and(~static_cast<std::uint32_t>(kCapturingOtherThreads), std::memory_order_seq_cst);
  g_process.other_threads_capture.store(nullptr, std::memory_order_seq_cst);
  // A writer that read the table before it was taken back holds the lock
  // until it is done: wait for it.
  while (g_process.other_threads_capture_busy.exchange(true, std::memory_order_acquire)) sched_yield();
  g_process.other_threads_capture_busy.store(false, std::memory_order_release);
}

std::atomic<std::uint32_t>& hook_flags() noexcept {
  current_flags();  // a reader before any allocation still sees the layout
  return g_flags;
}

const char* hook_source_file() noexcept { return __FILE__; }

}  // namespace allocgate::detail

#if ALLOCGATE_REPLACE_OPERATORS

namespace ag = allocgate::detail;

namespace {

[[gnu::always_inline]] inline void* new_plain(std::size_t n) { return ag::new_fast<false>(n); }

[[gnu::always_inline]] inline void* new_nothrow(std::size_t n) noexcept { return ag::new_fast<true>(n); }

[[gnu::always_inline]] inline void delete_sized(void* p, std::size_t n) noexcept {
  if (!ag::delete_fast<true>(p, n)) ag::delete_general(p, n);
}

[[gnu::always_inline]] inline void delete_unsized(void* p) noexcept {
  if (!ag::delete_fast<false>(p, 0)) ag::delete_general(p, ag::kUnknownSize);
}

}  // namespace

// Over-aligned forms are rare enough to always take the general path.
// clang-format off
void* operator new(std::size_t n) { return new_plain(n); }
void* operator new[](std::size_t n) { return new_plain(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return new_nothrow(n); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return new_nothrow(n); }
void* operator new(std::size_t n, std::align_val_t a) { return ag::new_or_throw(n, static_cast<std::size_t>(a)); }
void* operator new[](std::size_t n, std::align_val_t a) { return ag::new_or_throw(n, static_cast<std::size_t>(a)); }
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept { return ag::new_or_null(n, static_cast<std::size_t>(a)); }
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept { return ag::new_or_null(n, static_cast<std::size_t>(a)); }

// A size passed by sized delete is the requested size ([expr.delete]/10);
// the alignment is not needed, free() takes any block.
void operator delete(void* p) noexcept { delete_unsized(p); }
void operator delete[](void* p) noexcept { delete_unsized(p); }
void operator delete(void* p, std::size_t n) noexcept { delete_sized(p, n); }
void operator delete[](void* p, std::size_t n) noexcept { delete_sized(p, n); }
void operator delete(void* p, std::align_val_t) noexcept { ag::delete_general(p, ag::kUnknownSize); }
void operator delete[](void* p, std::align_val_t) noexcept { ag::delete_general(p, ag::kUnknownSize); }
void operator delete(void* p, std::size_t n, std::align_val_t) noexcept { ag::delete_general(p, n); }
void operator delete[](void* p, std::size_t n, std::align_val_t) noexcept { ag::delete_general(p, n); }
void operator delete(void* p, const std::nothrow_t&) noexcept { delete_unsized(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { delete_unsized(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { ag::delete_general(p, ag::kUnknownSize); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { ag::delete_general(p, ag::kUnknownSize); }
// clang-format on

#endif  // ALLOCGATE_REPLACE_OPERATORS
