// SPDX-License-Identifier: Apache-2.0
// The table of tracked blocks, driven directly with made-up addresses (never
// dereferenced): every block still tracked is found with its size, every
// block freed is not, whatever the order of frees and however the addresses
// collide. A free moves later entries of its run back (no tombstones).

#include "counting/block_tracker.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <thread>
#include <vector>

namespace {

using allocgate::detail::LiveTotals;
using allocgate::detail::TrackedBlock;

void* address(std::uintptr_t n) { return reinterpret_cast<void*>(n * 16 + 0x100000); }

// A fresh generation, with the hook not tracking: only this test's calls
// reach the table.
struct FreshTable {
  FreshTable() {
    allocgate::detail::start_tracking_blocks();
    allocgate::detail::stop_tracking_blocks();
  }
};

bool untrack(void* block, std::size_t& size) {
  TrackedBlock found;
  const bool tracked = allocgate::detail::untrack_block(block, found);
  size = found.size;
  return tracked;
}

TEST(BlockTracker, EveryBlockLeftIsFoundAfterRandomFrees) {
  const FreshTable table;
  std::mt19937 random(12345);
  std::map<std::uintptr_t, std::size_t> live;  // address number -> size
  for (int round = 0; round < 20000; ++round) {
    // Addresses drawn from a small range collide often; frees follow allocations.
    const std::uintptr_t n = random() % 4096;
    if (live.count(n) == 0 && (live.size() < 300 || random() % 2 == 0)) {
      const std::size_t size = 1 + random() % 1000;
      allocgate::detail::track_block(address(n), size, true, nullptr);
      live[n] = size;
    } else if (live.count(n) != 0) {
      std::size_t size = 0;
      ASSERT_TRUE(untrack(address(n), size)) << n;
      EXPECT_EQ(size, live[n]);
      live.erase(n);
    } else {
      std::size_t size = 0;
      EXPECT_FALSE(untrack(address(n), size)) << n;
    }
  }
  std::uint64_t bytes = 0;
  for (const auto& [n, size] : live) bytes += size;
  const LiveTotals totals = allocgate::detail::live_blocks();
  EXPECT_EQ(totals.blocks, live.size());
  EXPECT_EQ(totals.bytes, bytes);
  for (const auto& [n, size] : live) {
    std::size_t found = 0;
    ASSERT_TRUE(untrack(address(n), found)) << n;
    EXPECT_EQ(found, size);
  }
  EXPECT_EQ(allocgate::detail::live_blocks().blocks, 0u);
}

// The thread that starts tracking enters the table without its lock until
// another thread comes in; then the two must take turns. Each round a second
// thread comes in while the first is inside, again and again, and frees some
// of the first's blocks: a turn missed would lose or corrupt entries.
TEST(BlockTracker, AThreadComingInWhileTheStartingOneIsInsideTakesTurns) {
  constexpr std::uintptr_t kEach = 2000;
  for (int round = 0; round < 50; ++round) {
    const FreshTable table;  // this thread starts: the table's owner
    const auto a = [](std::uintptr_t i) { return address(i); };
    const auto b = [](std::uintptr_t i) { return address(kEach + i); };
    const auto c = [](std::uintptr_t i) { return address(2 * kEach + i); };
    for (std::uintptr_t i = 0; i < kEach; ++i) allocgate::detail::track_block(a(i), 1 + i % 7, true, nullptr);
    std::atomic<int> lost{0};
    std::thread other([&] {
      for (std::uintptr_t i = 0; i < kEach; ++i) {
        allocgate::detail::track_block(b(i), 1 + i % 5, true, nullptr);
        std::size_t size = 0;
        if (i % 2 == 0 && (!untrack(a(i), size) || size != 1 + i % 7)) ++lost;  // the owner's blocks
        if (i % 4 == 0 && (!untrack(b(i), size) || size != 1 + i % 5)) ++lost;
      }
    });
    for (std::uintptr_t i = 0; i < kEach; ++i) {
      allocgate::detail::track_block(c(i), 1 + i % 3, true, nullptr);
      std::size_t size = 0;
      if (i % 2 == 1 && (!untrack(c(i), size) || size != 1 + i % 3)) ++lost;
    }
    other.join();
    ASSERT_EQ(lost.load(), 0) << "round " << round;
    std::uint64_t bytes = 0;
    std::uint64_t blocks = 0;
    for (std::uintptr_t i = 0; i < kEach; ++i) {
      if (i % 2 != 0) bytes += 1 + i % 7, ++blocks;
      if (i % 4 != 0) bytes += 1 + i % 5, ++blocks;
      if (i % 2 != 1) bytes += 1 + i % 3, ++blocks;
    }
    const LiveTotals totals = allocgate::detail::live_blocks();
    ASSERT_EQ(totals.blocks, blocks) << "round " << round;
    ASSERT_EQ(totals.bytes, bytes) << "round " << round;
  }
}

TEST(BlockTracker, ANewGenerationForgetsTheOld) {
  {
    const FreshTable table;
    allocgate::detail::track_block(address(1), 8, true, nullptr);
  }
  const FreshTable table;
  std::size_t size = 0;
  EXPECT_FALSE(untrack(address(1), size));
  EXPECT_EQ(allocgate::detail::live_blocks().blocks, 0u);
}

// Generations are numbered in a few bits of each slot: when they run out
// and start again, the table is cleared, or a block of a test thousands of
// tests back would be found again.
TEST(BlockTracker, GenerationsThatWrapAroundForgetTheOldToo) {
  {
    const FreshTable table;
    allocgate::detail::track_block(address(7), 24, true, nullptr);
  }
  for (int start = 0; start < (1 << 14); ++start) {
    const FreshTable table;
    std::size_t size = 0;
    ASSERT_FALSE(untrack(address(7), size)) << "found again " << start << " starts later";
  }
}

// A size and the flags share a word with the generation: the largest sizes
// an allocator can give come back whole.
TEST(BlockTracker, LargeSizesAndFlagsComeBackWhole) {
  const FreshTable table;
  const std::size_t large = (std::size_t{1} << 47) + 12345;
  allocgate::detail::track_block(address(1), large, true, nullptr);
  allocgate::detail::track_block(address(2), 100, false, nullptr);
  TrackedBlock found;
  ASSERT_TRUE(allocgate::detail::untrack_block(address(1), found));
  EXPECT_EQ(found.size, large);
  EXPECT_TRUE(found.counted);
  ASSERT_TRUE(allocgate::detail::untrack_block(address(2), found));
  EXPECT_EQ(found.size, 100u);
  EXPECT_FALSE(found.counted);
}

}  // namespace
