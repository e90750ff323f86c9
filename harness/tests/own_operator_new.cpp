// SPDX-License-Identifier: Apache-2.0
// A program that replaces operator new itself and links the harness: the
// link must fail, naming the clash, rather than build a program whose counts
// silently read 0 (harness/tests/CMakeLists.txt builds this expecting
// "multiple definition of operator new").

#include <cstdlib>
#include <new>

#include "allocgate/allocgate.h"

void* operator new(std::size_t n) {
  if (void* p = std::malloc(n)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }

int main() {
  allocgate::AllocationScope scope;
  delete new int(1);
  return scope.stats().allocations == 1 ? 0 : 1;
}
