// SPDX-License-Identifier: Apache-2.0
// The cached unwinder against its plain twin, glibc's backtrace(): the same
// return addresses for stacks built at random from code with and without
// frame pointers (this file's, libstdc++'s, glibc's), and the fallback taken
// only where it should be.

#include "capture/unwind.h"

#include <gtest/gtest.h>

#include <alloca.h>
#include <signal.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace allocgate::detail {
namespace {

struct Unwound {
  std::vector<void*> cached;
  std::vector<void*> plain;
  std::uint64_t fallbacks = 0;
};

FrameRuleCache with_slots(FrameRule* slots, std::size_t capacity) {
  FrameRuleCache cache;
  cache.slots = slots;
  cache.capacity = capacity;
  return cache;
}

struct Cache {
  std::vector<FrameRule> slots = std::vector<FrameRule>(256);
  FrameRuleCache cache = with_slots(slots.data(), slots.size());
};

// Both unwinders from one frame. Their first frames are the return addresses
// of two different calls, so only the rest is compared.
__attribute__((noinline)) void unwind_both(Unwound& out, FrameRuleCache& cache, int max_frames) {
  void* cached[kMaxUnwindFrames];
  void* plain[kMaxUnwindFrames];
  const std::uint64_t fallbacks_before = cache.fallbacks;
  std::uint64_t hash = 0;
  const int cached_depth = unwind_stack(cached, max_frames, cache, hash);
  const int plain_depth = backtrace_stack(plain, max_frames);
  EXPECT_EQ(hash, hash_frames(cached, cached_depth));
  out.cached.assign(cached + std::min(cached_depth, 1), cached + cached_depth);
  out.plain.assign(plain + std::min(plain_depth, 1), plain + plain_depth);
  out.fallbacks = cache.fallbacks - fallbacks_before;
}

// The frames a stack is built of. Each calls `next` from a different kind of
// code: this file's recursion, std::function, std::sort's comparator (code
// inlined from libstdc++'s headers), glibc's qsort and std::call_once
// (frames in libc.so and libstdc++.so, built without frame pointers), and a
// frame with a variable-length array (the CFA kept in rbp).
enum Shape { kPlain, kFunction, kSort, kQsort, kCallOnce, kAlloca, kShapes };

struct Walk {
  std::vector<Shape> shapes;
  std::size_t next = 0;
  int max_frames = kMaxUnwindFrames;
  FrameRuleCache* cache = nullptr;
  Unwound result;
};

void descend(Walk& walk);

Walk* g_qsort_walk = nullptr;  // qsort's comparator takes no context

__attribute__((noinline)) void via_plain(Walk& walk) {
  descend(walk);
  asm volatile("");  // not a tail call
}

__attribute__((noinline)) void via_function(Walk& walk) {
  const std::function<void()> f = [&walk] { descend(walk); };
  f();
}

__attribute__((noinline)) void via_sort(Walk& walk) {
  std::vector<int> values = {3, 1, 2};
  bool descended = false;
  std::sort(values.begin(), values.end(), [&](int a, int b) {
    if (!descended) {
      descended = true;
      descend(walk);
    }
    return a < b;
  });
}

extern "C" int qsort_comparator(const void* a, const void* b) {
  if (Walk* walk = g_qsort_walk) {
    g_qsort_walk = nullptr;
    descend(*walk);
  }
  return *static_cast<const int*>(a) - *static_cast<const int*>(b);
}

__attribute__((noinline)) void via_qsort(Walk& walk) {
  int values[] = {3, 1, 2};
  g_qsort_walk = &walk;
  std::qsort(values, 3, sizeof(int), qsort_comparator);
}

__attribute__((noinline)) void via_call_once(Walk& walk) {
  std::once_flag once;
  std::call_once(once, [&walk] { descend(walk); });
}

__attribute__((noinline)) void via_alloca(Walk& walk) {
  const std::size_t n = 16 + walk.next % 7;
  auto* buffer = static_cast<volatile char*>(alloca(n));  // a frame sized at run time
  buffer[0] = 1;
  descend(walk);
  buffer[n - 1] = buffer[0];
}

void descend(Walk& walk) {
  if (walk.next == walk.shapes.size()) {
    unwind_both(walk.result, *walk.cache, walk.max_frames);
    return;
  }
  switch (walk.shapes[walk.next++]) {
    case kPlain:
      via_plain(walk);
      break;
    case kFunction:
      via_function(walk);
      break;
    case kSort:
      via_sort(walk);
      break;
    case kQsort:
      via_qsort(walk);
      break;
    case kCallOnce:
      via_call_once(walk);
      break;
    case kAlloca:
      via_alloca(walk);
      break;
    case kShapes:
      break;
  }
}

Unwound walk_through(const std::vector<Shape>& shapes, FrameRuleCache& cache, int max_frames = kMaxUnwindFrames) {
  Walk walk;
  walk.shapes = shapes;
  walk.cache = &cache;
  walk.max_frames = max_frames;
  descend(walk);
  return walk.result;
}

TEST(Unwind, EachShapeGivesBacktracesFramesWithoutFallingBack) {
  for (int shape = 0; shape < kShapes; ++shape) {
    Cache c;
    const Unwound unwound = walk_through({static_cast<Shape>(shape), kPlain}, c.cache);
    EXPECT_EQ(unwound.cached, unwound.plain) << "shape " << shape;
    EXPECT_GT(unwound.plain.size(), 5u) << "shape " << shape;
    EXPECT_EQ(unwound.fallbacks, 0u) << "shape " << shape;
  }
}

// 300 stacks of up to 30 random shapes, every fourth cut at a random
// max_frames, each against backtrace(); `each` sees every walk and the
// cache's joins before it.
template <class Each>
void walk_random_stacks(FrameRuleCache& cache, Each each) {
  const unsigned seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937 random(seed);
  for (int round = 0; round < 300; ++round) {
    std::vector<Shape> shapes(std::uniform_int_distribution<std::size_t>(0, 30)(random));
    for (Shape& shape : shapes) shape = static_cast<Shape>(std::uniform_int_distribution<int>(0, kShapes - 1)(random));
    const int max_frames = round % 4 == 0 ? std::uniform_int_distribution<int>(1, 20)(random) : kMaxUnwindFrames;
    const std::uint64_t joins_before = cache.joins;
    const Unwound unwound = walk_through(shapes, cache, max_frames);
    ASSERT_EQ(unwound.cached, unwound.plain) << "round " << round << ", " << shapes.size() << " shapes";
    ASSERT_EQ(unwound.fallbacks, 0u) << "round " << round;
    each(unwound, max_frames, cache.joins - joins_before, round);
  }
}

TEST(Unwind, RandomStacksGiveBacktracesFrames) {
  Cache c;  // shared, so later stacks hit rules cached by earlier ones
  walk_random_stacks(c.cache, [](const Unwound&, int, std::uint64_t joins, int) { EXPECT_EQ(joins, 0u); });
}

// An anchor at this test's frame: every walk below joins it at the frame
// above this one and gives backtrace()'s frames, at any max_frames.
TEST(Unwind, RandomStacksUnderAnAnchorJoinIt) {
  Cache c;
  const auto anchor = std::make_unique<StackAnchor>();
  anchor_stack(c.cache, *anchor);
  ASSERT_EQ(c.cache.anchor, anchor.get());
  ASSERT_GT(anchor->depth, 3);  // this frame, gtest's, main's, libc's
  walk_random_stacks(c.cache, [](const Unwound& unwound, int max_frames, std::uint64_t joins, int round) {
    // unwound drops the first frame. A stack that ends short of max_frames
    // joined; one that reaches it may have been cut there instead, and was
    // walked to the cut (the anchor would have taken it past).
    if (static_cast<int>(unwound.plain.size()) + 1 < max_frames) {
      EXPECT_EQ(joins, 1u) << "round " << round;
    } else {
      EXPECT_LE(joins, 1u) << "round " << round;
    }
  });
  EXPECT_EQ(c.cache.stale_levels, 0u);
}

// Two callers alike but for a constant: frames of one size at one stack
// pointer, so a walk under the second meets the anchor taken under the first
// in the same state at stale_middle's frame, with a different return
// address above it. The walk must check that word and walk on.
struct StaleStack {
  FrameRuleCache* cache = nullptr;
  StackAnchor* anchor = nullptr;
  Unwound result;
};

__attribute__((noinline)) void stale_leaf(StaleStack& s, int which) {
  if (which == 1) {
    anchor_stack(*s.cache, *s.anchor);
  } else {
    unwind_both(s.result, *s.cache, kMaxUnwindFrames);
  }
  asm volatile("");
}
__attribute__((noinline)) void stale_middle(StaleStack& s, int which) {
  stale_leaf(s, which);
  asm volatile("");
}
__attribute__((noinline)) void stale_first(StaleStack& s) {
  stale_middle(s, 1);
  asm volatile("");
}
__attribute__((noinline)) void stale_second(StaleStack& s) {
  stale_middle(s, 2);
  asm volatile("");
}

TEST(Unwind, AnAnchorWhoseFramesReturnedCostsACheckNotAFrame) {
  Cache c;
  const auto anchor = std::make_unique<StackAnchor>();
  StaleStack s{&c.cache, anchor.get(), {}};
  stale_first(s);
  ASSERT_EQ(c.cache.anchor, anchor.get());
  stale_second(s);
  EXPECT_EQ(s.result.cached, s.result.plain);
  EXPECT_EQ(s.result.fallbacks, 0u);
  EXPECT_GE(c.cache.stale_levels, 1u);  // stale_middle's frame, met and refused
  EXPECT_EQ(c.cache.joins, 1u);         // at this test's caller, which both share
}

TEST(Unwind, AFullCacheStillUnwinds) {
  FrameRule one_slot[1];
  FrameRuleCache tiny = with_slots(one_slot, 1);
  FrameRuleCache none = with_slots(nullptr, 0);
  for (FrameRuleCache* cache : {&tiny, &none}) {
    const Unwound unwound = walk_through({kFunction, kQsort, kPlain, kCallOnce}, *cache);
    EXPECT_EQ(unwound.cached, unwound.plain);
    EXPECT_EQ(unwound.fallbacks, 0u);
  }
}

TEST(Unwind, AThreadsStackEndsWhereBacktracesDoes) {
  Unwound unwound;
  std::thread([&unwound] {
    Cache c;
    unwound = walk_through({kPlain, kFunction}, c.cache);
  }).join();
  EXPECT_EQ(unwound.cached, unwound.plain);
  EXPECT_EQ(unwound.fallbacks, 0u);
}

// Made before the signal: a handler must not allocate.
Walk* g_signal_walk = nullptr;

void on_signal(int) { descend(*g_signal_walk); }

TEST(Unwind, ASignalFrameFallsBackToBacktrace) {
  Cache c;
  Walk walk;
  walk.shapes = {kPlain};
  walk.cache = &c.cache;
  walk.result.cached.reserve(kMaxUnwindFrames);
  walk.result.plain.reserve(kMaxUnwindFrames);
  g_signal_walk = &walk;
  // glibc loads its unwinder on the first backtrace(), allocating as it does:
  // here, not in the handler.
  void* warm[2];
  backtrace_stack(warm, 2);
  struct sigaction action {};
  action.sa_handler = on_signal;
  struct sigaction previous {};
  ASSERT_EQ(sigaction(SIGUSR1, &action, &previous), 0);
  raise(SIGUSR1);
  sigaction(SIGUSR1, &previous, nullptr);
  EXPECT_EQ(walk.result.cached, walk.result.plain);
  EXPECT_EQ(walk.result.fallbacks, 1u);  // the kernel's signal frame
}

}  // namespace
}  // namespace allocgate::detail
