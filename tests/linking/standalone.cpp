// SPDX-License-Identifier: Apache-2.0
// A program built a way the GoogleTest tests are not (fully static, or
// without exceptions, which allocgate.h compiles under): the harness links
// and counts exactly. Exit 0 when it
// does, 1 with a line saying what differed.

#include <cstdio>
#include <memory>
#include <vector>

#include "allocgate/allocgate.h"

int main() {
  std::vector<int> v;
  const allocgate::AllocationStats growth = allocgate::measure([&] {
    for (int i = 0; i < 1000; ++i) v.push_back(i);
    asm volatile("" : : "g"(v.data()) : "memory");
  });
  // libstdc++ doubles the capacity: 1, 2, 4, ..., 1024 is 11 arrays.
  if (growth.allocations != 11 || growth.deallocations != 10) {
    std::printf("push_back growth: %llu allocations, %llu deallocations, expected 11 and 10\n",
                static_cast<unsigned long long>(growth.allocations),
                static_cast<unsigned long long>(growth.deallocations));
    return 1;
  }
  allocgate::AllocationScope scope;
  auto p = std::make_unique<long[]>(100);
  asm volatile("" : : "g"(p.get()) : "memory");  // or clang removes the pair
  p.reset();
  if (scope.stats().allocations != 1 || scope.stats().deallocations != 1 || scope.stats().bytes_allocated != 800) {
    std::printf("make_unique: %llu allocations of %llu bytes, %llu deallocations, expected 1 of 800, 1\n",
                static_cast<unsigned long long>(scope.stats().allocations),
                static_cast<unsigned long long>(scope.stats().bytes_allocated),
                static_cast<unsigned long long>(scope.stats().deallocations));
    return 1;
  }
  std::printf("exact\n");
  return 0;
}
