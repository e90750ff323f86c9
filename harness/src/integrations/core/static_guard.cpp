// SPDX-License-Identifier: Apache-2.0
// The C++ runtime's guard around a function-local static's initialization
// (the Itanium ABI's __cxa_guard_acquire, _release and _abort), defined in
// the program so that every caller reaches it first: the program's own code,
// and the shared libraries it loads, whose calls bind to the program's
// definition before the runtime's. (ld's --wrap reached the program's own
// calls only: a static built inside libsimdjson.so was a test's leak.) Each
// marks the thread as building a static while the runtime's own guard (the
// next definition, libstdc++'s or libc++abi's) does the work: what the
// static allocates meanwhile is counted but kept for the program's life, so
// no leak.

#include "integrations/core/static_guard.h"

#include <atomic>
#include <cstdint>

#include "counting/block_tracker.h"
#include "integrations/core/runtime_next.h"

namespace {

using allocgate::testing::detail::runtime_next;
using Acquire = int (*)(std::uint64_t*);
using Release = void (*)(std::uint64_t*);

std::atomic<Acquire> g_acquire{nullptr};
std::atomic<Release> g_release{nullptr}, g_abort{nullptr};

}  // namespace

namespace allocgate::testing::detail {

void resolve_static_guards() noexcept {
  runtime_next(g_acquire, "__cxa_guard_acquire");
  runtime_next(g_release, "__cxa_guard_release");
  runtime_next(g_abort, "__cxa_guard_abort");
}

}  // namespace allocgate::testing::detail

extern "C" int __cxa_guard_acquire(std::uint64_t* guard) {
  const int initialize = runtime_next(g_acquire, "__cxa_guard_acquire")(guard);
  if (initialize != 0) allocgate::detail::begin_static_initialization();
  return initialize;
}

extern "C" void __cxa_guard_release(std::uint64_t* guard) {
  allocgate::detail::end_static_initialization();
  runtime_next(g_release, "__cxa_guard_release")(guard);
}

extern "C" void __cxa_guard_abort(std::uint64_t* guard) {
  allocgate::detail::end_static_initialization();
  runtime_next(g_abort, "__cxa_guard_abort")(guard);
}
