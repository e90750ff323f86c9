// SPDX-License-Identifier: Apache-2.0
#include <allocgate/allocgate.h>
#include <allocgate/gtest.h>

#include <string>
#include <vector>

TEST(Consumer, CountsAreExact) {
  std::vector<int> v;
  EXPECT_ALLOCATIONS_EQ(for (int i = 0; i < 1000; ++i) v.push_back(i), 11);
  std::string s;
  EXPECT_ALLOCATIONS_EQ(s.assign(16, 'x'), 1);
  const auto r = allocgate::allocs_per_run(10, [] {
    std::string t(100, 't');
    asm volatile("" : : "g"(t.data()) : "memory");
  });
  EXPECT_EQ(r.mean, 1.0);
}

// Freed sizes: a program counted by allocgate::gtest runs with block headers,
// so the size of an unsized delete is known; consumer_block_headers_test
// links allocgate::block_headers as well, which changes nothing.
TEST(Consumer, FreedSizesAreKnownInACountedTest) {
  const auto stats = allocgate::measure([] {
    std::vector<int> sized(100);                        // std::allocator frees with the size
    asm volatile("" : : "g"(sized.data()) : "memory");  // or clang -O2 elides it
    char* unsized = new char[10];
    asm volatile("" : : "g"(unsized) : "memory");
    delete[] unsized;  // a trivially destructible array: no size
  });
  EXPECT_EQ(stats.allocations, 2u);
  EXPECT_EQ(stats.deallocations, 2u);
  EXPECT_EQ(stats.unsized_deallocations, 0u);
  EXPECT_EQ(stats.bytes_freed, 410u);
  EXPECT_EQ(stats.net_bytes, 0);
  EXPECT_EQ(allocgate::size_tracking(), allocgate::SizeTracking::block_headers);
}

// Every public header at the consumer's standard (C++17 or C++20): the
// assertions, the guards, failure injection and the symbolized sites.
TEST(Consumer, EveryPartOfTheApi) {
  std::string reused(100, 'r');
  EXPECT_NO_ALLOCATIONS(reused.assign(50, 'x'));
  EXPECT_ALLOCATED_BYTES_LE(std::string s(200, 'b'); asm volatile("" : : "g"(s.data()) : "memory"), 201);
  {
    allocgate::ForbidAllocations forbid;
    reused[0] = 'y';
  }
  {
    allocgate::InjectAllocationFailure fail(0);
    EXPECT_THROW(std::string(100, 'f'), std::bad_alloc);
  }
  allocgate::CaptureSites capture;
  std::string captured(300, 'c');
  asm volatile("" : : "g"(captured.data()) : "memory");
  capture.stop();
  const allocgate::SiteProfile profile = capture.profile();
  ASSERT_EQ(profile.allocations, 1u);
  ASSERT_FALSE(profile.sites.empty());
  EXPECT_NE(profile.sites[0].where.file.find("consumer_test.cpp"), std::string::npos) << profile.top(3);
}
