// The allocation hook: replacements of all 20 replaceable global allocation and
// deallocation functions ([new.delete]), counting into per-thread state.
//
// Rules this file keeps, because it runs inside every allocation of the process:
//  - it never allocates through operator new, never locks and never prints;
//  - its state is constinit thread_local plain data: no TLS init function
//    (pre-main allocations are counted) and no destructor (allocations made by
//    thread_local destructors at thread exit are still safe to count);
//  - the common path is one branch on ThreadState::mode; process-wide totals are
//    atomics touched only while a process-wide scope is open.
//
// Block layout (ALLOCGATE_TRACK_SIZES=1, the default): each block carries a
// 16-byte header in front of the user's pointer with the requested size and
// whether the allocation was counted. That makes frees, live bytes and peak live
// bytes exact for every delete form, sized or not (clang 14 does not pass sizes
// by default), and lets a block allocated while counting was paused be freed
// later without a count going negative.
//
// Build options (compile definitions):
//  ALLOCGATE_TRACK_SIZES=0        no header: counts and requested bytes only.
//  ALLOCGATE_REPLACE_OPERATORS=0  counters without the replacements; used to test
//                                 that the harness detects a missing hook.

#include <execinfo.h>

#include <cstdlib>
#include <cstring>
#include <new>

#include "thread_state.h"

#ifndef ALLOCGATE_TRACK_SIZES
#define ALLOCGATE_TRACK_SIZES 1
#endif
#ifndef ALLOCGATE_REPLACE_OPERATORS
#define ALLOCGATE_REPLACE_OPERATORS 1
#endif

#if defined(__GNUC__)
#define ALLOCGATE_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define ALLOCGATE_UNLIKELY(x) (x)
#endif

// The default route to the C allocator; see thread_state.h.
extern "C" __attribute__((weak)) void* allocgate_new_malloc(std::size_t size) noexcept { return std::malloc(size); }
extern "C" __attribute__((weak)) void allocgate_new_free(void* p) noexcept { std::free(p); }
extern "C" __attribute__((weak)) int allocgate_new_memalign(void** p, std::size_t align, std::size_t size) noexcept {
  return posix_memalign(p, align, size);
}
extern "C" __attribute__((weak)) bool allocgate_counts_c_allocations() noexcept { return false; }

namespace allocgate::detail {
namespace {

constinit thread_local ThreadState t_state{};
constinit ProcessCounters g_process{};

// ---------------------------------------------------------------------------
// Counting

void raise_peak(std::atomic<std::int64_t>& peak, std::int64_t live) noexcept {
  std::int64_t seen = peak.load(std::memory_order_relaxed);
  while (live > seen && !peak.compare_exchange_weak(seen, live, std::memory_order_relaxed)) {
  }
}

[[maybe_unused]] void count_allocation(ThreadState& t, std::size_t size) noexcept {
  ThreadCounters& c = t.counters;
  ++c.allocations;
  c.bytes_allocated += size;
  c.live_bytes += static_cast<std::int64_t>(size);
  if (c.live_bytes > c.peak_live_bytes) c.peak_live_bytes = c.live_bytes;
  if (ALLOCGATE_UNLIKELY(g_process.open_scopes.load(std::memory_order_relaxed) != 0)) {
    g_process.allocations.fetch_add(1, std::memory_order_relaxed);
    g_process.bytes_allocated.fetch_add(size, std::memory_order_relaxed);
    const auto live = g_process.live_bytes.fetch_add(static_cast<std::int64_t>(size),
                                                     std::memory_order_relaxed) +
                      static_cast<std::int64_t>(size);
    raise_peak(g_process.peak_live_bytes, live);
  }
}

[[maybe_unused]] void count_deallocation(ThreadState& t, std::size_t size) noexcept {
  ThreadCounters& c = t.counters;
  ++c.deallocations;
  c.bytes_freed += size;
  c.live_bytes -= static_cast<std::int64_t>(size);
  if (ALLOCGATE_UNLIKELY(g_process.open_scopes.load(std::memory_order_relaxed) != 0)) {
    g_process.deallocations.fetch_add(1, std::memory_order_relaxed);
    g_process.bytes_freed.fetch_add(size, std::memory_order_relaxed);
    g_process.live_bytes.fetch_sub(static_cast<std::int64_t>(size), std::memory_order_relaxed);
  }
}

// FNV-1a over the return addresses: cheap, and only has to spread stacks
// over the table.
std::uint64_t hash_frames(void* const* frames, int depth) noexcept {
  std::uint64_t h = 1469598103934665603ULL;
  for (int i = 0; i < depth; ++i) {
    h ^= reinterpret_cast<std::uintptr_t>(frames[i]);
    h *= 1099511628211ULL;
  }
  return h | 1;  // never 0, which marks an empty slot
}

// Adds this allocation's stack to the table. backtrace() was called once when
// capture began, so glibc has loaded its unwinder and this call does not
// allocate; the guard keeps a nested allocation from recursing anyway.
void record_stack(ThreadState& t, std::size_t size) noexcept {
  if (t.capturing_now) return;
  t.capturing_now = true;
  void* frames[kMaxFrames];
  const int depth = backtrace(frames, kMaxFrames);
  const std::uint64_t hash = hash_frames(frames, depth);
  StackTable& table = *t.capture;
  const std::size_t mask = table.capacity - 1;
  for (std::size_t probe = 0, i = hash & mask; probe < table.capacity; ++probe, i = (i + 1) & mask) {
    CapturedStack& slot = table.slots[i];
    if (slot.hash == 0) {
      slot.hash = hash;
      slot.depth = static_cast<std::uint32_t>(depth);
      std::memcpy(slot.frames, frames, sizeof(void*) * static_cast<std::size_t>(depth));
    } else if (slot.hash != hash || slot.depth != static_cast<std::uint32_t>(depth) ||
               std::memcmp(slot.frames, frames, sizeof(void*) * static_cast<std::size_t>(depth)) != 0) {
      continue;
    }
    ++slot.count;
    slot.bytes += size;
    t.capturing_now = false;
    return;
  }
  ++table.dropped;
  t.capturing_now = false;
}

// Slow path of an allocation that succeeded while some mode bit is set.
// Returns whether the allocation is counted.
bool admit_special(ThreadState& t, std::size_t size) noexcept {
  if (t.mode & kPaused) {
    ++t.uncounted_allocations;
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
bool injected_failure_due() noexcept {
  ThreadState& t = t_state;
  if (!(t.mode & kFailureArmed)) return false;
  if (t.fail_countdown != 0) {
    --t.fail_countdown;
    return false;
  }
  t.mode &= ~static_cast<std::uint32_t>(kFailureArmed);  // one shot
  t.failure_fired = true;
  return true;
}

// ---------------------------------------------------------------------------
// Raw blocks

#if ALLOCGATE_TRACK_SIZES

struct alignas(16) BlockHeader {
  std::size_t size;
  std::size_t offset_and_counted;  // offset from malloc's pointer << 1 | counted
};
static_assert(sizeof(BlockHeader) == 16);

BlockHeader* header_of(void* user) noexcept {
  return static_cast<BlockHeader*>(user) - 1;
}

// Returns the user's pointer, or nullptr when malloc fails.
void* tracked_malloc(std::size_t size, std::size_t align) noexcept {
  ThreadState& t = t_state;
  const std::size_t offset = align > sizeof(BlockHeader) ? align : sizeof(BlockHeader);
  if (size > static_cast<std::size_t>(-1) - offset) return nullptr;
  void* base = nullptr;
  if (align <= alignof(std::max_align_t)) {
    base = allocgate_new_malloc(offset + size);
  } else if (allocgate_new_memalign(&base, align, offset + size) != 0) {
    base = nullptr;
  }
  if (base == nullptr) return nullptr;
  const bool counted = ALLOCGATE_UNLIKELY(t.mode != 0) ? admit_special(t, size) : true;
  if (counted) count_allocation(t, size);
  void* user = static_cast<char*>(base) + offset;
  *header_of(user) = BlockHeader{size, offset << 1 | (counted ? 1u : 0u)};
  return user;
}

[[maybe_unused]] void tracked_free(void* user) noexcept {
  if (user == nullptr) return;
  const BlockHeader h = *header_of(user);
  if (h.offset_and_counted & 1u) count_deallocation(t_state, h.size);
  allocgate_new_free(static_cast<char*>(user) - (h.offset_and_counted >> 1));
}

#else  // counts and requested bytes only: malloc's own pointer is the user's

void* tracked_malloc(std::size_t size, std::size_t align) noexcept {
  ThreadState& t = t_state;
  void* p = nullptr;
  if (align <= alignof(std::max_align_t)) {
    p = allocgate_new_malloc(size == 0 ? 1 : size);
  } else if (allocgate_new_memalign(&p, align, size == 0 ? align : size) != 0) {
    p = nullptr;
  }
  if (p == nullptr) return nullptr;
  if (ALLOCGATE_UNLIKELY(t.mode != 0) ? admit_special(t, size) : true) {
    ++t.counters.allocations;
    t.counters.bytes_allocated += size;
  }
  return p;
}

[[maybe_unused]] void tracked_free(void* p) noexcept {
  if (p == nullptr) return;
  ThreadState& t = t_state;
  if (!(t.mode & kPaused)) ++t.counters.deallocations;
  allocgate_new_free(p);
}

#endif  // ALLOCGATE_TRACK_SIZES

// ---------------------------------------------------------------------------
// The standard's loops ([new.delete.single]/4): retry through the new_handler
// until it succeeds; without a handler, throw (or return null for nothrow).

[[maybe_unused]] void* new_or_throw(std::size_t size, std::size_t align) {
  if (injected_failure_due()) throw std::bad_alloc();
  for (;;) {
    if (void* p = tracked_malloc(size, align)) return p;
    std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) throw std::bad_alloc();
    handler();
  }
}

[[maybe_unused]] void* new_or_null(std::size_t size, std::size_t align) noexcept {
  if (injected_failure_due()) return nullptr;
  for (;;) {
    if (void* p = tracked_malloc(size, align)) return p;
    std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) return nullptr;
    try {
      handler();
    } catch (const std::bad_alloc&) {
      return nullptr;
    }
  }
}

constexpr std::size_t kDefaultAlign = __STDCPP_DEFAULT_NEW_ALIGNMENT__;

}  // namespace

ThreadState& thread_state() noexcept { return t_state; }
ProcessCounters& process_counters() noexcept { return g_process; }
bool hook_tracks_sizes() noexcept { return ALLOCGATE_TRACK_SIZES != 0; }

}  // namespace allocgate::detail

#if ALLOCGATE_REPLACE_OPERATORS

namespace ag = allocgate::detail;

// clang-format off
void* operator new(std::size_t n) { return ag::new_or_throw(n, ag::kDefaultAlign); }
void* operator new[](std::size_t n) { return ag::new_or_throw(n, ag::kDefaultAlign); }
void* operator new(std::size_t n, std::align_val_t a) { return ag::new_or_throw(n, static_cast<std::size_t>(a)); }
void* operator new[](std::size_t n, std::align_val_t a) { return ag::new_or_throw(n, static_cast<std::size_t>(a)); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return ag::new_or_null(n, ag::kDefaultAlign); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return ag::new_or_null(n, ag::kDefaultAlign); }
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept { return ag::new_or_null(n, static_cast<std::size_t>(a)); }
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept { return ag::new_or_null(n, static_cast<std::size_t>(a)); }

// Every delete form ends in tracked_free, which takes the size from the block
// header: a size or alignment passed by the caller is not needed (and a wrong
// one cannot corrupt a count).
void operator delete(void* p) noexcept { ag::tracked_free(p); }
void operator delete[](void* p) noexcept { ag::tracked_free(p); }
void operator delete(void* p, std::size_t) noexcept { ag::tracked_free(p); }
void operator delete[](void* p, std::size_t) noexcept { ag::tracked_free(p); }
void operator delete(void* p, std::align_val_t) noexcept { ag::tracked_free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { ag::tracked_free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { ag::tracked_free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { ag::tracked_free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { ag::tracked_free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { ag::tracked_free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { ag::tracked_free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { ag::tracked_free(p); }
// clang-format on

#endif  // ALLOCGATE_REPLACE_OPERATORS
