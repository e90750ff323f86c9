// SPDX-License-Identifier: Apache-2.0
// The marking of reachability.h, in a program with block headers: a block
// is reached from a global, and through a block reached; a block held only
// by an unreached one is not; a word that leads into memory that faults
// when read is skipped, and the marking goes on past it; a block across two
// mappings the kernel lists apart is a block; a root's word unchanged since
// a body began keeps no block the body allocated; allocgate's own mappings
// are no root.

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>

#include "allocgate/scope.h"
#include "counting/other_threads.h"
#include "counting/own_mappings.h"
#include "counting/reachability.h"

namespace {

using allocgate::detail::mark_reachable;
using allocgate::detail::ReachedBlocks;

struct Node {
  Node* next = nullptr;
  char payload[40] = {};
};

// Roots: globals the compiler keeps, as it cannot see who reads them.
Node* volatile g_held = nullptr;
const void* volatile g_into_faulting_memory = nullptr;

// A block whose only holder is a block nothing holds: the holder's address
// is returned as bits no word of memory holds (flipped), not a pointer.
std::uintptr_t an_orphan_holding_a_block() {
  auto* orphan = new Node;
  orphan->next = new Node;
  return reinterpret_cast<std::uintptr_t>(orphan) ^ 1;
}

// Blocks with headers are the hook's: a call into the harness brings it
// into the link ahead of a sanitizer's operator new.
class Reachability : public ::testing::Test {
 protected:
  void SetUp() override { allocgate::require_hook(); }
};

TEST_F(Reachability, ABlockHeldByAGlobalAndWhatItHoldsAreReachedAnOrphansAreNot) {
  g_held = new Node;
  g_held->next = new Node;
  const std::uintptr_t orphan_bits = an_orphan_holding_a_block();

  ReachedBlocks reached;
  mark_reachable(reached, __builtin_frame_address(0));
  ASSERT_TRUE(reached.complete());
  EXPECT_TRUE(reached.contains(g_held));
  EXPECT_TRUE(reached.contains(g_held->next));
  Node* const orphan = reinterpret_cast<Node*>(orphan_bits ^ 1);
  EXPECT_FALSE(reached.contains(orphan));
  EXPECT_FALSE(reached.contains(orphan->next));
  delete orphan->next;
  delete orphan;
  delete g_held->next;
  delete g_held;
  g_held = nullptr;
}

// A stale word can point into a mapping listed when the marking began whose
// pages fault when read (a file's pages past its end give SIGBUS, as a
// region unmapped since gives SIGSEGV). The word is skipped; before, the
// fault ended the marking incomplete, and every live block was a leak.
TEST_F(Reachability, AWordIntoMemoryThatFaultsIsSkippedAndTheMarkingGoesOn) {
  char name[] = "/tmp/allocgate_reachability_XXXXXX";
  const int fd = ::mkstemp(name);
  ASSERT_GE(fd, 0);
  ::unlink(name);
  const long page = ::sysconf(_SC_PAGESIZE);
  // Two pages of an empty file: listed readable and writable, and no page
  // of it can be read.
  void* mapping = ::mmap(nullptr, 2 * static_cast<std::size_t>(page), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  ::close(fd);
  ASSERT_NE(mapping, MAP_FAILED);
  g_into_faulting_memory = static_cast<char*>(mapping) + page + 64;  // its header would be on the second page
  g_held = new Node;

  ReachedBlocks reached;
  mark_reachable(reached, __builtin_frame_address(0));
  EXPECT_TRUE(reached.complete());
  EXPECT_TRUE(reached.contains(g_held));

  delete g_held;
  g_held = nullptr;
  g_into_faulting_memory = nullptr;
  ::munmap(mapping, 2 * static_cast<std::size_t>(page));
}

// A block that only another thread holds, in a local of its running frame
// (a pool's worker and the task it runs), is reached: that thread is
// stopped and its stack and registers read. One held only by a frame the
// worker has returned from is not. The worker goes on afterwards.
TEST_F(Reachability, ABlockAnotherThreadHoldsOnItsStackIsReached) {
  allocgate::detail::prepare_reachability();
  ASSERT_TRUE(allocgate::detail::prepare_stopping_threads());
  std::atomic<std::uintptr_t> held_bits{0};
  std::atomic<bool> release{false};
  std::atomic<int> spins{0};
  std::thread worker([&] {
    Node* const held = new Node;  // its only pointer: this frame's, or a register
    held_bits = reinterpret_cast<std::uintptr_t>(held) ^ 1;
    while (!release.load()) {
      asm volatile("" : : "r"(held) : "memory");
      spins.fetch_add(1);
      std::this_thread::yield();
    }
    delete held;
  });
  while (held_bits.load() == 0) std::this_thread::yield();
  const auto* held = reinterpret_cast<const Node*>(held_bits.load() ^ 1);
  ReachedBlocks reached;
  mark_reachable(reached, __builtin_frame_address(0));
  EXPECT_TRUE(reached.complete());
  EXPECT_TRUE(reached.contains(held));
  // Let go, the worker runs on: its spins go on counting.
  const int before = spins.load();
  while (spins.load() == before) std::this_thread::yield();
  release = true;
  worker.join();
}

// A word the roots held before a test's body began, unchanged at its end,
// was written before any block the body allocated: a global still holding
// the address of a block freed long ago, which malloc hands the body again,
// keeps nothing the verdict judges (RootSnapshot). Without the snapshot it
// kept it, and a leak hid: doctest's static signal handlers, filled from
// glibc's stack, held such an address now and then.
Node* volatile g_stale = nullptr;
Node* volatile g_written = nullptr;
std::uintptr_t g_judged_bits = 0;  // flipped: no word of the test's holds the block
bool judged(const void* block) noexcept { return (reinterpret_cast<std::uintptr_t>(block) ^ 1) == g_judged_bits; }

TEST_F(Reachability, AWordUnchangedSinceTheBodyBeganKeepsNoBlockAllocatedSince) {
  Node* const old = new Node;
  g_stale = old;
  delete old;  // g_stale now dangles
  allocgate::detail::RootSnapshot before;
  ASSERT_TRUE(before.take(__builtin_frame_address(0)));
  Node* const fresh = new Node;
  if (fresh != old) {
    delete fresh;
    GTEST_SKIP() << "this malloc did not hand the freed block out again";
  }
  g_judged_bits = reinterpret_cast<std::uintptr_t>(fresh) ^ 1;
  ReachedBlocks without;
  mark_reachable(without, __builtin_frame_address(0));
  EXPECT_TRUE(without.contains(fresh)) << "the stale word, followed";
  ReachedBlocks with;
  mark_reachable(with, __builtin_frame_address(0), nullptr, &before, judged);
  ASSERT_TRUE(with.complete());
  EXPECT_FALSE(with.contains(fresh));
  // Written since, the same word keeps it.
  g_written = fresh;
  ReachedBlocks written;
  mark_reachable(written, __builtin_frame_address(0), nullptr, &before, judged);
  EXPECT_TRUE(written.contains(fresh));
  g_written = nullptr;
  // Unchanged but to a block the verdict does not judge: followed.
  g_judged_bits = 0;
  ReachedBlocks unjudged;
  mark_reachable(unjudged, __builtin_frame_address(0), nullptr, &before, judged);
  EXPECT_TRUE(unjudged.contains(fresh));
  g_stale = nullptr;
  delete fresh;
}

// allocgate's own mappings (the block table, the marking's arrays) hold
// block addresses, and the kernel joins such a mapping to a neighbour: a
// thread's stack or thread-local storage, cut to its mapping, then ran on
// into it, and every block it listed was kept, a leak hidden as mappings
// happened to lie. Here a page of globals stands for one: registered as
// allocgate's, what it holds keeps nothing; let go, it is a root again.
alignas(4096) std::uintptr_t g_page[512];

TEST_F(Reachability, AllocgatesOwnMappingsAreNoRoot) {
  Node* const block = new Node;
  g_page[17] = reinterpret_cast<std::uintptr_t>(block);
  allocgate::detail::own_pages_mapped(g_page, sizeof g_page);
  ReachedBlocks own;
  mark_reachable(own, __builtin_frame_address(0));
  allocgate::detail::own_pages_forgotten(g_page, sizeof g_page);
  ReachedBlocks root;
  mark_reachable(root, __builtin_frame_address(0));
  EXPECT_TRUE(own.complete());
  EXPECT_FALSE(own.contains(block));
  EXPECT_TRUE(root.contains(block));
  g_page[17] = 0;
  delete block;
}

// A forked child's heap grows in a mapping of its own beside the one it
// inherited, and /proc/self/maps lists the two apart. The block malloc
// carves across the seam is held by a global like any other, and reached;
// before, its size ran past the first mapping's end, its header was taken
// for no block's, and it (and all it held) was a leak: a failure sweep's
// child judged GoogleTest's own record of a failure leaked, now and then,
// as the parent's heap happened to end.
struct Link {
  Link* previous = nullptr;
  char payload[232] = {};
};
Link* volatile g_chain = nullptr;

char* volatile g_across = nullptr;

// In the child: 0 when the block across the seam is reached, 1 when not,
// 2 when no block comes to lie across it (a malloc of its own mappings).
// Blocks are taken until what malloc's top has left before the seam is
// small; then one larger than that: malloc grows the heap and carves it
// from where the top began, across the seam.
int reach_across_the_seam() {
  const auto seam = reinterpret_cast<std::uintptr_t>(::sbrk(0));
  for (int i = 0; i < 1 << 18; ++i) {
    auto* link = new Link;
    link->previous = g_chain;
    g_chain = link;
    const auto end = reinterpret_cast<std::uintptr_t>(link + 1);
    if (end > seam) return 2;
    const std::uintptr_t left = seam - end;
    if (left >= 4096) continue;
    const std::size_t size = left + 512;
    char* const across = new char[size];
    g_across = across;
    const auto header = reinterpret_cast<std::uintptr_t>(across) - 16;
    if (!(header < seam && seam < reinterpret_cast<std::uintptr_t>(across) + size)) return 2;
    ReachedBlocks reached;
    mark_reachable(reached, __builtin_frame_address(0));
    return reached.complete() && reached.contains(across) ? 0 : 1;
  }
  return 2;
}

TEST_F(Reachability, ABlockAcrossTheSeamOfAForkedChildsHeapIsReached) {
  allocgate::detail::prepare_reachability();
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) ::_exit(reach_across_the_seam());
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status)) << status;
  if (WEXITSTATUS(status) == 2) GTEST_SKIP() << "this malloc lays no block across the heap's seam";
  EXPECT_EQ(WEXITSTATUS(status), 0) << "the block across the seam was not reached";
}

TEST_F(Reachability, StoppingThreadsStopsEachOtherThreadAndLetsThemGo) {
  allocgate::detail::prepare_reachability();
  ASSERT_TRUE(allocgate::detail::prepare_stopping_threads());
  std::atomic<bool> release{false};
  std::atomic<int> ready{0};
  std::thread a([&] {
    ready.fetch_add(1);
    while (!release.load()) std::this_thread::yield();
  });
  std::thread b([&] {
    ready.fetch_add(1);
    while (!release.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  });
  while (ready.load() < 2) std::this_thread::yield();
  {
    const allocgate::detail::StoppedThreads stopped;
    EXPECT_GE(stopped.size(), 2u);  // and a sanitizer's own threads, where they take the signal
    EXPECT_EQ(stopped.unanswered(), 0u);
    for (std::size_t i = 0; i < stopped.size(); ++i) {
      EXPECT_TRUE(stopped.stopped(i));
      EXPECT_NE(stopped[i].stack_pointer, 0u);
    }
    // One stop at a time: another made meanwhile stops nothing.
    const allocgate::detail::StoppedThreads second;
    EXPECT_EQ(second.size(), 0u);
  }
  release = true;
  a.join();
  b.join();
}

}  // namespace
