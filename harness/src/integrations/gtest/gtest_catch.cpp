// SPDX-License-Identifier: Apache-2.0
// Every catch in a program whose tests allocgate::gtest counts: its own
// code's and GoogleTest's, whether GoogleTest is a static library or a
// shared one. __cxa_begin_catch is defined here, in the program, so that a
// shared libgtest.so binds to it too (ld's --wrap reaches only the
// program's own calls); the C++ runtime's, the next definition, does the
// catching. When a test throws, GoogleTest's catch comes last before the
// failure it records: what it allocates from there to that record is
// GoogleTest's (gtest_counting.cpp, exception_caught).

#include <atomic>

#include "integrations/core/runtime_next.h"
#include "integrations/gtest/gtest_catch.h"

namespace {

std::atomic<void* (*)(void*) noexcept> g_runtime_begin_catch{nullptr};

}  // namespace

namespace allocgate::testing::detail {

void resolve_begin_catch() noexcept { runtime_next(g_runtime_begin_catch, "__cxa_begin_catch"); }

}  // namespace allocgate::testing::detail

extern "C" void* __cxa_begin_catch(void* exception) noexcept {
  namespace ag = allocgate::testing::detail;
  void* const object = ag::runtime_next(g_runtime_begin_catch, "__cxa_begin_catch")(exception);
  ag::exception_caught(object, __builtin_return_address(0));
  return object;
}
