// SPDX-License-Identifier: Apache-2.0
// Code as a library shipped without debug information and stripped: its
// internal functions have neither a line nor a name, and a site in them reads
// as the library and the offset, the way heaptrack prints such a frame.

#include <string>
#include <vector>

namespace {

__attribute__((noinline)) std::size_t build(std::size_t n) {
  std::vector<std::string> strings;
  for (std::size_t i = 0; i < n; ++i) {
    strings.emplace_back(40, 'x');
    asm volatile("" : : "g"(strings.back().data()) : "memory");
  }
  return strings.size();
}

}  // namespace

extern "C" __attribute__((visibility("default"))) std::size_t allocgate_test_build_without_symbols(std::size_t n) {
  const std::size_t built = build(n);
  asm volatile("" : : "g"(built) : "memory");  // a call, not a jump: this frame stays on the stack
  return built;
}
