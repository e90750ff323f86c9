// SPDX-License-Identifier: Apache-2.0
// The table of tracked blocks: open addressing on the block's address, linear
// probing, doubled when half its slots hold live blocks. A free moves the
// entries after it back into its slot rather than leaving a tombstone, so the
// table grows with the blocks live at once, never with the frees. Each start
// begins a generation: a slot of an older one is empty, so a test's start
// clears nothing (a memset of the table per test was most of the cost of
// counting a suite of small tests). Its memory is mapped from the kernel, so
// the table is never counted and never re-enters the hook.
//
// A slot is 16 bytes (the address, and the size, flags and generation packed
// in one word), four to a cache line: every allocation of a counted test
// touches one slot at a random place, and a test holding a million blocks
// maps its table page by page. The stacks of a capture are a second column,
// mapped only when a capture first gives one. Tables of 2 MiB or more ask
// for huge pages: measured on allocgate's own report tests, the page faults
// of a growing table were a quarter of what counting them cost.

#include "counting/block_tracker.h"

#include <linux/membarrier.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <initializer_list>

#include "counting/block_header.h"
#include "counting/other_threads.h"
#include "counting/own_mappings.h"
#include "counting/reachability.h"
#include "counting/thread_state.h"

namespace allocgate::detail {
namespace {

constexpr std::size_t kInitialCapacity = 1024;
constexpr std::size_t kKeptCapacity = 128 * 1024;  // 2 MiB of slots, one huge page: what a start keeps

// The packed word: the size in the low 48 bits (no allocator returns a block
// of 2^48 bytes on a 48-bit address space), then the two flags, then the
// generation in the top 14 bits.
constexpr unsigned kSizeBits = 48;
constexpr std::uint64_t kSizeMask = (std::uint64_t{1} << kSizeBits) - 1;
constexpr std::uint64_t kTableCountedBit = std::uint64_t{1} << kSizeBits;
constexpr std::uint64_t kTableKeptByStaticBit = std::uint64_t{1} << (kSizeBits + 1);
constexpr unsigned kGenerationShift = kSizeBits + 2;
constexpr std::uint64_t kGenerations = std::uint64_t{1} << (64 - kGenerationShift);

struct Slot {
  void* block = nullptr;
  std::uint64_t word = 0;  // size | flags | generation; 0 (generation 0) is never current
};
static_assert(sizeof(Slot) == 16);

struct Table {
  Slot* slots = nullptr;
  CapturedStack** stacks = nullptr;  // a column beside slots, or null until a stack is tracked
  std::size_t capacity = 0;          // a power of two
  std::size_t used = 0;              // this generation's entries
  std::uint64_t generation = 1;      // in [1, kGenerations)
  LiveTotals live;                   // of this generation's counted blocks not kept by a static
};

std::uint64_t pack(const TrackedBlock& b, std::uint64_t generation) noexcept {
  return (static_cast<std::uint64_t>(b.size) & kSizeMask) | (b.counted ? kTableCountedBit : 0) |
         (b.kept_by_static ? kTableKeptByStaticBit : 0) | generation << kGenerationShift;
}

bool leakable(std::uint64_t word) noexcept {
  return (word & (kTableCountedBit | kTableKeptByStaticBit)) == kTableCountedBit;
}

constinit Table g_table{};

TrackedBlock entry_at(std::size_t i) noexcept {
  const Slot& s = g_table.slots[i];
  return TrackedBlock{s.block, static_cast<std::size_t>(s.word & kSizeMask),
                      g_table.stacks != nullptr ? g_table.stacks[i] : nullptr, (s.word & kTableCountedBit) != 0,
                      (s.word & kTableKeptByStaticBit) != 0};
}

// Set while this thread is inside the table: an allocation made from in
// there (a preloaded profiler's malloc calling operator new) is not tracked
// rather than waiting on the lock its own thread holds.
constinit thread_local bool t_inside = false;

// Entering the table. A spin lock rather than std::mutex: taken inside
// operator new, where a mutex's first use could itself allocate on some
// platforms. But its lock-prefixed exchange, one per allocation and one per
// free, was most of what tracking cost a test (perf: 70% of track_block),
// and a test's allocations are nearly all its own thread's. So the table has
// an owner, the first thread to start tracking (GoogleTest's main thread),
// which enters with a plain store and load while no other thread has entered
// since the test began; any other thread, and then the owner too until the
// next start, takes the lock. The two sides are a Dekker handshake whose
// full fence only the rare side pays: membarrier(2) runs a barrier on every
// thread of the process (the asymmetric fence of liburcu and folly), so the
// owner needs none between its store and its load. Without membarrier, or
// under ThreadSanitizer (which cannot see it), every thread takes the lock.
constinit std::atomic_flag g_lock;                    // clear (C++20; ATOMIC_FLAG_INIT is deprecated)
constinit thread_local char t_identity = 0;           // its address names the thread
constinit std::atomic<const char*> g_owner{nullptr};  // set once: a former owner might still be entering
constinit std::atomic<bool> g_owner_inside{false};    // written by the owner only
constinit std::atomic<bool> g_others_came{true};      // cleared at a start, by the lock's holder

#if defined(__SANITIZE_THREAD__)
constexpr bool kAsymmetricFence = false;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
constexpr bool kAsymmetricFence = false;
#else
constexpr bool kAsymmetricFence = true;
#endif
#else
constexpr bool kAsymmetricFence = true;
#endif

void lock() noexcept {
  while (g_lock.test_and_set(std::memory_order_acquire)) {
  }
}
void unlock() noexcept { g_lock.clear(std::memory_order_release); }

// Cannot fail once the process is registered (claim_the_table), which
// names no owner otherwise.
void fence_every_thread() noexcept { ::syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0); }

// With the lock held: the owner is out of the table and stays out until a
// start clears g_others_came again.
void keep_the_owner_out() noexcept {
  if (g_others_came.load(std::memory_order_relaxed)) return;
  g_others_came.store(true, std::memory_order_relaxed);
  fence_every_thread();  // the owner's load after it sees true; its store before it is seen
  while (g_owner_inside.load(std::memory_order_acquire)) {
  }
}

class Entered {
 public:
  Entered() noexcept : held_(!t_inside) {
    if (!held_) return;
    t_inside = true;
    if (g_owner.load(std::memory_order_relaxed) == &t_identity) {
      g_owner_inside.store(true, std::memory_order_relaxed);
      std::atomic_signal_fence(std::memory_order_seq_cst);  // the compiler's order; the CPU's is membarrier's
      if (!g_others_came.load(std::memory_order_acquire)) {
        alone_ = true;
        return;
      }
      g_owner_inside.store(false, std::memory_order_release);
      lock();
      return;
    }
    lock();
    keep_the_owner_out();
  }
  ~Entered() {
    if (!held_) return;
    t_inside = false;
    if (alone_) {
      g_owner_inside.store(false, std::memory_order_release);
    } else {
      unlock();
    }
  }
  /// False when this thread is already inside.
  bool held() const noexcept { return held_; }
  /// Lets the owner in alone again; called last, by the lock's holder.
  void let_the_owner_in() const noexcept {
    if (held_ && !alone_) g_others_came.store(false, std::memory_order_release);
  }
  Entered(const Entered&) = delete;
  Entered& operator=(const Entered&) = delete;

 private:
  bool held_;
  bool alone_ = false;
};

// The first thread to start tracking owns the table, when membarrier can
// fence the others.
void claim_the_table() noexcept {
  if (!kAsymmetricFence || g_owner.load(std::memory_order_relaxed) != nullptr) return;
  static const bool registered = ::syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
  if (!registered) return;
  const char* none = nullptr;
  g_owner.compare_exchange_strong(none, &t_identity, std::memory_order_relaxed);
}

// fork() while another thread holds the lock, or the owner is inside, would
// leave the child's copy held forever: fork enters first and both sides let
// it go (the owner takes the lock until the next start).
void before_fork() noexcept {
  lock();
  keep_the_owner_out();
}

void register_fork_handlers() noexcept {
  static const bool registered = (pthread_atfork(before_fork, unlock, unlock), true);
  (void)registered;
}

std::size_t slot_of(const void* block, std::size_t capacity) noexcept {
  // The blocks of one 4 KiB page of the heap keep their order in a window of
  // 256 slots (blocks are 16-byte aligned), placed by a hash of the page: the
  // blocks a test allocates one after another sit in the same cache lines of
  // the table, as they do in the heap, where a hash of each address sent
  // every insert and every free to a line of its own.
  const auto address = reinterpret_cast<std::uintptr_t>(block);
  const std::uintptr_t page = (address >> 12) * 0x9E3779B97F4A7C15ull;
  return static_cast<std::size_t>(((page >> 20) << 8) | ((address >> 4) & 255)) & (capacity - 1);
}

// Whether a slot holds nothing of this generation: free for an insert, the
// end of a lookup's probe.
bool vacant(const Slot& slot) noexcept {
  return slot.word >> kGenerationShift != g_table.generation || slot.block == nullptr;
}

// Zeroed pages of the kernel's, never the hook's. From 2 MiB up the mapping
// is aligned to 2 MiB and asks for huge pages: one fault maps 512 pages.
constexpr std::size_t kHugePage = std::size_t{2} << 20;

void* map_zeroed(std::size_t bytes) noexcept {
  if (bytes < kHugePage) return map_own_pages(bytes);
  void* memory = ::mmap(nullptr, bytes + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) return nullptr;
  const auto start = reinterpret_cast<std::uintptr_t>(memory);
  const std::uintptr_t aligned = (start + kHugePage - 1) & ~(kHugePage - 1);
  if (aligned != start) ::munmap(memory, aligned - start);
  if (const std::uintptr_t tail = start + bytes + kHugePage - (aligned + bytes); tail != 0) {
    ::munmap(reinterpret_cast<void*>(aligned + bytes), tail);
  }
  ::madvise(reinterpret_cast<void*>(aligned), bytes, MADV_HUGEPAGE);  // a hint: without it, small pages
  own_pages_mapped(reinterpret_cast<void*>(aligned), bytes);
  return reinterpret_cast<void*>(aligned);
}

// Reallocates the table at `capacity`. False when the kernel has no memory:
// the table keeps its size and tracking goes on without the new block (its
// free will be counted as an older block's).
bool rebuild(std::size_t capacity) noexcept {
  auto* slots = static_cast<Slot*>(map_zeroed(capacity * sizeof(Slot)));
  if (slots == nullptr) return false;
  CapturedStack** stacks = nullptr;
  if (g_table.stacks != nullptr) {
    stacks = static_cast<CapturedStack**>(map_zeroed(capacity * sizeof(CapturedStack*)));
    if (stacks == nullptr) {
      unmap_own_pages(slots, capacity * sizeof(Slot));
      return false;
    }
  }
  std::size_t used = 0;
  for (std::size_t i = 0; i < g_table.capacity; ++i) {
    const Slot& s = g_table.slots[i];
    if (vacant(s)) continue;
    std::size_t j = slot_of(s.block, capacity);
    while (slots[j].block != nullptr) j = (j + 1) & (capacity - 1);
    slots[j] = s;
    if (stacks != nullptr) stacks[j] = g_table.stacks[i];
    ++used;
  }
  if (g_table.slots != nullptr) unmap_own_pages(g_table.slots, g_table.capacity * sizeof(Slot));
  if (g_table.stacks != nullptr) unmap_own_pages(g_table.stacks, g_table.capacity * sizeof(CapturedStack*));
  g_table.slots = slots;
  g_table.stacks = stacks;
  g_table.capacity = capacity;
  g_table.used = used;
  return true;
}

// Unmaps the table; the next insert maps one of the initial capacity.
void release_table() noexcept {
  if (g_table.slots != nullptr) unmap_own_pages(g_table.slots, g_table.capacity * sizeof(Slot));
  if (g_table.stacks != nullptr) unmap_own_pages(g_table.stacks, g_table.capacity * sizeof(CapturedStack*));
  g_table.slots = nullptr;
  g_table.stacks = nullptr;
  g_table.capacity = 0;
}

// The stack column, mapped the first time a block with a stack is tracked.
bool map_stacks() noexcept {
  g_table.stacks = static_cast<CapturedStack**>(map_zeroed(g_table.capacity * sizeof(CapturedStack*)));
  return g_table.stacks != nullptr;
}

void insert(const TrackedBlock& entry) noexcept {
  if (g_table.capacity == 0 || (g_table.used + 1) * 2 > g_table.capacity) {
    if (!rebuild(g_table.capacity == 0 ? kInitialCapacity : g_table.capacity * 2) && g_table.capacity == 0) return;
    if (g_table.used + 1 >= g_table.capacity) return;  // full and no memory to grow: not tracked
  }
  if (entry.stack != nullptr && g_table.stacks == nullptr && !map_stacks()) return;
  const std::size_t mask = g_table.capacity - 1;
  std::size_t i = slot_of(entry.block, g_table.capacity);
  while (!vacant(g_table.slots[i])) i = (i + 1) & mask;
  ++g_table.used;
  g_table.slots[i] = Slot{entry.block, pack(entry, g_table.generation)};
  if (g_table.stacks != nullptr) g_table.stacks[i] = entry.stack;
  if (leakable(g_table.slots[i].word)) {
    ++g_table.live.blocks;
    g_table.live.bytes += entry.size;
  }
}

// Empties slot `hole`: each entry after it in its run whose home slot is
// not between the hole and itself (cyclically) would no longer be found past
// the hole, so it moves back into it and leaves a hole of its own.
void erase_at(std::size_t hole) noexcept {
  const std::size_t mask = g_table.capacity - 1;
  for (std::size_t j = (hole + 1) & mask; !vacant(g_table.slots[j]); j = (j + 1) & mask) {
    const std::size_t home = slot_of(g_table.slots[j].block, g_table.capacity);
    const bool stays = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
    if (stays) continue;
    g_table.slots[hole] = g_table.slots[j];
    if (g_table.stacks != nullptr) g_table.stacks[hole] = g_table.stacks[j];
    hole = j;
  }
  g_table.slots[hole].block = nullptr;
  --g_table.used;
}

// The slot that tracks `block`, or kNotTracked. The table is held.
constexpr std::size_t kNotTracked = ~std::size_t{0};
std::size_t index_of(const void* block) noexcept {
  if (g_table.capacity == 0) return kNotTracked;
  const std::size_t mask = g_table.capacity - 1;
  for (std::size_t i = slot_of(block, g_table.capacity), probes = 0; probes < g_table.capacity;
       i = (i + 1) & mask, ++probes) {
    if (vacant(g_table.slots[i])) return kNotTracked;
    if (g_table.slots[i].block == block) return i;
  }
  return kNotTracked;
}

}  // namespace

namespace {

// Which of the two ways the last start chose.
constinit std::atomic<bool> g_tagging{false};

// With block headers: a new tag for the blocks allocated from now on, and
// its tally zeroed. The table is not used.
void start_tagging() noexcept {
  ProcessCounters& process = process_counters();
  constexpr auto relaxed = std::memory_order_relaxed;
  std::uint64_t tag = process.block_tag.load(relaxed) + (std::uint64_t{1} << kBlockTagShift);
  if (tag == 0) tag = std::uint64_t{1} << kBlockTagShift;  // 0 is no tagging's
  process.block_tag.store(tag, relaxed);
  for (ProcessTally* share : {&process.owned, &process.shared}) {
    share->tagged_blocks.store(0, relaxed);
    share->tagged_bytes.store(0, relaxed);
  }
  process.disowned_block.store(nullptr, relaxed);
  g_tagging.store(true, relaxed);
  // seq_cst, as every flag: a thread that sees kTaggingBlocks sees the new tag and tally.
  hook_flags().fetch_or(kTaggingBlocks, std::memory_order_seq_cst);
}

}  // namespace

void start_tracking_blocks(bool with_stacks) noexcept {
  if (!with_stacks && (hook_flags().load(std::memory_order_relaxed) & kBlockHeaders)) {
    start_tagging();
    return;
  }
  g_tagging.store(false, std::memory_order_relaxed);
  register_fork_handlers();
  claim_the_table();
  {
    const Entered entered;
    // A table grown by an earlier test's blocks is given back: a test with
    // few blocks then probes a table that stays in cache, not one slot at
    // random in megabytes (measured: a third of what counting allocgate's
    // report tests cost, after one test holding many blocks).
    if (g_table.capacity > kKeptCapacity) release_table();
    // Every slot vacant at once; when the generations run out, the table
    // is zeroed once (every 16,383 starts).
    if (++g_table.generation == kGenerations) {
      g_table.generation = 1;
      if (g_table.slots != nullptr) std::memset(static_cast<void*>(g_table.slots), 0, g_table.capacity * sizeof(Slot));
    }
    g_table.used = 0;
    g_table.live = LiveTotals{};
    entered.let_the_owner_in();
  }
  hook_flags().fetch_or(kTrackingBlocks, std::memory_order_seq_cst);
}

void stop_tracking_blocks() noexcept {
  hook_flags().fetch_and(~static_cast<std::uint32_t>(kTrackingBlocks | kTaggingBlocks), std::memory_order_seq_cst);
}

void track_block(void* block, std::size_t size, bool counted, CapturedStack* stack) noexcept {
  const Entered entered;
  if (entered.held()) insert(TrackedBlock{block, size, stack, counted, thread_state().static_depth != 0});
}

void begin_static_initialization() noexcept {
  ThreadState& t = thread_state();
  ++t.static_depth;
  t.refresh_mode();
}
void end_static_initialization() noexcept {
  ThreadState& t = thread_state();
  if (t.static_depth != 0) --t.static_depth;
  t.refresh_mode();
}

void clear_new_blocks() noexcept { process_counters().clear_new_blocks.store(true, std::memory_order_relaxed); }

void hold_freed_blocks() noexcept { process_counters().hold_freed_blocks.store(true, std::memory_order_relaxed); }

void disown_block(void* block, std::size_t size) noexcept {
  if (g_tagging.load(std::memory_order_relaxed)) {
    process_counters().disowned_block.store(block, std::memory_order_relaxed);
  } else {
    track_block(block, size, false, nullptr);
  }
}

bool untrack_block(void* block, TrackedBlock& found) noexcept {
  const Entered entered;
  if (!entered.held()) return false;
  const std::size_t i = index_of(block);
  if (i == kNotTracked) return false;
  found = entry_at(i);
  if (leakable(g_table.slots[i].word)) {
    --g_table.live.blocks;
    g_table.live.bytes -= found.size;
  }
  erase_at(i);
  return true;
}

LiveTotals live_blocks(void (*visit)(const TrackedBlock&, void*), void* data) noexcept {
  if (g_tagging.load(std::memory_order_relaxed)) {  // no blocks to visit: only their tally
    const ProcessCounters& process = process_counters();
    constexpr auto relaxed = std::memory_order_relaxed;
    return LiveTotals{process.owned.tagged_blocks.load(relaxed) + process.shared.tagged_blocks.load(relaxed),
                      process.owned.tagged_bytes.load(relaxed) + process.shared.tagged_bytes.load(relaxed)};
  }
  const Entered entered;
  // Kept as blocks come and go: a test without leaks is not a walk of the table.
  if (visit == nullptr || g_table.live.blocks == 0) return g_table.live;
  for (std::size_t i = 0; i < g_table.capacity; ++i) {
    if (vacant(g_table.slots[i]) || !leakable(g_table.slots[i].word)) continue;
    visit(entry_at(i), data);
  }
  return g_table.live;
}

namespace {

// The live blocks split by a marking's reach, the leaked ones visited.
void split_reached(const ReachedBlocks& reached, const LiveTotals& live, void (*visit)(const TrackedBlock&, void*),
                   void* data, LiveSplit& split) noexcept {
  if (g_tagging.load(std::memory_order_relaxed)) {
    // This tagging's blocks carry its tag: the reached ones are kept.
    const std::uint64_t tag = process_counters().block_tag.load(std::memory_order_relaxed);
    reached.for_each([&](void* block) {
      const BlockHeader& h = *header_of(block);
      if ((h.tag & kLeakableBit) && (h.tag & kBlockTagBits) == tag) {
        ++split.kept.blocks;
        split.kept.bytes += h.size;
      }
    });
    split.leaked = LiveTotals{live.blocks - split.kept.blocks, live.bytes - split.kept.bytes};
    return;
  }
  for (std::size_t i = 0; i < g_table.capacity; ++i) {
    if (vacant(g_table.slots[i]) || !leakable(g_table.slots[i].word)) continue;
    const TrackedBlock block = entry_at(i);
    LiveTotals& side = reached.contains(block.block) ? split.kept : split.leaked;
    ++side.blocks;
    side.bytes += block.size;
    if (visit != nullptr && &side == &split.leaked) visit(block, data);
  }
}

}  // namespace

namespace {

// The blocks a verdict judges, for the marking (reachability.h): this
// tagging's, or those the table tracks as leakable. The table is held.
bool judged_by_tag(const void* block) noexcept {
  const BlockHeader& h = *header_of(const_cast<void*>(block));
  return (h.tag & kLeakableBit) &&
         (h.tag & kBlockTagBits) == process_counters().block_tag.load(std::memory_order_relaxed);
}

bool judged_by_table(const void* block) noexcept {
  const std::size_t i = index_of(block);
  return i != kNotTracked && leakable(g_table.slots[i].word);
}

}  // namespace

LiveSplit split_live_blocks(const void* stack_floor, void (*visit)(const TrackedBlock&, void*), void* data,
                            const RootSnapshot* before) noexcept {
  if (live_blocks().blocks == 0) return LiveSplit{};
  // No word of allocgate's may keep a block: the fixture's address, once
  // disowned, may be a leaked block's now.
  process_counters().disowned_block.store(nullptr, std::memory_order_relaxed);
  // The table held, then the loader, then every other thread stopped, from
  // the tally to the verdict: a worker let go between the marking and the
  // walk of the table would add a block the marking never saw (a leak,
  // falsely), or free one it counted. Each lock is taken first: a thread
  // stopped while holding one would never let the verdict have it.
  const Entered entered;
  LiveSplit split;
  auto judge = [&] {
    const StoppedThreads others;
    const LiveTotals live = live_blocks();
    if (live.blocks == 0) return;
    ReachedBlocks reached;
    mark_reachable(reached, stack_floor, &others, before,
                   g_tagging.load(std::memory_order_relaxed) ? judged_by_tag : judged_by_table);
    if (!reached.complete()) {
      split.leaked = live_blocks(visit, data);
      return;
    }
    split_reached(reached, live, visit, data, split);
  };
  holding_the_loader(judge);
  return split;
}

}  // namespace allocgate::detail
