// SPDX-License-Identifier: Apache-2.0
// The registry of own_mappings.h: a fixed table of slots, claimed by a
// compare-and-swap on their end and let go by clearing their begin.

#include "counting/own_mappings.h"

#include <sys/mman.h>

#include <atomic>

namespace allocgate::detail {
namespace {

// More than allocgate ever holds at once: the block table's two arrays,
// the marking's half dozen, a snapshot's five, each thread's none.
constexpr std::size_t kSlots = 256;

struct Slot {
  std::atomic<std::uintptr_t> begin{0};
  std::atomic<std::uintptr_t> end{0};  // nonzero: claimed
};
constinit Slot g_slots[kSlots];

}  // namespace

void own_pages_mapped(void* memory, std::size_t bytes) noexcept {
  const auto begin = reinterpret_cast<std::uintptr_t>(memory);
  for (Slot& slot : g_slots) {
    std::uintptr_t free = 0;
    if (slot.end.compare_exchange_strong(free, begin + bytes, std::memory_order_acq_rel)) {
      slot.begin.store(begin, std::memory_order_release);
      return;
    }
  }
  // No slot: the mapping stays unregistered, as before there was a registry.
}

void* map_own_pages(std::size_t bytes) noexcept {
  void* memory = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) return nullptr;
  own_pages_mapped(memory, bytes);
  return memory;
}

void own_pages_forgotten(void* memory, std::size_t bytes) noexcept {
  const auto begin = reinterpret_cast<std::uintptr_t>(memory);
  for (Slot& slot : g_slots) {
    if (slot.begin.load(std::memory_order_acquire) == begin &&
        slot.end.load(std::memory_order_relaxed) == begin + bytes) {
      slot.begin.store(0, std::memory_order_relaxed);
      slot.end.store(0, std::memory_order_release);
      return;
    }
  }
}

void unmap_own_pages(void* memory, std::size_t bytes) noexcept {
  own_pages_forgotten(memory, bytes);
  ::munmap(memory, bytes);
}

std::size_t own_mappings(OwnMapping* out, std::size_t capacity) noexcept {
  std::size_t count = 0;
  for (const Slot& slot : g_slots) {
    if (count == capacity) break;
    const std::uintptr_t begin = slot.begin.load(std::memory_order_acquire);
    const std::uintptr_t end = slot.end.load(std::memory_order_acquire);
    if (begin != 0 && end > begin) out[count++] = OwnMapping{begin, end};
  }
  return count;
}

}  // namespace allocgate::detail
