// SPDX-License-Identifier: Apache-2.0
// Tracking by tags (block_tracker.h), in a program with block headers: the
// blocks allocated while tagging is on and still live are tallied exactly,
// on the owner's own path (a process scope open on its thread: a counted
// test's), on another thread's and without a scope (the general path),
// whatever frees them: sized or unsized, another thread, a later tagging.
// Blocks built for a static are one-time initialisation: neither they nor
// their frees are counted, only the process's one-time figures, and they
// are not tallied. A disowned block's free is not counted.

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <new>
#include <random>
#include <thread>
#include <utility>

#include "allocgate/scope.h"
#include "counting/block_tracker.h"
#include "counting/thread_state.h"

namespace {

using allocgate::detail::LiveTotals;

struct Block {
  char* p = nullptr;
  std::size_t size = 0;
  bool tagged = false;    // allocated while tagging, outside a static
  bool aligned = false;   // by the aligned form, freed by it
  bool one_time = false;  // built for a static: counted apart
};

void* kept(void* p) {
  asm volatile("" : : "g"(p) : "memory");
  return p;
}

// Blocks allocated and freed at random, a fixed array as the bookkeeping
// (nothing of the test's own allocates while it runs). Returns the live
// tagged blocks the tally must show, and the allocations and frees made.
struct Expected {
  LiveTotals live;
  std::uint64_t allocations = 0;
  std::uint64_t deallocations = 0;
  std::uint64_t bytes_allocated = 0;
  std::uint64_t bytes_freed = 0;
  std::uint64_t one_time_allocations = 0;
  std::uint64_t one_time_bytes = 0;
};

constexpr std::size_t kSlots = 512;

void allocate(Block& b, std::mt19937& rng, bool tagging, Expected& e) {
  b.size = 1 + rng() % 3000;
  const bool for_a_static = rng() % 10 == 0;
  if (for_a_static) allocgate::detail::begin_static_initialization();
  b.aligned = rng() % 8 == 0;
  b.p = static_cast<char*>(kept(b.aligned ? ::operator new (b.size, std::align_val_t{64}) : ::operator new(b.size)));
  if (for_a_static) allocgate::detail::end_static_initialization();
  b.tagged = tagging && !for_a_static;
  b.one_time = for_a_static;
  if (for_a_static) {
    ++e.one_time_allocations;
    e.one_time_bytes += b.size;
    return;
  }
  ++e.allocations;
  e.bytes_allocated += b.size;
}

void release(Block& b, std::mt19937& rng, Expected& e) {
  // Sized or unsized at random: the header knows the size either way. An
  // if, not ?: between the two calls: clang 14 compiles that ?: into both.
  const bool sized = rng() % 2 == 0;
  if (b.aligned && sized) {
    ::operator delete (b.p, b.size, std::align_val_t{64});
  } else if (b.aligned) {
    ::operator delete (b.p, std::align_val_t{64});
  } else if (sized) {
    ::operator delete(b.p, b.size);
  } else {
    ::operator delete(b.p);
  }
  if (!b.one_time) {
    ++e.deallocations;
    e.bytes_freed += b.size;
  }
  b.p = nullptr;
}

LiveTotals tally_of(const std::array<Block, kSlots>& blocks) {
  LiveTotals t;
  for (const Block& b : blocks) {
    if (b.p != nullptr && b.tagged) {
      ++t.blocks;
      t.bytes += b.size;
    }
  }
  return t;
}

void churn(std::array<Block, kSlots>& blocks, std::mt19937& rng, int rounds, bool tagging, Expected& e) {
  for (int i = 0; i < rounds; ++i) {
    Block& b = blocks[rng() % kSlots];
    if (b.p == nullptr) {
      allocate(b, rng, tagging, e);
    } else {
      release(b, rng, e);
    }
  }
}

void release_all(std::array<Block, kSlots>& blocks, std::mt19937& rng, Expected& e) {
  for (Block& b : blocks) {
    if (b.p != nullptr) release(b, rng, e);
  }
}

enum class Path { owner, other_thread, no_scope };

class BlockTags : public ::testing::TestWithParam<Path> {};

TEST_P(BlockTags, TallyTheTaggedBlocksStillLiveExactly) {
  ASSERT_EQ(allocgate::size_tracking(), allocgate::SizeTracking::block_headers);
  const Path path = GetParam();
  std::mt19937 rng(20261203);
  std::array<Block, kSlots> before{}, during{};
  Expected untagged;
  churn(before, rng, 300, false, untagged);  // blocks from before tagging began, some freed during it

  Expected e;
  LiveTotals live;
  allocgate::AllocationStats stats;
  const auto run = [&] {
    allocgate::detail::start_tracking_blocks();
    {
      // Open on this thread: it owns the process totals from the first
      // scope on, and its calls then take the counted test's path.
      std::optional<allocgate::ProcessAllocationScope> scope;
      if (path != Path::no_scope) scope.emplace();
      const auto body = [&] {
        churn(during, rng, 4000, true, e);
        for (int i = 0; i < 100; ++i) {  // older blocks freed: not the tally's
          Block& b = before[rng() % kSlots];
          if (b.p != nullptr) release(b, rng, e);
        }
        // Another thread frees some of ours and allocates its own, kept.
        std::array<Block, 64> theirs{};
        Expected theirs_e;
        std::thread([&] {
          std::mt19937 other(7);
          for (Block& b : theirs) allocate(b, other, true, theirs_e);
          for (std::size_t i = 0; i < kSlots; i += 3) {
            if (during[i].p != nullptr) release(during[i], other, theirs_e);
          }
        }).join();
        live = tally_of(during);
        for (const Block& b : theirs) {
          if (b.tagged) {
            ++live.blocks;
            live.bytes += b.size;
          }
        }
        e.allocations += theirs_e.allocations;
        e.deallocations += theirs_e.deallocations;
        e.bytes_allocated += theirs_e.bytes_allocated;
        e.bytes_freed += theirs_e.bytes_freed;
        e.one_time_allocations += theirs_e.one_time_allocations;
        e.one_time_bytes += theirs_e.one_time_bytes;
        const LiveTotals tallied = allocgate::detail::live_blocks();
        EXPECT_EQ(tallied.blocks, live.blocks);
        EXPECT_EQ(tallied.bytes, live.bytes);
        for (Block& b : theirs) release(b, rng, e);
      };
      body();
      if (scope) stats = scope->stats();
    }
    allocgate::detail::stop_tracking_blocks();
  };
  if (path == Path::other_thread) {
    const allocgate::ProcessAllocationScope owners;  // this thread owns the totals; the other does not
    std::thread(run).join();
  } else {
    run();
  }
  if (path != Path::no_scope) {
    // The thread's std::thread itself allocates: only the churn's own are exact.
    EXPECT_GE(stats.allocations, e.allocations);
    EXPECT_TRUE(stats.sizes_known());
  }

  // A later tagging: the earlier blocks, freed now, are not its blocks.
  allocgate::detail::start_tracking_blocks();
  release_all(during, rng, e);
  release_all(before, rng, e);
  const LiveTotals after = allocgate::detail::live_blocks();
  allocgate::detail::stop_tracking_blocks();
  EXPECT_EQ(after.blocks, 0u);
  EXPECT_EQ(after.bytes, 0u);
}

INSTANTIATE_TEST_SUITE_P(Paths, BlockTags, ::testing::Values(Path::owner, Path::other_thread, Path::no_scope),
                         [](const ::testing::TestParamInfo<Path>& info) {
                           return info.param == Path::owner          ? "Owner"
                                  : info.param == Path::other_thread ? "OtherThread"
                                                                     : "NoScope";
                         });

// The owner's path counts as the general one does: the same allocations and
// frees, sized and unsized, give the same figures with tagging on and off,
// and the same one-time figures.
TEST(BlockTagsScope, FiguresAreTheSameWithTaggingOnAndOff) {
  const auto one_time = [] {
    const auto& process = allocgate::detail::process_counters();
    return std::pair(process.one_time_allocations.load(), process.one_time_bytes.load());
  };
  const auto measure = [&](bool tagging) {
    std::mt19937 rng(99);
    std::array<Block, kSlots> blocks{};
    Expected e;
    const auto one_time_before = one_time();
    if (tagging) allocgate::detail::start_tracking_blocks();
    allocgate::AllocationStats stats;
    {
      const allocgate::ProcessAllocationScope scope;
      churn(blocks, rng, 3000, tagging, e);
      release_all(blocks, rng, e);
      stats = scope.stats();
    }
    if (tagging) allocgate::detail::stop_tracking_blocks();
    const auto one_time_after = one_time();
    EXPECT_GT(e.one_time_allocations, 0u);
    EXPECT_EQ(one_time_after.first - one_time_before.first, e.one_time_allocations);
    EXPECT_EQ(one_time_after.second - one_time_before.second, e.one_time_bytes);
    EXPECT_EQ(stats.allocations, e.allocations);
    EXPECT_EQ(stats.deallocations, e.deallocations);
    EXPECT_EQ(stats.bytes_allocated, e.bytes_allocated);
    EXPECT_EQ(stats.bytes_freed, e.bytes_freed);
    EXPECT_EQ(stats.net_bytes, 0);
    return stats;
  };
  const allocgate::AllocationStats untagged = measure(false);
  const allocgate::AllocationStats tagged = measure(true);
  EXPECT_EQ(untagged, tagged);
}

// A block disowned (a test's fixture, made before its test began) is not
// counted when the test frees it.
TEST(BlockTagsScope, ADisownedBlocksFreeIsNotCounted) {
  char* fixture = static_cast<char*>(kept(new char[48]));
  char* other = static_cast<char*>(kept(new char[48]));
  allocgate::detail::start_tracking_blocks();
  allocgate::detail::disown_block(fixture, 0);
  allocgate::AllocationStats stats;
  {
    const allocgate::ProcessAllocationScope scope;
    delete[] fixture;
    delete[] other;
    stats = scope.stats();
  }
  allocgate::detail::stop_tracking_blocks();
  EXPECT_EQ(stats.deallocations, 1u);
  EXPECT_EQ(stats.bytes_freed, 48u);
}

}  // namespace
