// SPDX-License-Identifier: Apache-2.0
// allocgate::c_allocations: the malloc family counted apart from operator
// new, and operator new's own malloc never counted twice.

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <sstream>
#include <string>

#include "allocgate/allocgate.h"
#include "allocgate/gtest.h"
#include "escape.h"

namespace {

using allocgate::measure;
using allocgate::test::escape;

TEST(CAllocations, MallocFamilyIsCountedApart) {
  const auto stats = measure([] {
    void* a = std::malloc(10);
    void* b = std::calloc(4, 8);
    void* c = nullptr;
    ASSERT_EQ(posix_memalign(&c, 64, 100), 0);
    void* d = std::aligned_alloc(32, 64);
    escape(a), escape(b), escape(c), escape(d);
    std::free(a), std::free(b), std::free(c), std::free(d);
  });
  ASSERT_TRUE(stats.c.has_value());
  EXPECT_EQ(stats.c->allocations, 4u);
  EXPECT_EQ(stats.c->bytes_allocated, 10u + 32 + 100 + 64);
  EXPECT_EQ(stats.c->deallocations, 4u);
  EXPECT_EQ(stats.allocations, 0u);  // none of it went through operator new
}

TEST(CAllocations, OperatorNewsOwnMallocIsNotASecondAllocation) {
  const auto stats = measure([] {
    std::string s(100, 'x');
    escape(s.data());
    int* p = new int[4];
    escape(p);
    delete[] p;
  });
  EXPECT_EQ(stats.allocations, 2u);
  ASSERT_TRUE(stats.c.has_value());
  EXPECT_EQ(stats.c->allocations, 0u);
  EXPECT_EQ(stats.c->deallocations, 0u);
}

TEST(CAllocations, ReallocIsAFreeAndAnAllocation) {
  const auto grow = measure([] {
    void* p = std::realloc(nullptr, 16);  // an allocation only
    escape(p);
    p = std::realloc(p, 4096);  // may move: a free and an allocation
    escape(p);
    void* none = std::realloc(p, 0);  // frees p; glibc returns null
    std::free(none);
  });
  ASSERT_TRUE(grow.c.has_value());
  EXPECT_EQ(grow.c->allocations, 2u);
  EXPECT_EQ(grow.c->deallocations, 2u);
  EXPECT_EQ(grow.c->bytes_allocated, 16u + 4096);
}

TEST(CAllocations, CLibrariesAllocateWhereOperatorNewSeesNothing) {
  const auto dup = measure([] {
    char* copy = strdup("a C string");
    escape(copy);
    std::free(copy);
  });
  EXPECT_EQ(dup.allocations, 0u);
  EXPECT_EQ(dup.c->allocations, 1u);
  EXPECT_EQ(dup.c->bytes_allocated, 11u);

  // The first gmtime_r of a process reads the time zone: 5 mallocs with
  // glibc 2.36, none of them through operator new. Each test runs in a
  // process of its own, so this is the first.
  const std::time_t now = 1'796'032'318;
  std::tm tm{};
  const auto first = measure([&] { gmtime_r(&now, &tm); });
  EXPECT_EQ(first.allocations, 0u);
  EXPECT_EQ(first.c->allocations, 5u);
  const auto second = measure([&] { gmtime_r(&now, &tm); });
  EXPECT_EQ(second.c->allocations, 0u);
}

TEST(CAllocations, PausedCallsAreNotCounted) {
  const auto stats = measure([] {
    allocgate::PauseCounting pause;
    void* p = std::malloc(8);
    escape(p);
    std::free(p);
  });
  EXPECT_EQ(stats.c->allocations, 0u);
  EXPECT_EQ(stats.c->deallocations, 0u);
}

TEST(CAllocations, PrintedApart) {
  const auto stats = measure([] {
    void* p = std::malloc(8);
    escape(p);  // g++ removes a malloc/free pair it can see
    std::free(p);
  });
  std::ostringstream out;
  out << stats;
  EXPECT_NE(out.str().find("; C: 1 malloc(s) of 8 bytes, 1 free(s)"), std::string::npos) << out.str();
}

}  // namespace
