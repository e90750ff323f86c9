// SPDX-License-Identifier: Apache-2.0
// The marking of reachability.h, in a program with block headers: a block
// is reached from a global, and through a block reached; a block held only
// by an unreached one is not; a word that leads into memory that faults
// when read is skipped, and the marking goes on past it.

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

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

// A block whose only holder is a block nothing holds.
Node* held_by_an_orphan() {
  auto* orphan = new Node;
  orphan->next = new Node;
  Node* inner = orphan->next;
  // Forget the orphan: only its own memory knows it now.
  asm volatile("" : : "g"(orphan) : "memory");
  return inner;
}

TEST(Reachability, ABlockHeldByAGlobalAndWhatItHoldsAreReachedAnOrphansAreNot) {
  g_held = new Node;
  g_held->next = new Node;
  Node* const inner = held_by_an_orphan();
  // Keep only the address's bits, not a pointer, where the marking looks.
  const std::uintptr_t inner_bits = reinterpret_cast<std::uintptr_t>(inner) ^ 1;

  ReachedBlocks reached;
  mark_reachable(reached, __builtin_frame_address(0));
  ASSERT_TRUE(reached.complete());
  EXPECT_TRUE(reached.contains(g_held));
  EXPECT_TRUE(reached.contains(g_held->next));
  EXPECT_FALSE(reached.contains(reinterpret_cast<Node*>(inner_bits ^ 1)));
  delete g_held->next;
  delete g_held;
  g_held = nullptr;
}

// A stale word can point into a mapping listed when the marking began whose
// pages fault when read (a file's pages past its end give SIGBUS, as a
// region unmapped since gives SIGSEGV). The word is skipped; before, the
// fault ended the marking incomplete, and every live block was a leak.
TEST(Reachability, AWordIntoMemoryThatFaultsIsSkippedAndTheMarkingGoesOn) {
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

}  // namespace
