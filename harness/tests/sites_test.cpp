// SPDX-License-Identifier: Apache-2.0
// Call-site capture: the right function, file and line, counts and bytes per
// site, the harness's frames removed, and capture only while it is on.

#include "allocgate/sites.h"

#include <gtest/gtest-spi.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "allocgate/allocgate.h"
#include "allocgate/gtest.h"
#include "escape.h"
#include "standard_library.h"

namespace {

using allocgate::CaptureSites;
using allocgate::test::escape;

unsigned g_small_line = 0;
unsigned g_large_line = 0;

[[gnu::noinline]] void small_blocks(int n) {
  for (int i = 0; i < n; ++i) {
    g_small_line = __LINE__ + 1;  // the next line: the site of small_blocks' allocations
    char* p = new char[16];
    escape(p);
    delete[] p;
  }
}

[[gnu::noinline]] void one_large_block() {
  g_large_line = __LINE__ + 1;
  char* p = new char[4000];
  escape(p);
  delete[] p;
}

const allocgate::Site* find(const allocgate::SiteProfile& profile, const std::string& function) {
  for (const auto& site : profile.sites) {
    if (site.where.function.find(function) != std::string::npos) return &site;
  }
  return nullptr;
}

TEST(CaptureSites, NamesFunctionFileAndLineOfEachSite) {
  CaptureSites capture;
  small_blocks(10);
  one_large_block();
  capture.stop();
  const allocgate::SiteProfile profile = capture.profile();
  EXPECT_EQ(profile.allocations, 11u);
  EXPECT_EQ(profile.bytes, 10u * 16 + 4000);
  EXPECT_EQ(profile.dropped, 0u);
  ASSERT_EQ(profile.sites.size(), 2u) << profile.top(10);

  const allocgate::Site& most = profile.sites[0];  // by count
  EXPECT_NE(most.where.function.find("small_blocks"), std::string::npos) << profile.top(10);
  EXPECT_NE(most.where.file.find("sites_test.cpp"), std::string::npos);
  EXPECT_EQ(most.where.line, g_small_line);
  EXPECT_EQ(most.count, 10u);
  EXPECT_EQ(most.bytes, 160u);

  const allocgate::Site* large = find(profile, "one_large_block");
  ASSERT_NE(large, nullptr);
  EXPECT_EQ(large->where.line, g_large_line);
  EXPECT_EQ(profile.sites_by_bytes().front().where.function, large->where.function);
}

TEST(CaptureSites, RestartForgetsWhatWasCapturedAndCapturesAgain) {
  CaptureSites capture(16);
  small_blocks(20);  // more stacks than one region needs: all in one slot
  one_large_block();
  capture.restart();
  one_large_block();
  one_large_block();
  capture.stop();
  small_blocks(3);  // stopped: not captured
  const allocgate::SiteProfile profile = capture.profile();
  EXPECT_EQ(profile.allocations, 2u) << profile.top(10);
  EXPECT_EQ(profile.bytes, 8000u);
  ASSERT_EQ(profile.sites.size(), 1u) << profile.top(10);
  EXPECT_EQ(profile.sites[0].where.line, g_large_line);
  EXPECT_EQ(profile.sites[0].temporary, 2u);  // each freed before the next allocation
}

TEST(CaptureSites, RemovesTheHarnessFramesAndKeepsTheWholeStack) {
  CaptureSites capture;
  small_blocks(1);
  capture.stop();
  const auto profile = capture.profile();
  ASSERT_EQ(profile.stacks.size(), 1u);
  const auto& frames = profile.stacks[0].frames;  // outermost first
  ASSERT_FALSE(frames.empty());
  EXPECT_NE(frames.back().function.find("small_blocks"), std::string::npos);
  for (const auto& frame : frames) {
    EXPECT_EQ(frame.function.find("allocgate::detail"), std::string::npos) << frame.function;
    EXPECT_NE(frame.function.rfind("operator new", 0), 0u) << frame.function;
  }
  // The test body that called it is further out.
  bool test_body = false;
  for (const auto& frame : frames) test_body |= frame.function.find("RemovesTheHarnessFrames") != std::string::npos;
  EXPECT_TRUE(test_body);
}

TEST(CaptureSites, SourcePathsAreMadeRelativeToTheRoot) {
  CaptureSites capture;
  one_large_block();
  capture.stop();
  const std::string file = __FILE__;
  const std::string root = file.substr(0, file.rfind("/harness/"));
  const auto profile = capture.profile(root);
  ASSERT_FALSE(profile.sites.empty());
  EXPECT_EQ(profile.sites[0].where.file, "harness/tests/sites_test.cpp");
}

// Without a root, wherever the program runs from: relative to the git work
// tree the code was built in, absolute outside it (the standard library's
// headers).
TEST(CaptureSites, SourcePathsAreRelativeToTheTreeTheCodeWasBuiltIn) {
  const std::string file = __FILE__;
  const std::string root = file.substr(0, file.rfind("/harness/"));
  if (!std::filesystem::exists(root + "/.git")) GTEST_SKIP() << "built outside a git work tree";
  const std::filesystem::path cwd = std::filesystem::current_path();
  std::filesystem::current_path("/");
  CaptureSites capture;
  one_large_block();
  std::string text(100, 't');  // the standard library's frames, from its headers
  escape(text.data());
  capture.stop();
  const auto profile = capture.profile();
  std::filesystem::current_path(cwd);
  ASSERT_EQ(profile.sites.size(), 2u) << profile.top(5);
  for (const auto& site : profile.sites) EXPECT_EQ(site.where.file, "harness/tests/sites_test.cpp");
  bool header = false;
  for (const auto& stack : profile.stacks) {
    for (const auto& frame : stack.frames) {
      if (frame.file.empty() || frame.function.rfind("std::", 0) != 0) continue;
      EXPECT_EQ(frame.file.rfind("/usr/", 0), 0u) << frame.function << " " << frame.file;
      header = true;
    }
  }
  EXPECT_TRUE(header) << "no frame of the standard library's headers";
}

}  // namespace

// Outside the anonymous namespace, whose name would be part of each spelling.
namespace lib {
using allocgate::test::escape;
struct A {};
struct B {};
// Inlined where it is called by name, out of line where its address is taken.
template <class T>
[[gnu::always_inline]] inline bool Fn(T) {
  char* p = new char[24];
  escape(p);
  delete[] p;
  return true;
}
}  // namespace lib

namespace {

// One function, one spelling: the symbol table's name of an instance (which
// the demangler gives a return type) and DWARF's name of an inlined one
// (which it gives no namespace) both read "lib::Fn<...>".
TEST(CaptureSites, AFunctionTemplateIsSpelledOneWayInlinedOrNot) {
  bool (*out_of_line)(lib::A) = &lib::Fn<lib::A>;
  escape(&out_of_line);
  CaptureSites capture;
  out_of_line(lib::A{});
  lib::Fn(lib::B{});
  capture.stop();
  const auto profile = capture.profile();
  std::vector<std::string> names;
  for (const auto& stack : profile.stacks) {
    for (const auto& frame : stack.frames) {
      if (frame.function.find("Fn<") != std::string::npos) names.push_back(frame.function);
    }
  }
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"lib::Fn<lib::A>", "lib::Fn<lib::B>"})) << profile.top(5);
}

struct Holder {
  [[gnu::noinline]] char* copy() const& {
    char* p = new char[40];
    escape(p);
    return p;
  }
  [[gnu::noinline]] char* copy() && {
    char* p = new char[41];
    escape(p);
    return p;
  }
};

// A member function with a ref-qualifier ("str() const &", as
// std::ostringstream's str() is) is named, not "&".
TEST(CaptureSites, ARefQualifiedMemberIsNamedByItsName) {
  Holder holder;
  CaptureSites capture;
  char* a = holder.copy();
  char* b = Holder{}.copy();
  capture.stop();
  delete[] a;
  delete[] b;
  const auto profile = capture.profile();
  std::vector<std::string> names;
  for (const auto& stack : profile.stacks) {
    for (const auto& frame : stack.frames) {
      EXPECT_NE(frame.function.back(), '&') << frame.function;
      if (frame.function.find("Holder::copy") != std::string::npos) names.push_back(frame.function);
    }
  }
  EXPECT_EQ(names.size(), 2u) << profile.top(5);
}

TEST(CaptureSites, OnlyWhileOnAndNotWhilePaused) {
  CaptureSites capture;
  {
    allocgate::PauseCounting pause;
    small_blocks(5);
  }
  one_large_block();
  capture.stop();
  small_blocks(5);
  const auto profile = capture.profile();
  EXPECT_EQ(profile.allocations, 1u) << profile.top(10);
}

[[gnu::noinline]] void recurse_then_allocate(int depth) {
  if (depth == 0) {
    char* p = new char[8];
    escape(p);
    delete[] p;
    return;
  }
  recurse_then_allocate(depth - 1);
  escape(&depth);  // not a tail call: each depth is its own stack
}

TEST(CaptureSites, ItsOwnTableIsNotInTheFigures) {
  allocgate::AllocationScope scope;
  {
    CaptureSites capture;
    one_large_block();
  }
  const auto stats = scope.stats();
  EXPECT_EQ(stats.allocations, 1u);
  EXPECT_EQ(stats.deallocations, 1u);
  EXPECT_EQ(stats.bytes_allocated, 4000u);
}

TEST(CaptureSites, AFullTableCountsWhatItDrops) {
  CaptureSites capture(16);
  for (int depth = 0; depth < 24; ++depth) recurse_then_allocate(depth);
  capture.stop();
  const auto profile = capture.profile();
  EXPECT_EQ(profile.allocations + profile.dropped, 24u);
  EXPECT_EQ(profile.dropped, 8u);
  EXPECT_NE(profile.top(3).find("did not fit"), std::string::npos);
}

// A block captured last, then an allocation the full table drops, then the
// block freed: the free is no temporary of a stack (it used to follow a null
// slot, a crash of every leak check on a test with more stacks than the table).
TEST(CaptureSites, FreeingTheLastCapturedBlockAfterADropIsSafe) {
  CaptureSites capture(16);
  for (int depth = 0; depth < 15; ++depth) recurse_then_allocate(depth);
  char* last = new char[8];  // the table's sixteenth stack
  escape(last);
  recurse_then_allocate(20);  // a seventeenth: dropped
  delete[] last;
  capture.stop();
  const auto profile = capture.profile();
  EXPECT_EQ(profile.dropped, 1u);
  EXPECT_EQ(profile.allocations, 16u);
}

TEST(CaptureSites, AnyRequestedSizeEndsAtTheLimit) {
  CaptureSites capture(SIZE_MAX);  // used to double forever once it wrapped to 0
  recurse_then_allocate(1);
  capture.stop();
  EXPECT_EQ(capture.profile().allocations, 1u);
}

TEST(CaptureSites, NestedCapturesHandBackToTheOuterOne) {
  CaptureSites outer;
  small_blocks(2);
  {
    CaptureSites inner;
    one_large_block();
    inner.stop();
    EXPECT_EQ(inner.profile().allocations, 1u);
  }
  small_blocks(3);
  outer.stop();
  EXPECT_EQ(outer.profile().allocations, 5u);
}

const allocgate::Site* at_line(const allocgate::SiteProfile& profile, unsigned line) {
  for (const auto& site : profile.sites) {
    if (site.where.line == line && site.where.file.find("sites_test.cpp") != std::string::npos) return &site;
  }
  return nullptr;
}

// A test's workers are the test's: with kEveryThread their allocations carry
// their lines as the capture's own thread's do.
TEST(CaptureSites, EveryThreadNamesTheLinesOfTheWorkersItsThreadStarts) {
  small_blocks(0);  // g_small_line set
  one_large_block();
  CaptureSites capture(1024, allocgate::Unwinder::kCached, allocgate::CaptureThreads::kEveryThread);
  std::thread worker([] { small_blocks(7); });
  worker.join();
  one_large_block();
  capture.stop();
  std::thread([] { small_blocks(5); }).join();  // stopped: not captured
  const auto profile = capture.profile();
  const allocgate::Site* workers = at_line(profile, g_small_line);
  ASSERT_NE(workers, nullptr) << profile.top(10);
  EXPECT_NE(workers->where.function.find("small_blocks"), std::string::npos);
  EXPECT_EQ(workers->count, 7u);
  EXPECT_EQ(workers->bytes, 7u * 16);
  EXPECT_EQ(workers->temporary, 0u);  // a worker's temporaries are not told
  const allocgate::Site* own = at_line(profile, g_large_line);
  ASSERT_NE(own, nullptr) << profile.top(10);
  EXPECT_EQ(own->count, 1u);
  EXPECT_EQ(own->temporary, 1u);
  EXPECT_EQ(profile.dropped, 0u);
  // A worker's stack is whole, down to its thread's start; the
  // capture's thread's begins where the capture began.
  for (const auto& stack : profile.stacks) {
    if (stack.frames.back().line != g_small_line) continue;
    EXPECT_NE(stack.frames.back().function.find("small_blocks"), std::string::npos);
    EXPECT_GE(stack.frames.size(), 3u);
  }
}

TEST(CaptureSites, ThisThreadLeavesTheWorkersOut) {
  small_blocks(0);
  CaptureSites capture;
  std::thread([] { small_blocks(7); }).join();
  capture.stop();
  EXPECT_EQ(at_line(capture.profile(), g_small_line), nullptr) << capture.profile().top(10);
}

// Workers allocating at once from one place (its line a constant: no
// worker writes a global): every allocation in the one table, none lost to a
// race (ThreadSanitizer checks the lock), and a restart forgets theirs as it
// does the thread's own.
constexpr unsigned kWorkerLine = __LINE__ + 3;
[[gnu::noinline]] void worker_blocks(int n) {
  for (int i = 0; i < n; ++i) {
    char* p = new char[16];
    escape(p);
    delete[] p;
  }
}

TEST(CaptureSites, EveryThreadCountsWorkersAllocatingAtOnceExactly) {
  CaptureSites capture(1024, allocgate::Unwinder::kCached, allocgate::CaptureThreads::kEveryThread);
  std::thread([] { worker_blocks(3); }).join();
  capture.restart();
  std::vector<std::thread> workers;
  for (int i = 0; i < 4; ++i) workers.emplace_back([] { worker_blocks(1000); });
  for (std::thread& worker : workers) worker.join();
  capture.stop();
  const auto profile = capture.profile();
  const allocgate::Site* site = at_line(profile, kWorkerLine);
  ASSERT_NE(site, nullptr) << profile.top(10);
  EXPECT_NE(site->where.function.find("worker_blocks"), std::string::npos);
  EXPECT_EQ(site->count, 4000u);
  EXPECT_EQ(site->bytes, 4000u * 16);
}

std::string g_text;
void grow_text() {
  g_text.assign(100, 'x');
  escape(g_text.data());
}

TEST(CaptureSites, AFailingAssertionListsTheTopSites) {
  std::string().swap(g_text);
  EXPECT_NONFATAL_FAILURE(
      EXPECT_NO_ALLOCATIONS(grow_text()),
      "top sites:\n  1 allocs, " + std::to_string(allocgate::test::string_block_bytes(100)) + " B: ");
  std::string().swap(g_text);
  EXPECT_NONFATAL_FAILURE(EXPECT_NO_ALLOCATIONS(grow_text()), "grow_text (");
}

}  // namespace
