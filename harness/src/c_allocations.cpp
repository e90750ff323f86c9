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

#include <cerrno>
#include <cstddef>
#include <cstdint>

#include "thread_state.h"

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

// operator new's route to glibc: uncounted here, operator new counts it.
void* allocgate_new_malloc(std::size_t size) noexcept { return __libc_malloc(size); }
void allocgate_new_free(void* p) noexcept { __libc_free(p); }
int allocgate_new_memalign(void** p, std::size_t align, std::size_t size) noexcept {
  *p = __libc_memalign(align, size);
  return *p != nullptr ? 0 : ENOMEM;
}
extern const bool allocgate_c_allocations_linked = true;

void* malloc(std::size_t size) noexcept { return counted(__libc_malloc(size), size); }

void* calloc(std::size_t count, std::size_t size) noexcept {
  void* p = __libc_calloc(count, size);
  return counted(p, count * size);  // calloc returned null if the product overflowed
}

// A realloc is an allocation of the new size and, when it had a block, a free
// of the old one; realloc(p, 0) frees p and allocates nothing.
void* realloc(void* old, std::size_t size) noexcept {
  void* p = __libc_realloc(old, size);
  if (old != nullptr && (p != nullptr || size == 0)) count_deallocation();
  if (size != 0 || old == nullptr) counted(p, size);
  return p;
}

void free(void* p) noexcept {
  if (p != nullptr) count_deallocation();
  __libc_free(p);
}

int posix_memalign(void** out, std::size_t align, std::size_t size) noexcept {
  if (!valid_alignment(align)) return EINVAL;
  void* p = __libc_memalign(align, size);
  if (p == nullptr) return ENOMEM;
  *out = counted(p, size);
  return 0;
}

void* aligned_alloc(std::size_t align, std::size_t size) noexcept { return counted(__libc_memalign(align, size), size); }
void* memalign(std::size_t align, std::size_t size) noexcept { return counted(__libc_memalign(align, size), size); }
void* valloc(std::size_t size) noexcept { return counted(__libc_valloc(size), size); }
void* pvalloc(std::size_t size) noexcept { return counted(__libc_pvalloc(size), size); }

}  // extern "C"
