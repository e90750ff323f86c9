// SPDX-License-Identifier: Apache-2.0
// allocation_is_the_tests (counting/thread_state.h): which side of a test
// framework's line an allocation made in a test's body falls on, told by
// its stack. The framework's runner calls the body through a boundary
// function; what the body allocates through the framework's own functions
// (an assertion's message, a section's tracker, a string maker) has one of
// them between the hook and that boundary.

#include <algorithm>

#include "capture/unwind.h"
#include "counting/thread_state.h"

namespace allocgate::detail {

namespace {

bool in(const CodeRange* ranges, std::size_t count, std::uintptr_t address) noexcept {
  const CodeRange* end = ranges + count;
  const CodeRange* after =
      std::upper_bound(ranges, end, address, [](std::uintptr_t a, const CodeRange& range) { return a < range.begin; });
  return after != ranges && address < after[-1].end;
}

}  // namespace

bool allocation_is_the_tests(FrameworkCode& code) noexcept {
  void* frames[kMaxUnwindFrames];
  std::uint64_t hash = 0;
  const int depth = unwind_stack(frames, kMaxUnwindFrames, code.rules, hash);
  for (int i = 0; i < depth; ++i) {
    // A return address is one past its call, which may be the function's
    // last byte: the call is the byte before it.
    const std::uintptr_t call = reinterpret_cast<std::uintptr_t>(frames[i]) - 1;
    if (in(code.boundaries, code.boundary_count, call)) return true;
    if (in(code.framework, code.framework_count, call)) return false;
  }
  return false;  // the body's stack was not met: the runner's own
}

}  // namespace allocgate::detail
