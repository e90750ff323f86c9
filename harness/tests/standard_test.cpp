// SPDX-License-Identifier: Apache-2.0
// The hook behaves as [new.delete] requires: size 0, the new_handler loop,
// bad_alloc, null from the nothrow forms, alignment.

#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <set>

#include "allocgate/allocgate.h"
#include "allocgate/gtest.h"
#include "block_headers.h"
#include "escape.h"

namespace {

using allocgate::test::escape;

// Larger than any malloc can satisfy, but small enough that size + header
// does not overflow: malloc itself must fail.
constexpr std::size_t kImpossible = std::numeric_limits<std::size_t>::max() / 2;

int g_handler_calls = 0;

void give_up_after_two_calls() {
  if (++g_handler_calls == 2) std::set_new_handler(nullptr);
}

void throw_bad_alloc() {
  ++g_handler_calls;
  throw std::bad_alloc();
}

class NewHandlerTest : public ::testing::Test {
 protected:
  void SetUp() override { g_handler_calls = 0; }
  void TearDown() override { std::set_new_handler(nullptr); }
};

TEST(StandardBehaviour, SizeZeroReturnsDistinctNonNullPointers) {
  std::array<void*, 4> got{};
  const auto stats = allocgate::measure([&] {
    for (void*& p : got) escape(p = ::operator new(0));
  });
  EXPECT_EQ(stats.allocations, 4u);
  EXPECT_EQ(stats.bytes_allocated, 0u);
  std::set<void*> distinct(got.begin(), got.end());
  EXPECT_EQ(distinct.size(), 4u);
  EXPECT_EQ(distinct.count(nullptr), 0u);
  for (void* p : got) ::operator delete(p);
  void* array = ::operator new[](0);
  EXPECT_NE(array, nullptr);
  ::operator delete[](array);
}

TEST(StandardBehaviour, DeletingNullDoesNothing) {
  const auto stats = allocgate::measure([] {
    ::operator delete(nullptr);
    ::operator delete[](nullptr);
    ::operator delete (nullptr, std::align_val_t{64});
    ::operator delete(nullptr, std::nothrow);
  });
  EXPECT_EQ(stats.deallocations, 0u);
}

TEST(StandardBehaviour, ImpossibleSizesThrowOrReturnNull) {
  EXPECT_THROW(escape(::operator new(kImpossible)), std::bad_alloc);
  EXPECT_THROW(escape(::operator new[](kImpossible)), std::bad_alloc);
  EXPECT_THROW(escape(::operator new (kImpossible, std::align_val_t{64})), std::bad_alloc);
  EXPECT_EQ(::operator new(kImpossible, std::nothrow), nullptr);
  EXPECT_EQ(::operator new[](kImpossible, std::align_val_t{64}, std::nothrow), nullptr);
  // Sizes so large that the block header would overflow size_t fail the same way.
  EXPECT_THROW(escape(::operator new(std::numeric_limits<std::size_t>::max())), std::bad_alloc);
  EXPECT_EQ(::operator new(std::numeric_limits<std::size_t>::max(), std::nothrow), nullptr);
}

TEST_F(NewHandlerTest, TheHandlerIsCalledUntilItRemovesItself) {
  std::set_new_handler(&give_up_after_two_calls);
  EXPECT_THROW(escape(::operator new(kImpossible)), std::bad_alloc);
  EXPECT_EQ(g_handler_calls, 2);
}

TEST_F(NewHandlerTest, NothrowFormsReturnNullWhenTheHandlerThrows) {
  std::set_new_handler(&throw_bad_alloc);
  EXPECT_EQ(::operator new(kImpossible, std::nothrow), nullptr);
  EXPECT_EQ(g_handler_calls, 1);
  EXPECT_EQ(::operator new (kImpossible, std::align_val_t{32}, std::nothrow), nullptr);
  EXPECT_EQ(g_handler_calls, 2);
}

TEST(StandardBehaviour, AlignedFormsHonourEveryPowerOfTwo) {
  for (std::size_t align = 1; align <= 8192; align *= 2) {
    for (std::size_t size : {std::size_t{0}, std::size_t{1}, align, 3 * align + 1}) {
      void* p = ::operator new (size, std::align_val_t{align});
      EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % align, 0u) << "align " << align;
      std::memset(p, 0xab, size);  // the whole block is usable
      ::operator delete (p, std::align_val_t{align});
    }
  }
}

// [basic.stc.dynamic.allocation]: aligned for any object with a fundamental
// alignment that fits in the block, so a small block may be less aligned:
// jemalloc gives 8-byte blocks 8-byte alignment; glibc gives all 16.
TEST(StandardBehaviour, PlainNewIsAlignedForAnyFundamentalTypeThatFits) {
  for (std::size_t size = 1; size <= 64; ++size) {
    std::size_t fits = 1;
    while (fits * 2 <= size && fits * 2 <= __STDCPP_DEFAULT_NEW_ALIGNMENT__) fits *= 2;
    void* p = ::operator new(size);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % fits, 0u) << "size " << size;
    ::operator delete(p);
  }
}

// With block headers, a delete of a block operator new did not make would
// free a pointer 16 bytes off: glibc aborts inside free with no word of
// where. The hook stops it in one line naming the delete's line instead.
// (AddressSanitizer reads the bytes in front of a malloc'd block as a
// redzone, and says it first.)
#if !defined(__SANITIZE_ADDRESS__)
void* volatile g_foreign = nullptr;

// Not inlined, nor its delete a tail call: the message names the function that deletes.
[[gnu::noinline]] void delete_what_malloc_made() {
  g_foreign = std::malloc(32);
  ::operator delete(g_foreign);
  g_foreign = nullptr;
}

[[gnu::noinline]] void delete_twice() {
  g_foreign = ::operator new(32);
  ::operator delete(g_foreign);
  ::operator delete(g_foreign);
}

TEST(ForeignDeleteDeathTest, AMallocdBlockDeletedIsStoppedNamingTheDelete) {
  if (!allocgate::test::block_headers()) GTEST_SKIP() << "no block headers: glibc's free judges the pointer";
  EXPECT_DEATH(delete_what_malloc_made(),
               "allocgate: operator delete of 0x[0-9a-f]+, a block operator new did not allocate: malloc'd and "
               "freed with delete, deleted twice.*\n.*the delete: .*delete_what_malloc_made.*standard_test.cpp:");
}

TEST(ForeignDeleteDeathTest, ABlockDeletedTwiceIsStopped) {
  if (!allocgate::test::block_headers()) GTEST_SKIP() << "no block headers: glibc's free judges the pointer";
  EXPECT_DEATH(delete_twice(), "allocgate: operator delete of 0x[0-9a-f]+, a block operator new did not allocate");
}
#endif

}  // namespace
