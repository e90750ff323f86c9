// SPDX-License-Identifier: Apache-2.0
// Opt-in counting of the C allocation functions (link allocgate::c_allocations):
// malloc, calloc, realloc, free, posix_memalign, aligned_alloc, memalign,
// valloc and pvalloc are replaced in the executable and forward to glibc's
// own __libc_* functions. Their counts are kept apart from operator new's.
//
// operator new and delete reach glibc through the strong allocgate_new_*
// definitions below, not through these replacements, so an operator new is
// never counted a second time as a malloc (allocgate_c_allocations_linked
// keeps the hook off its fast path, which calls malloc directly).
//
// Not for sanitizer builds: ASan and TSan replace malloc themselves.
//
// Under heaptrack: its preloaded library interposes malloc to see every
// allocation, but the executable's own malloc comes first in symbol lookup,
// so heaptrack would see nothing and wait for its data forever. When the next
// malloc in lookup order is heaptrack's, these forward to it instead of to
// glibc; heaptrack's functions wrap glibc's, so a block from either may be
// freed by the other. Any other preloaded allocator is left out, as before:
// mixing its blocks with glibc's would corrupt both.

#include <dlfcn.h>

#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "counting/thread_state.h"

extern "C" {
void* __libc_malloc(std::size_t size);
void __libc_free(void* p);
void* __libc_calloc(std::size_t count, std::size_t size);
void* __libc_realloc(void* p, std::size_t size);
void* __libc_memalign(std::size_t align, std::size_t size);
void* __libc_valloc(std::size_t size);
void* __libc_pvalloc(std::size_t size);
}

namespace {

using allocgate::detail::ThreadState;

// The C allocator the replacements forward to.
struct NextAllocator {
  void* (*malloc)(std::size_t) = __libc_malloc;
  void (*free)(void*) = __libc_free;
  void* (*calloc)(std::size_t, std::size_t) = __libc_calloc;
  void* (*realloc)(void*, std::size_t) = __libc_realloc;
  void* (*memalign)(std::size_t, std::size_t) = __libc_memalign;
  // heaptrack's functions allocate for heaptrack's own records through the
  // program's operator new and malloc: not the program's allocations.
  bool pause_inside = false;
};

constinit const NextAllocator kGlibc{};
constinit NextAllocator g_resolved{};
constinit std::atomic<int> g_resolution{0};  // 0: not yet, 1: under way, 2: done

template <class Function>
void take_next(Function& slot, const char* name) noexcept {
  if (void* next = ::dlsym(RTLD_NEXT, name)) slot = reinterpret_cast<Function>(next);
}

// Resolved on the first call. While dlsym runs (it may allocate), and on any
// thread that calls meanwhile, glibc's functions serve.
const NextAllocator& next_allocator() noexcept {
  int state = g_resolution.load(std::memory_order_acquire);
  if (state == 2) return g_resolved;
  if (state != 0 || !g_resolution.compare_exchange_strong(state, 1, std::memory_order_acq_rel)) return kGlibc;
  NextAllocator next;
  Dl_info where{};
  void* const preloaded = ::dlsym(RTLD_NEXT, "malloc");
  if (preloaded != nullptr && ::dladdr(preloaded, &where) != 0 && where.dli_fname != nullptr &&
      std::strstr(where.dli_fname, "heaptrack") != nullptr) {
    take_next(next.malloc, "malloc");
    take_next(next.free, "free");
    take_next(next.calloc, "calloc");
    take_next(next.realloc, "realloc");
    take_next(next.memalign, "memalign");
    next.pause_inside = true;
  }
  g_resolved = next;
  g_resolution.store(2, std::memory_order_release);
  return g_resolved;
}

// Calls the next allocator; with counting paused on this thread while it is
// heaptrack's.
template <class Call>
auto call_next(Call call) noexcept {
  const NextAllocator& next = next_allocator();
  if (!next.pause_inside) return call(next);
  ThreadState& t = allocgate::detail::thread_state();
  ++t.pause_depth;
  t.refresh_mode();
  struct Resume {
    ThreadState& t;
    ~Resume() {
      --t.pause_depth;
      t.refresh_mode();
    }
  } resume{t};
  return call(next);
}

void count_allocation(std::size_t size) noexcept {
  ThreadState& t = allocgate::detail::thread_state();
  if (t.pause_depth != 0) return;
  ++t.c_counters.allocations;
  t.c_counters.bytes_allocated += size;
  auto& process = allocgate::detail::process_counters();
  if (allocgate::detail::hook_flags().load(std::memory_order_relaxed) & allocgate::detail::kProcessScopeOpen) {
    process.c_allocations.fetch_add(1, std::memory_order_relaxed);
    process.c_bytes_allocated.fetch_add(size, std::memory_order_relaxed);
  }
}

void count_deallocation() noexcept {
  ThreadState& t = allocgate::detail::thread_state();
  if (t.pause_depth != 0) return;
  ++t.c_counters.deallocations;
  auto& process = allocgate::detail::process_counters();
  if (allocgate::detail::hook_flags().load(std::memory_order_relaxed) & allocgate::detail::kProcessScopeOpen) {
    process.c_deallocations.fetch_add(1, std::memory_order_relaxed);
  }
}

void* counted(void* p, std::size_t size) noexcept {
  if (p != nullptr) count_allocation(size);
  return p;
}

bool valid_alignment(std::size_t align) noexcept {
  return align != 0 && (align & (align - 1)) == 0 && align % sizeof(void*) == 0;
}

}  // namespace

extern "C" {

// operator new's route to the C allocator: uncounted here, operator new counts it.
void* allocgate_new_malloc(std::size_t size) noexcept {
  return call_next([&](const NextAllocator& n) { return n.malloc(size); });
}
void allocgate_new_free(void* p) noexcept {
  call_next([&](const NextAllocator& n) { return n.free(p); });
}
int allocgate_new_memalign(void** p, std::size_t align, std::size_t size) noexcept {
  *p = call_next([&](const NextAllocator& n) { return n.memalign(align, size); });
  return *p != nullptr ? 0 : ENOMEM;
}
extern const bool allocgate_c_allocations_linked = true;

void* malloc(std::size_t size) noexcept {
  return counted(call_next([&](const NextAllocator& n) { return n.malloc(size); }), size);
}

void* calloc(std::size_t count, std::size_t size) noexcept {
  void* p = call_next([&](const NextAllocator& n) { return n.calloc(count, size); });
  return counted(p, count * size);  // calloc returned null if the product overflowed
}

// A realloc is an allocation of the new size and, when it had a block, a free
// of the old one; realloc(p, 0) frees p and allocates nothing.
void* realloc(void* old, std::size_t size) noexcept {
  void* p = call_next([&](const NextAllocator& n) { return n.realloc(old, size); });
  if (old != nullptr && (p != nullptr || size == 0)) count_deallocation();
  if (size != 0 || old == nullptr) counted(p, size);
  return p;
}

void free(void* p) noexcept {
  if (p != nullptr) count_deallocation();
  call_next([&](const NextAllocator& n) { return n.free(p); });
}

int posix_memalign(void** out, std::size_t align, std::size_t size) noexcept {
  if (!valid_alignment(align)) return EINVAL;
  void* p = call_next([&](const NextAllocator& n) { return n.memalign(align, size); });
  if (p == nullptr) return ENOMEM;
  *out = counted(p, size);
  return 0;
}

void* aligned_alloc(std::size_t align, std::size_t size) noexcept {
  return counted(call_next([&](const NextAllocator& n) { return n.memalign(align, size); }), size);
}
void* memalign(std::size_t align, std::size_t size) noexcept {
  return counted(call_next([&](const NextAllocator& n) { return n.memalign(align, size); }), size);
}
void* valloc(std::size_t size) noexcept { return counted(__libc_valloc(size), size); }
void* pvalloc(std::size_t size) noexcept { return counted(__libc_pvalloc(size), size); }

}  // extern "C"
