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

#include "integrations/static_guard.h"

#include <dlfcn.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "counting/block_tracker.h"

namespace {

using Acquire = int (*)(std::uint64_t*);
using Release = void (*)(std::uint64_t*);

std::atomic<Acquire> g_acquire{nullptr};
std::atomic<Release> g_release{nullptr}, g_abort{nullptr};

// The runtime's function of that name: the next definition after the program's.
template <typename Function>
Function runtime_function(std::atomic<Function>& cache, const char* name) noexcept {
  Function f = cache.load(std::memory_order_acquire);
  if (f != nullptr) return f;
  f = reinterpret_cast<Function>(::dlsym(RTLD_NEXT, name));
  if (f == nullptr) {
    // A runtime linked statically (-static-libstdc++) has no next definition.
    std::fprintf(stderr,
                 "allocgate: the C++ runtime's %s was not found after allocgate::gtest's: link the C++ runtime as a "
                 "shared library (not -static-libstdc++)\n",
                 name);
    std::abort();
  }
  cache.store(f, std::memory_order_release);
  return f;
}

}  // namespace

namespace allocgate::testing::detail {

void resolve_static_guards() noexcept {
  runtime_function(g_acquire, "__cxa_guard_acquire");
  runtime_function(g_release, "__cxa_guard_release");
  runtime_function(g_abort, "__cxa_guard_abort");
}

}  // namespace allocgate::testing::detail

extern "C" int __cxa_guard_acquire(std::uint64_t* guard) {
  const int initialize = runtime_function(g_acquire, "__cxa_guard_acquire")(guard);
  if (initialize != 0) allocgate::detail::begin_static_initialization();
  return initialize;
}

extern "C" void __cxa_guard_release(std::uint64_t* guard) {
  allocgate::detail::end_static_initialization();
  runtime_function(g_release, "__cxa_guard_release")(guard);
}

extern "C" void __cxa_guard_abort(std::uint64_t* guard) {
  allocgate::detail::end_static_initialization();
  runtime_function(g_abort, "__cxa_guard_abort")(guard);
}
