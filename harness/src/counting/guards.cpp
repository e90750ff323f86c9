// SPDX-License-Identifier: Apache-2.0
// ForbidAllocations, PauseCounting and KeptAcrossTests.

#include "allocgate/guards.h"

#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>

#include "counting/block_tracker.h"
#include "counting/thread_state.h"

namespace allocgate {
namespace {

void print_and_abort(const ForbiddenAllocations& seen) {
  // fprintf to stderr does not allocate through operator new.
  std::fprintf(stderr,
               "allocgate: %" PRIu64 " allocation(s) of %" PRIu64
               " bytes in the scope of ForbidAllocations at %s:%u (the first of %" PRIu64 " bytes)\n",
               seen.count, seen.bytes, seen.guard_file, static_cast<unsigned>(seen.guard_line), seen.first_size);
  std::abort();
}

std::atomic<ForbiddenAllocationHandler> g_handler{&print_and_abort};

}  // namespace

ForbiddenAllocationHandler set_forbidden_allocation_handler(ForbiddenAllocationHandler handler) noexcept {
  return g_handler.exchange(handler != nullptr ? handler : &print_and_abort);
}

ForbidAllocations::ForbidAllocations(SourceLocation where) noexcept : where_(where) {
  detail::ThreadState& t = detail::thread_state();
  start_ = t.forbidden_allocations;
  ++t.forbid_depth;
  t.refresh_mode();
}

ForbidAllocations::~ForbidAllocations() {
  detail::ThreadState& t = detail::thread_state();
  --t.forbid_depth;
  t.refresh_mode();
  // Report what no inner guard has reported yet, and mark it reported.
  const std::uint64_t unreported = t.forbidden_allocations - t.forbidden_reported;
  if (unreported == 0) return;
  const ForbiddenAllocations seen{unreported, t.forbidden_bytes, t.first_forbidden_size, where_.file, where_.line};
  t.forbidden_reported = t.forbidden_allocations;
  t.forbidden_bytes = 0;
  g_handler.load()(seen);
}

std::uint64_t ForbidAllocations::violations() const noexcept {
  return detail::thread_state().forbidden_allocations - start_;
}

PauseCounting::PauseCounting() noexcept {
  detail::ThreadState& t = detail::thread_state();
  ++t.pause_depth;
  t.refresh_mode();
}

PauseCounting::~PauseCounting() { resume(); }

void PauseCounting::resume() noexcept {
  if (!active_) return;
  active_ = false;
  detail::ThreadState& t = detail::thread_state();
  --t.pause_depth;
  t.refresh_mode();
}

// The blocks allocated meanwhile are a static's: one-time initialisation.
KeptAcrossTests::KeptAcrossTests() noexcept { detail::begin_static_initialization(); }
KeptAcrossTests::~KeptAcrossTests() { detail::end_static_initialization(); }

}  // namespace allocgate
