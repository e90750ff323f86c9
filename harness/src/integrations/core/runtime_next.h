// SPDX-License-Identifier: Apache-2.0
// The C++ runtime's own definition of a function allocgate::gtest defines in
// the program (static_guard.cpp's __cxa_guard_*, gtest_wrapped.cpp's
// __cxa_begin_catch): the next one after the program's, libstdc++'s or
// libc++abi's. A program's definition is the one every library binds to,
// the program's code and a shared libgtest.so alike, which ld's --wrap,
// reaching only the program's own calls, is not.
#pragma once

#include <dlfcn.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>

namespace allocgate::testing::detail {

/// The runtime's `name`, looked up once and kept in `cache`. A runtime
/// linked statically (-static-libstdc++) has no next definition: said, and
/// the program stops, as it could not work.
template <typename Function>
Function runtime_next(std::atomic<Function>& cache, const char* name) noexcept {
  Function f = cache.load(std::memory_order_acquire);
  if (f != nullptr) return f;
  f = reinterpret_cast<Function>(::dlsym(RTLD_NEXT, name));
  if (f == nullptr) {
    std::fprintf(stderr,
                 "allocgate: the C++ runtime's %s was not found after allocgate::gtest's: link the C++ runtime as a "
                 "shared library (not -static-libstdc++)\n",
                 name);
    std::abort();
  }
  cache.store(f, std::memory_order_release);
  return f;
}

}  // namespace allocgate::testing::detail
