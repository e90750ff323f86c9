// SPDX-License-Identifier: Apache-2.0
// measure() and allocs_per_run() with Go's semantics.

#include <stdexcept>
#include <string>
#include <thread>

#include "allocgate/allocgate.h"
#include "allocgate/gtest.h"
#include "escape.h"
#include "standard_library.h"

namespace {

using allocgate::allocs_per_run;
using allocgate::Threads;
using allocgate::test::escape;

TEST(AllocsPerRun, TheWarmUpCallIsNotCounted) {
  std::string cache;  // grows on the first call only, like a reused buffer
  const auto r = allocs_per_run(100, [&] {
    cache.resize(1000);
    escape(cache.data());
  });
  EXPECT_EQ(r.runs, 100);
  EXPECT_EQ(r.total.allocations, 0u);
  EXPECT_EQ(r.mean, 0.0);
  EXPECT_EQ(r.truncated, 0u);
}

TEST(AllocsPerRun, GivesTheExactMeanAndGosTruncatedValue) {
  int call = 0;
  // Allocates on even calls: call 0 is the warm-up, calls 1..3 are measured
  // and only call 2 allocates.
  const auto r = allocs_per_run(3, [&] {
    if (call++ % 2 == 0) {
      void* p = ::operator new(1);
      escape(p);
      ::operator delete(p);
    }
  });
  EXPECT_EQ(r.total.allocations, 1u);
  EXPECT_DOUBLE_EQ(r.mean, 1.0 / 3.0);
  EXPECT_EQ(r.truncated, 0u);  // Go's AllocsPerRun would report 0 here
}

TEST(AllocsPerRun, CountsEveryRun) {
  const auto r = allocs_per_run(50, [] {
    std::string s(100, 'x');
    escape(s.data());
  });
  EXPECT_EQ(r.total.allocations, 50u);
  EXPECT_EQ(r.mean, 1.0);
  EXPECT_EQ(r.truncated, 1u);
  EXPECT_EQ(r.total.bytes_allocated, 50u * allocgate::test::string_block_bytes(100));
}

TEST(AllocsPerRun, RejectsRunsBelowOne) {
  EXPECT_THROW(allocs_per_run(0, [] {}), std::invalid_argument);
  EXPECT_THROW(allocs_per_run(-5, [] {}), std::invalid_argument);
}

TEST(AllocsPerRun, AllThreadsCountsWorkersItStarts) {
  const auto r = allocs_per_run(
      4,
      [] {
        std::thread t([] {
          std::string s(64, 'w');
          escape(s.data());
        });
        t.join();
      },
      Threads::all);
  // The thread's state and the worker's string.
  EXPECT_EQ(r.mean, allocgate::test::kThreadStartAllocations + 1.0);
  const auto mine = allocs_per_run(4, [] {
    std::thread t([] {
      std::string s(64, 'w');
      escape(s.data());
    });
    t.join();
  });
  EXPECT_EQ(mine.mean, static_cast<double>(allocgate::test::kThreadStartAllocations));
}

}  // namespace
