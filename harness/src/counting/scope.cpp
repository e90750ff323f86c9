// SPDX-License-Identifier: Apache-2.0
// Thread and process scopes, and the check that the hook is live.

#include "allocgate/scope.h"

#include <pthread.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <ostream>
#include <stdexcept>
#include <string>

#include "allocgate/guards.h"
#include "allocgate/measure.h"
#include "counting/thread_state.h"

namespace allocgate {
namespace {

bool c_allocations_linked() noexcept {
  return detail::hook_flags().load(std::memory_order_relaxed) & detail::kCAllocationsLinked;
}

AllocationStats snapshot(const detail::ThreadState& t) noexcept {
  const detail::ThreadCounters& c = t.counters;
  AllocationStats s{.allocations = c.allocations,
                    .deallocations = c.deallocations,
                    .bytes_allocated = c.bytes_allocated,
                    .bytes_freed = c.bytes_freed,
                    .net_bytes = c.live_bytes(),
                    .unsized_deallocations = c.unsized_deallocations,
                    .c = std::nullopt};
  if (c_allocations_linked()) {
    s.c = CAllocationStats{t.c_counters.allocations, t.c_counters.deallocations, t.c_counters.bytes_allocated};
  }
  return s;
}

AllocationStats snapshot(const detail::ProcessCounters& c) noexcept {
  constexpr auto relaxed = std::memory_order_relaxed;
  const auto sum = [&](const std::atomic<std::uint64_t> detail::ProcessTally::*counter) {
    return (c.owned.*counter).load(relaxed) + (c.shared.*counter).load(relaxed);
  };
  AllocationStats s{.allocations = sum(&detail::ProcessTally::allocations),
                    .deallocations = sum(&detail::ProcessTally::deallocations),
                    .bytes_allocated = sum(&detail::ProcessTally::bytes_allocated),
                    .bytes_freed = sum(&detail::ProcessTally::bytes_freed),
                    .net_bytes = c.live_bytes(),
                    .unsized_deallocations = sum(&detail::ProcessTally::unsized_deallocations),
                    .c = std::nullopt};
  if (c_allocations_linked()) {
    s.c = CAllocationStats{c.c_allocations.load(relaxed), c.c_deallocations.load(relaxed),
                           c.c_bytes_allocated.load(relaxed)};
  }
  return s;
}

AllocationStats difference(const AllocationStats& now, const AllocationStats& start, std::int64_t peak,
                           std::int64_t start_live) noexcept {
  const std::int64_t peak_above_start = peak - start_live;
  AllocationStats d{.allocations = now.allocations - start.allocations,
                    .deallocations = now.deallocations - start.deallocations,
                    .bytes_allocated = now.bytes_allocated - start.bytes_allocated,
                    .bytes_freed = now.bytes_freed - start.bytes_freed,
                    .net_bytes = now.net_bytes - start.net_bytes,
                    .peak_live_bytes = peak_above_start > 0 ? static_cast<std::uint64_t>(peak_above_start) : 0,
                    .unsized_deallocations = now.unsized_deallocations - start.unsized_deallocations,
                    .c = std::nullopt};
  if (now.c && start.c) {
    d.c = CAllocationStats{now.c->allocations - start.c->allocations, now.c->deallocations - start.c->deallocations,
                           now.c->bytes_allocated - start.c->bytes_allocated};
  }
  return d;
}

// Opening and closing process-wide scopes (rare) take this lock, so that the
// count of open scopes and the hook's flag never disagree.
std::mutex g_process_scopes;

// fork() copies the lock as it is: held by a thread the child does not have,
// it would hang the child's first scope. The handlers hold it across fork(),
// so that both sides start with it free. Registered while the program starts,
// single-threaded: registering on first use could itself race a fork.
[[maybe_unused]] const int g_fork_handlers = pthread_atfork(
    [] { g_process_scopes.lock(); }, [] { g_process_scopes.unlock(); }, [] { g_process_scopes.unlock(); });

// Calls operator new through a volatile pointer so that no compiler can
// elide the pair (clang removes new/delete pairs it can see).
void* (*volatile g_probe_new)(std::size_t) = &::operator new;
void (*volatile g_probe_delete)(void*) = &::operator delete;

std::atomic<bool> g_hook_verified{false};

}  // namespace

namespace {

// valgrind preloads its vgpreload_*.so files and, by default, replaces the
// program's own operator new with its own, so the hook never runs.
bool under_valgrind() noexcept {
  const char* preload = std::getenv("LD_PRELOAD");
  return preload != nullptr && std::strstr(preload, "vgpreload") != nullptr;
}

const char* hook_not_linked_message() noexcept {
  if (under_valgrind()) {
    return "allocgate: operator new does not reach the counting hook, so every count would "
           "read 0: valgrind replaces the program's operator new with its own. Run valgrind with "
           "--soname-synonyms=somalloc=nouserintercepts to keep allocgate's hook.";
  }
  return "allocgate: operator new does not reach the counting hook, so every count would "
         "read 0. Link allocgate::harness into the executable itself (not only into a "
         "shared library it loads), and do not link another operator new replacement.";
}

}  // namespace

HookNotLinked::HookNotLinked() : std::logic_error(hook_not_linked_message()) {}

void require_hook() {
  if (g_hook_verified.load(std::memory_order_acquire)) return;
  // Allocate while paused: the hook records the allocation as uncounted, so
  // the probe leaves every counter the user can see unchanged.
  detail::ThreadState& t = detail::thread_state();
  PauseCounting pause;
  const std::uint64_t before = t.uncounted_allocations;
  g_probe_delete(g_probe_new(1));
  if (t.uncounted_allocations == before) throw HookNotLinked();
  g_hook_verified.store(true, std::memory_order_release);
}

namespace detail {
void throw_invalid_runs(int runs) {
  throw std::invalid_argument("allocgate::allocs_per_run: runs must be > 0, not " + std::to_string(runs));
}
}  // namespace detail

// --- AllocationScope --------------------------------------------------------

AllocationScope::AllocationScope() {
  require_hook();
  detail::ThreadCounters& c = detail::thread_state().counters;
  start_ = snapshot(detail::thread_state());
  start_live_ = c.live_bytes();
  // Restart the high-water mark at the current level so that this scope's
  // peak is its own; the destructor restores the outer one.
  outer_peak_ = c.peak_live_bytes;
  c.peak_live_bytes = c.live_bytes();
}

AllocationScope::~AllocationScope() {
  detail::ThreadCounters& c = detail::thread_state().counters;
  if (outer_peak_ > c.peak_live_bytes) c.peak_live_bytes = outer_peak_;
}

AllocationStats AllocationScope::stats() const noexcept {
  const detail::ThreadState& t = detail::thread_state();
  return difference(snapshot(t), start_, t.counters.peak_live_bytes, start_live_);
}

// --- ProcessAllocationScope -------------------------------------------------

ProcessAllocationScope::ProcessAllocationScope() {
  require_hook();
  detail::ProcessCounters& c = detail::process_counters();
  {
    std::lock_guard lock(g_process_scopes);
    if (c.open_scopes++ == 0) {
      // The first thread to open one owns the share for the process's life:
      // handed on, a former owner still inside the hook, having read the
      // flag before the scopes closed, could write it beside the new one.
      // (A thread that reuses an exited owner's storage is the one writer.)
      if (c.owner.load(std::memory_order_relaxed) == nullptr) {
        c.owner.store(&detail::thread_state(), std::memory_order_relaxed);
      }
      detail::hook_flags().fetch_or(detail::kProcessScopeOpen, std::memory_order_seq_cst);
    }
  }
  start_ = snapshot(c);
  start_live_ = start_.net_bytes;
  outer_peak_ = c.peak_live_bytes.exchange(start_live_, std::memory_order_relaxed);
}

ProcessAllocationScope::~ProcessAllocationScope() {
  detail::ProcessCounters& c = detail::process_counters();
  std::int64_t seen = c.peak_live_bytes.load(std::memory_order_relaxed);
  while (outer_peak_ > seen && !c.peak_live_bytes.compare_exchange_weak(seen, outer_peak_, std::memory_order_relaxed)) {
  }
  std::lock_guard lock(g_process_scopes);
  if (--c.open_scopes == 0) {
    detail::hook_flags().fetch_and(~static_cast<std::uint32_t>(detail::kProcessScopeOpen), std::memory_order_seq_cst);
  }
}

AllocationStats ProcessAllocationScope::stats() const noexcept {
  const detail::ProcessCounters& c = detail::process_counters();
  return difference(snapshot(c), start_, c.peak_live_bytes.load(std::memory_order_relaxed), start_live_);
}

SizeTracking size_tracking() noexcept {
  return detail::hook_flags().load(std::memory_order_relaxed) & detail::kBlockHeaders ? SizeTracking::block_headers
                                                                                      : SizeTracking::sized_delete;
}

// --- printing ---------------------------------------------------------------

std::ostream& operator<<(std::ostream& out, const AllocationStats& s) {
  PauseCounting pause;  // the stream may allocate; that is not the user's
  out << s.allocations << (s.allocations == 1 ? " allocation, " : " allocations, ") << s.bytes_allocated
      << " bytes requested; " << s.deallocations << " freed (" << s.bytes_freed << " bytes); net " << s.net_bytes
      << " bytes, peak live " << s.peak_live_bytes << " bytes";
  if (!s.sizes_known()) {
    out << " (upper bounds: " << s.unsized_deallocations << " unsized deallocation"
        << (s.unsized_deallocations == 1 ? "" : "s") << " of unknown size)";
  }
  if (s.c) {
    out << "; C: " << s.c->allocations << " malloc(s) of " << s.c->bytes_allocated << " bytes, " << s.c->deallocations
        << " free(s)";
  }
  return out;
}

}  // namespace allocgate
