// Thread and process scopes: nesting, other threads, exceptions, live and peak.

#include <atomic>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <vector>

#include "allocgate/allocgate.h"
#include "allocgate/gtest.h"
#include "escape.h"

namespace {

using allocgate::AllocationScope;
using allocgate::ProcessAllocationScope;
using allocgate::test::escape;

void* allocate(std::size_t n) {
  void* p = ::operator new(n);
  escape(p);
  return p;
}

TEST(AllocationScope, NestedScopesEachSeeTheirOwnAndTheInnerOnes) {
  AllocationScope outer;
  void* a = allocate(10);
  {
    AllocationScope inner;
    void* b = allocate(20);
    EXPECT_EQ(inner.stats().allocations, 1u);
    EXPECT_EQ(inner.stats().bytes_allocated, 20u);
    ::operator delete(b);
  }
  EXPECT_EQ(outer.stats().allocations, 2u);
  EXPECT_EQ(outer.stats().bytes_allocated, 30u);
  EXPECT_EQ(outer.stats().deallocations, 1u);
  ::operator delete(a);
}

TEST(AllocationScope, PeakIsPerScopeAndTheOuterPeakSurvivesAnInnerScope) {
  AllocationScope outer;
  void* big = allocate(1000);
  ::operator delete(big);
  {
    AllocationScope inner;
    void* small = allocate(100);
    ::operator delete(small);
    EXPECT_EQ(inner.stats().peak_live_bytes, 100u);
  }
  EXPECT_EQ(outer.stats().peak_live_bytes, 1000u);
  EXPECT_EQ(outer.stats().net_bytes, 0);
}

TEST(AllocationScope, LiveAndPeakBytesFollowAllocationsAndFrees) {
  AllocationScope scope;
  void* a = allocate(100);
  void* b = allocate(200);
  ::operator delete(a);
  void* c = allocate(50);
  EXPECT_EQ(scope.stats().net_bytes, 250);
  EXPECT_EQ(scope.stats().peak_live_bytes, 300u);
  ::operator delete(b);
  ::operator delete(c);
  EXPECT_EQ(scope.stats().net_bytes, 0);
  EXPECT_EQ(scope.stats().peak_live_bytes, 300u);
}

TEST(AllocationScope, FreeingOlderBlocksMakesNetBytesNegative) {
  void* before = allocate(64);
  AllocationScope scope;
  ::operator delete(before);
  EXPECT_EQ(scope.stats().net_bytes, -64);
  EXPECT_EQ(scope.stats().peak_live_bytes, 0u);
  EXPECT_EQ(scope.stats().deallocations, 1u);
}

TEST(AllocationScope, AnExceptionUnwindingThroughAScopeLeavesCountsRight) {
  AllocationScope outer;
  try {
    AllocationScope inner;
    void* p = allocate(8);
    ::operator delete(p);
    throw std::runtime_error("unwind");  // the exception object is malloc'd, not new'd
  } catch (const std::runtime_error&) {
  }
  // The runtime_error's message string is allocated with operator new.
  const auto stats = outer.stats();
  EXPECT_GE(stats.allocations, 1u);
  EXPECT_EQ(stats.net_bytes, 0);
  {
    AllocationScope after;
    void* p = allocate(8);
    ::operator delete(p);
    EXPECT_EQ(after.stats().allocations, 1u);
    EXPECT_EQ(after.stats().peak_live_bytes, 8u);
  }
}

TEST(AllocationScope, AnotherThreadsAllocationsAreNotSeen) {
  AllocationScope scope;
  std::thread worker;  // constructing the thread allocates its state here
  const auto spawn = allocgate::measure([&] {
    worker = std::thread([] {
      for (int i = 0; i < 100; ++i) ::operator delete(allocate(16));
    });
  });
  worker.join();
  EXPECT_EQ(spawn.allocations, 1u);  // std::thread's state, nothing of the worker
  EXPECT_EQ(scope.stats().allocations, 1u);
}

TEST(ProcessAllocationScope, SeesEveryThreadIncludingThreadsStartedInside) {
  ProcessAllocationScope process;
  AllocationScope mine;
  std::thread worker([] {
    for (int i = 0; i < 100; ++i) ::operator delete(allocate(16));
  });
  worker.join();
  EXPECT_EQ(mine.stats().allocations, 1u);              // the thread's state
  EXPECT_EQ(process.stats().allocations, 101u);         // and the worker's
  EXPECT_EQ(process.stats().bytes_allocated, mine.stats().bytes_allocated + 1600u);
  EXPECT_EQ(process.stats().net_bytes, 0);              // the worker freed its state
}

TEST(ProcessAllocationScope, ManyThreadsAllocatingAtOnceGiveExactTotals) {
  constexpr int kThreads = 8;
  constexpr int kPerThread = 5000;
  std::atomic<bool> go{false};
  std::atomic<bool> may_exit{false};
  std::atomic<int> done{0};
  std::vector<allocgate::AllocationStats> per_thread(kThreads);
  std::vector<std::thread> workers;
  for (int t = 0; t < kThreads; ++t) {
    workers.emplace_back([&, t] {
      while (!go.load()) std::this_thread::yield();
      AllocationScope scope;
      for (int i = 0; i < kPerThread; ++i) {
        void* p = allocate(static_cast<std::size_t>(t + 1));
        ::operator delete(p);
      }
      per_thread[t] = scope.stats();
      done.fetch_add(1);
      // A thread frees its std::thread state as it exits: not inside the scope.
      while (!may_exit.load()) std::this_thread::yield();
    });
  }
  allocgate::AllocationStats total;
  {
    ProcessAllocationScope process;
    go.store(true);
    while (done.load() != kThreads) std::this_thread::yield();
    total = process.stats();
  }
  may_exit.store(true);
  for (auto& w : workers) w.join();
  std::uint64_t expected_bytes = 0;
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_EQ(per_thread[t].allocations, static_cast<std::uint64_t>(kPerThread));
    EXPECT_EQ(per_thread[t].bytes_allocated, static_cast<std::uint64_t>(kPerThread) * (t + 1));
    expected_bytes += static_cast<std::uint64_t>(kPerThread) * (t + 1);
  }
  EXPECT_EQ(total.allocations, static_cast<std::uint64_t>(kThreads) * kPerThread);
  EXPECT_EQ(total.deallocations, static_cast<std::uint64_t>(kThreads) * kPerThread);
  EXPECT_EQ(total.bytes_allocated, expected_bytes);
  EXPECT_EQ(total.net_bytes, 0);
  EXPECT_LE(total.peak_live_bytes, static_cast<std::uint64_t>(kThreads) * kThreads);
}

TEST(Stats, PrintOnOneLine) {
  allocgate::AllocationStats s{2, 1, 48, 16, 32, 40, std::nullopt};
  std::ostringstream out;
  out << s;
  EXPECT_EQ(out.str(),
            "2 allocations, 48 bytes requested; 1 freed (16 bytes); net 32 bytes, peak live 40 bytes");
}

}  // namespace
