// SPDX-License-Identifier: Apache-2.0
// allocgate::harness alone: no GoogleTest, no Google Benchmark, no libdw. Exits
// non-zero when a count is off.

#include <allocgate/allocgate.h>
#include <allocgate/sites.h>

#include <cstdio>
#include <string>
#include <vector>

namespace {

int failures = 0;

void expect(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "FAILED: %s\n", what);
    ++failures;
  }
}

}  // namespace

int main() {
  std::vector<int> v;
  const allocgate::AllocationStats grow = allocgate::measure([&] {
    for (int i = 0; i < 1000; ++i) v.push_back(i);
  });
  expect(grow.allocations == 11 && grow.deallocations == 10, "1000 push_backs reallocate 11 times");

  const auto per_run = allocgate::allocs_per_run(10, [] {
    std::string t(100, 't');
    asm volatile("" : : "g"(t.data()) : "memory");
  });
  expect(per_run.mean == 1.0, "one string per run");

  const auto sweep = allocgate::fail_each_allocation([] {
    std::vector<std::string> strings;
    for (int i = 0; i < 3; ++i) strings.emplace_back(40, 'x');
    asm volatile("" : : "g"(strings.data()) : "memory");
  });
  expect(sweep.allocation_points == 6, "3 strings and 3 vector buffers: 6 failure points");

  {
    allocgate::CaptureSites capture;  // records without symbolizing: no libdw needed
    std::string s(64, 's');
    asm volatile("" : : "g"(s.data()) : "memory");
  }
  std::printf("harness only: %s\n", failures == 0 ? "exact" : "WRONG");
  return failures == 0 ? 0 : 1;
}
