// SPDX-License-Identifier: Apache-2.0
// The table of tracked blocks: open addressing on the block's address, linear
// probing, doubled when half its slots hold live blocks. A free moves the
// entries after it back into its slot rather than leaving a tombstone, so the
// table grows with the blocks live at once, never with the frees. Each start
// begins a generation: a slot of an older one is empty, so a test's start
// clears nothing (a memset of the table per test was most of the cost of
// counting a suite of small tests). Its memory is mapped from the kernel, so
// the table is never counted and never re-enters the hook.

#include "counting/block_tracker.h"

#include <pthread.h>
#include <sys/mman.h>

#include <atomic>

#include "counting/thread_state.h"

namespace allocgate::detail {
namespace {

constexpr std::size_t kInitialCapacity = 1024;

struct Slot {
  TrackedBlock entry;
  std::uint64_t generation = 0;
};

struct Table {
  Slot* slots = nullptr;
  std::size_t capacity = 0;      // a power of two
  std::size_t used = 0;          // this generation's entries
  std::uint64_t generation = 1;  // slots are zeroed with 0: never current
  LiveTotals live;               // of this generation's counted blocks not kept by a static
};

bool leakable(const TrackedBlock& b) noexcept { return b.counted && !b.kept_by_static; }

constinit Table g_table{};
constinit std::atomic_flag g_lock;  // clear (C++20; ATOMIC_FLAG_INIT is deprecated)

// Set while this thread is inside the table: an allocation made from in
// there (a preloaded profiler's malloc calling operator new) is not tracked
// rather than waiting on the lock its own thread holds.
constinit thread_local bool t_inside = false;
constinit thread_local unsigned t_static_depth = 0;  // statics being built on this thread

void lock() noexcept {
  while (g_lock.test_and_set(std::memory_order_acquire)) {
  }
}
void unlock() noexcept { g_lock.clear(std::memory_order_release); }

// A spin lock rather than std::mutex: taken inside operator new, where a
// mutex's first use could itself allocate on some platforms. held() is
// false when this thread already holds it.
class Locked {
 public:
  Locked() noexcept : held_(!t_inside) {
    if (!held_) return;
    lock();
    t_inside = true;
  }
  ~Locked() {
    if (!held_) return;
    t_inside = false;
    unlock();
  }
  bool held() const noexcept { return held_; }
  Locked(const Locked&) = delete;
  Locked& operator=(const Locked&) = delete;

 private:
  bool held_;
};

// fork() while another thread holds the lock would leave the child's copy
// held forever: fork takes it first and both sides let it go.
void register_fork_handlers() noexcept {
  static const bool registered = (pthread_atfork(lock, unlock, unlock), true);
  (void)registered;
}

std::size_t slot_of(const void* block, std::size_t capacity) noexcept {
  // Blocks are at least 16-byte aligned: mix the address so that neighbours spread.
  auto h = reinterpret_cast<std::uintptr_t>(block) >> 4;
  h *= 0x9E3779B97F4A7C15ull;
  return static_cast<std::size_t>(h >> 20) & (capacity - 1);
}

// Whether a slot holds nothing of this generation: free for an insert, the
// end of a lookup's probe.
bool vacant(const Slot& slot) noexcept { return slot.generation != g_table.generation || slot.entry.block == nullptr; }

// Reallocates the table at `capacity`. False when the C
// allocator has no memory: the table keeps its size and tracking goes on
// without the new block (its free will be counted as an older block's).
bool rebuild(std::size_t capacity) noexcept {
  // Pages of the kernel's: zero already (a test holding millions of blocks
  // grows the table to hundreds of MB, and zeroing it was a twentieth of what
  // counting allocgate's own report tests cost), and never the hook's.
  void* memory = ::mmap(nullptr, capacity * sizeof(Slot), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) return false;
  auto* slots = static_cast<Slot*>(memory);
  std::size_t used = 0;
  for (std::size_t i = 0; i < g_table.capacity; ++i) {
    const Slot& s = g_table.slots[i];
    if (vacant(s)) continue;
    std::size_t j = slot_of(s.entry.block, capacity);
    while (slots[j].entry.block != nullptr) j = (j + 1) & (capacity - 1);
    slots[j] = s;
    ++used;
  }
  if (g_table.slots != nullptr) ::munmap(g_table.slots, g_table.capacity * sizeof(Slot));
  g_table.slots = slots;
  g_table.capacity = capacity;
  g_table.used = used;
  return true;
}

void insert(const TrackedBlock& entry) noexcept {
  if (g_table.capacity == 0 || (g_table.used + 1) * 2 > g_table.capacity) {
    if (!rebuild(g_table.capacity == 0 ? kInitialCapacity : g_table.capacity * 2) && g_table.capacity == 0) return;
    if (g_table.used + 1 >= g_table.capacity) return;  // full and no memory to grow: not tracked
  }
  const std::size_t mask = g_table.capacity - 1;
  std::size_t i = slot_of(entry.block, g_table.capacity);
  while (!vacant(g_table.slots[i])) i = (i + 1) & mask;
  ++g_table.used;
  g_table.slots[i] = Slot{entry, g_table.generation};
  if (leakable(entry)) {
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
    const std::size_t home = slot_of(g_table.slots[j].entry.block, g_table.capacity);
    const bool stays = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
    if (stays) continue;
    g_table.slots[hole] = g_table.slots[j];
    hole = j;
  }
  g_table.slots[hole].entry.block = nullptr;
  --g_table.used;
}

}  // namespace

void start_tracking_blocks() noexcept {
  register_fork_handlers();
  {
    const Locked locked;
    ++g_table.generation;  // every slot vacant at once
    g_table.used = 0;
    g_table.live = LiveTotals{};
  }
  hook_flags().fetch_or(kTrackingBlocks, std::memory_order_seq_cst);
}

void stop_tracking_blocks() noexcept {
  hook_flags().fetch_and(~static_cast<std::uint32_t>(kTrackingBlocks), std::memory_order_seq_cst);
}

void track_block(void* block, std::size_t size, bool counted, CapturedStack* stack) noexcept {
  const Locked locked;
  if (locked.held()) insert(TrackedBlock{block, size, stack, counted, t_static_depth != 0});
}

void begin_static_initialization() noexcept { ++t_static_depth; }
void end_static_initialization() noexcept {
  if (t_static_depth != 0) --t_static_depth;
}

void disown_block(void* block, std::size_t size) noexcept { track_block(block, size, false, nullptr); }

bool untrack_block(void* block, TrackedBlock& found) noexcept {
  const Locked locked;
  if (!locked.held() || g_table.capacity == 0) return false;
  const std::size_t mask = g_table.capacity - 1;
  for (std::size_t i = slot_of(block, g_table.capacity), probes = 0; probes < g_table.capacity;
       i = (i + 1) & mask, ++probes) {
    Slot& slot = g_table.slots[i];
    if (vacant(slot)) return false;
    if (slot.entry.block != block) continue;
    found = slot.entry;
    if (leakable(found)) {
      --g_table.live.blocks;
      g_table.live.bytes -= found.size;
    }
    erase_at(i);
    return true;
  }
  return false;
}

LiveTotals live_blocks(void (*visit)(const TrackedBlock&, void*), void* data) noexcept {
  const Locked locked;
  // Kept as blocks come and go: a test without leaks is not a walk of the table.
  if (visit == nullptr || g_table.live.blocks == 0) return g_table.live;
  for (std::size_t i = 0; i < g_table.capacity; ++i) {
    if (vacant(g_table.slots[i])) continue;
    const TrackedBlock& b = g_table.slots[i].entry;
    if (leakable(b)) visit(b, data);
  }
  return g_table.live;
}

}  // namespace allocgate::detail
