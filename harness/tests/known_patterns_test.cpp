// SPDX-License-Identifier: Apache-2.0
// Allocation patterns whose counts are known exactly (g++ 12 / libstdc++ 12 and
// clang 14 on libstdc++), asserted exactly.

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "allocgate/allocgate.h"
#include "allocgate/gtest.h"
#include "block_headers.h"
#include "escape.h"
#include "standard_library.h"

namespace {

using allocgate::AllocationScope;
using allocgate::measure;
using allocgate::test::escape;

TEST(KnownPatterns, ScalarNewCountsEachCallAndItsSize) {
  constexpr int kCount = 100;
  std::array<int*, kCount> ptrs{};
  const auto made = measure([&] {
    for (int*& p : ptrs) escape(p = new int(7));
  });
  EXPECT_EQ(made.allocations, 100u);
  EXPECT_EQ(made.bytes_allocated, 100u * sizeof(int));
  EXPECT_EQ(made.deallocations, 0u);

  const auto freed = measure([&] {
    for (int* p : ptrs) delete p;  // sized delete under -fsized-deallocation
  });
  EXPECT_EQ(freed.allocations, 0u);
  EXPECT_EQ(freed.deallocations, 100u);
  EXPECT_EQ(freed.bytes_freed, 100u * sizeof(int));
  EXPECT_EQ(freed.net_bytes, -static_cast<std::int64_t>(100 * sizeof(int)));
}

TEST(KnownPatterns, ArrayNewCountsTheCookieOfNonTrivialElements) {
  const auto trivial = measure([] {
    int* a = new int[10];
    escape(a);
    delete[] a;
  });
  EXPECT_EQ(trivial.allocations, 1u);
  EXPECT_EQ(trivial.bytes_allocated, 10 * sizeof(int));
  EXPECT_EQ(trivial.deallocations, 1u);

  // An array of a type with a destructor stores its length in a cookie in
  // front of the elements: operator new[] is asked for the elements plus it.
  const auto with_cookie = measure([] {
    auto* a = new std::string[3];
    escape(a);
    delete[] a;
  });
  EXPECT_EQ(with_cookie.allocations, 1u);
  EXPECT_EQ(with_cookie.bytes_allocated, 3 * sizeof(std::string) + sizeof(std::size_t));
  EXPECT_EQ(with_cookie.net_bytes, 0);
}

TEST(KnownPatterns, NothrowNewIsCounted) {
  const auto stats = measure([] {
    int* p = new (std::nothrow) int(1);
    escape(p);
    delete p;
    int* a = new (std::nothrow) int[4];
    escape(a);
    delete[] a;
  });
  EXPECT_EQ(stats.allocations, 2u);
  EXPECT_EQ(stats.bytes_allocated, 5 * sizeof(int));
  EXPECT_EQ(stats.deallocations, 2u);
}

struct alignas(64) CacheLine {
  char bytes[64];
};
struct alignas(256) Page {
  char bytes[256];
};

TEST(KnownPatterns, OverAlignedTypesUseTheAlignedFormsAndGetTheirAlignment) {
  CacheLine* line = nullptr;
  Page* pages = nullptr;
  const auto made = measure([&] {
    escape(line = new CacheLine);
    escape(pages = new Page[3]);
  });
  EXPECT_EQ(made.allocations, 2u);
  EXPECT_EQ(made.bytes_allocated, 64u + 3 * 256u);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(line) % 64, 0u);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(pages) % 256, 0u);
  const auto freed = measure([&] {
    delete line;     // sized: g++ passes 64, clang with -fsized-deallocation
    delete[] pages;  // a trivially destructible array: no cookie, no size
  });
  EXPECT_EQ(freed.deallocations, 2u);
  if (allocgate::test::block_headers()) {
    EXPECT_EQ(freed.bytes_freed, 64u + 3 * 256u);
    EXPECT_TRUE(freed.sizes_known());
  } else {
    EXPECT_EQ(freed.bytes_freed, 64u);
    EXPECT_EQ(freed.unsized_deallocations, 1u);
  }
}

TEST(KnownPatterns, EveryDeleteFormFreesWithTheAllocatedSize) {
  constexpr std::align_val_t k32{32};
  int pairs = 0;
  const auto stats = measure([&] {
    ::operator delete(::operator new(24));
    ::operator delete[](::operator new[](24));
    ::operator delete(::operator new(24, k32), k32);
    ::operator delete[](::operator new[](24, k32), k32);
    ::operator delete(::operator new(24, std::nothrow), std::nothrow);
    ::operator delete[](::operator new[](24, std::nothrow), std::nothrow);
    ::operator delete(::operator new(24, k32, std::nothrow), k32, std::nothrow);
    ::operator delete[](::operator new[](24, k32, std::nothrow), k32, std::nothrow);
    pairs = 8;
#if __cpp_sized_deallocation  // clang 14 declares the sized forms only with -fsized-deallocation
    ::operator delete(::operator new(24), 24);
    ::operator delete[](::operator new[](24), 24);
    ::operator delete(::operator new(24, k32), 24, k32);
    ::operator delete[](::operator new[](24, k32), 24, k32);
    pairs += 4;
#endif
  });
  EXPECT_EQ(stats.allocations, static_cast<std::uint64_t>(pairs));
  EXPECT_EQ(stats.deallocations, static_cast<std::uint64_t>(pairs));
  EXPECT_EQ(stats.bytes_allocated, 24u * pairs);
  if (allocgate::test::block_headers()) {
    EXPECT_EQ(stats.bytes_freed, 24u * pairs);
    EXPECT_EQ(stats.net_bytes, 0);
    EXPECT_EQ(stats.peak_live_bytes, 24u);
    EXPECT_EQ(stats.unsized_deallocations, 0u);
  } else {
    // The first eight forms pass no size: their bytes stay in net and peak,
    // which are then upper bounds.
    const int sized = pairs - 8;
    EXPECT_EQ(stats.unsized_deallocations, 8u);
    EXPECT_EQ(stats.bytes_freed, 24u * sized);
    EXPECT_EQ(stats.net_bytes, 24 * 8);
    EXPECT_EQ(stats.peak_live_bytes, 24u * (8 + (sized > 0 ? 1 : 0)));
  }
}

TEST(KnownPatterns, ShortStringsStayInTheSmallBuffer) {
  // 15 characters with libstdc++, 22 with libc++ (standard_library.h).
  using allocgate::test::kShortStringCapacity;
  std::string s;
  EXPECT_NO_ALLOCATIONS(s.assign(kShortStringCapacity, 'x'));
  escape(s.data());
  std::string t;
  EXPECT_ALLOCATIONS_EQ(t.assign(kShortStringCapacity + 1, 'x'), 1);
  escape(t.data());
  const auto stats = measure([] {
    std::string u(kShortStringCapacity + 1, 'y');
    escape(u.data());
  });
  // The characters and the terminator: 17 bytes with libstdc++, 32 with libc++.
  EXPECT_EQ(stats.bytes_allocated, allocgate::test::string_block_bytes(kShortStringCapacity + 1));
  EXPECT_EQ(stats.deallocations, 1u);
}

TEST(KnownPatterns, VectorGrowthDoublesFromOne) {
  std::vector<int> v;
  // 1, 2, 4, ..., 1024 elements: 11 allocations, 2047 ints requested.
  const auto stats = measure([&] {
    for (int i = 0; i < 1000; ++i) v.push_back(i);
  });
  escape(v.data());
  EXPECT_EQ(stats.allocations, 11u);
  EXPECT_EQ(stats.deallocations, 10u);
  EXPECT_EQ(stats.bytes_allocated, 2047u * sizeof(int));
  EXPECT_EQ(stats.net_bytes, static_cast<std::int64_t>(1024 * sizeof(int)));
  // At the last growth the 512-int block and the 1024-int block are both live.
  EXPECT_EQ(stats.peak_live_bytes, (512u + 1024u) * sizeof(int));

  std::vector<int> reserved;
  reserved.reserve(1000);
  EXPECT_NO_ALLOCATIONS(for (int i = 0; i < 1000; ++i) reserved.push_back(i));
}

TEST(KnownPatterns, MakeSharedIsOneAllocation) {
  std::shared_ptr<int> p;
  EXPECT_ALLOCATIONS_EQ(p = std::make_shared<int>(5), 1);
  std::shared_ptr<int> q;
  EXPECT_ALLOCATIONS_EQ(q = std::shared_ptr<int>(new int(5)), 2);  // object, then control block
  EXPECT_ALLOCATIONS_EQ(q = p, 0);
}

TEST(KnownPatterns, FunctionWithALargeCaptureAllocatesTheClosure) {
  std::array<char, 64> payload{};
  payload[0] = 'x';
  std::function<int()> f;
  const auto stats = measure([&] { f = [payload] { return payload[0] + 0; }; });
  EXPECT_EQ(stats.allocations, 1u);
  EXPECT_EQ(stats.bytes_allocated, allocgate::test::function_block_bytes(64));  // 64, or 72 with libc++
  EXPECT_EQ(f(), 'x');
  // A capture that fits the std::function's local storage (16 bytes in
  // libstdc++, 24 in libc++) is not allocated.
  std::function<int()> small;
  int local = 3;
  EXPECT_NO_ALLOCATIONS(small = [local] { return local; });
  EXPECT_EQ(small(), 3);
}

}  // namespace
