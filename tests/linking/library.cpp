// SPDX-License-Identifier: Apache-2.0
// Code in a shared library, or a plugin loaded with dlopen: its allocations go
// through the executable's operator new like any other code's.

#include <string>
#include <vector>

extern "C" __attribute__((visibility("default"))) std::size_t allocgate_test_build_strings(std::size_t n) {
  std::vector<std::string> strings;
  strings.reserve(n);  // one allocation
  for (std::size_t i = 0; i < n; ++i) {
    strings.emplace_back(40, 'x');  // n more: past the short-string buffer
    // Escapes, or clang removes allocations it can see freed unread.
    asm volatile("" : : "g"(strings.back().data()) : "memory");
  }
  asm volatile("" : : "g"(strings.data()) : "memory");
  return strings.size();
}
