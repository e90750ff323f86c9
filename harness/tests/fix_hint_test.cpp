// SPDX-License-Identifier: Apache-2.0
// Why a line allocates: each pattern with a usual fix, built here, gets its
// hint on its own line and no other's; an allocation freed before the
// thread's next one is a temporary, one kept is not.

#include <functional>
#include <map>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "allocgate/allocgate.h"
#include "allocgate/sites.h"
#include "capture/fix_hint.h"
#include "escape.h"

namespace {

using allocgate::CaptureSites;
using allocgate::test::escape;

[[gnu::noinline]] void grow_vector() {
  std::vector<int> v;
  for (int i = 0; i < 100; ++i) v.push_back(i);
  escape(v.data());
}

[[gnu::noinline]] void grow_string() {
  std::string s;
  for (int i = 0; i < 100; ++i) s += "word ";
  escape(s.data());
}

[[gnu::noinline]] void format_with_to_string() {
  std::string s = std::to_string(1e300);  // 308 characters: longer than any small-string buffer
  escape(s.data());
}

[[gnu::noinline]] void format_with_a_stream() {
  std::ostringstream out;
  out << "a value longer than the small-string buffer: " << 42;
  std::string s = out.str();
  escape(s.data());
}

struct Widget {
  long payload[4];
};

[[gnu::noinline]] void shared_from_new() {
  std::shared_ptr<Widget> p(new Widget{});
  escape(p.get());
}

[[gnu::noinline]] void big_function() {
  long a = 1, b = 2, c = 3, d = 4;
  std::function<long()> f = [a, b, c, d] { return a + b + c + d; };  // 32 bytes of captures
  escape(&f);
}

[[gnu::noinline]] void start_a_thread() {
  std::thread worker([] {});
  worker.join();
}

[[gnu::noinline]] void regex_per_call() {
  const std::regex pattern("[a-z]+[0-9]*");
  escape(&pattern);
}

[[gnu::noinline]] void fill_a_map() {
  std::map<int, int> m;
  for (int i = 0; i < 10; ++i) m[i] = i;
  escape(&m);
}

[[gnu::noinline]] void temporary_key(const std::map<std::string, int>& m) {
  int found = 0;
  const std::string_view key = "a key longer than fifteen characters";
  for (int i = 0; i < 10; ++i) found += static_cast<int>(m.count(std::string(key)));
  escape(&found);
}

// m.find("...") on a map keyed by std::string: a std::string made from the
// const char* for each lookup.
[[gnu::noinline]] void literal_key(const std::map<std::string, int>& m) {
  int found = 0;
  for (int i = 0; i < 10; ++i) found += static_cast<int>(m.find("a key longer than fifteen characters") != m.end());
  escape(&found);
}

// A temporary string of repeated characters: no key (libstdc++ tells it from
// one made of a const char*; libc++'s two constructors look alike).
[[gnu::noinline]] void temporary_fill() {
  for (int i = 0; i < 3; ++i) {
    std::string filled(40, 'x');
    escape(filled.data());
  }
}

// A temporary copy of a std::string: not a lookup key for all one can tell.
[[gnu::noinline]] void temporary_copy(const std::string& text) {
  for (int i = 0; i < 3; ++i) {
    std::string copy(text);
    escape(copy.data());
  }
}

// Fits no pattern: one plain block, kept past the next allocation.
std::vector<void*> g_kept;
[[gnu::noinline]] void plain_new() {
  for (int i = 0; i < 4; ++i) g_kept.push_back(new char[64]);
}

const allocgate::Site* site_of(const allocgate::SiteProfile& profile, const std::string& function) {
  for (const auto& site : profile.sites) {
    if (site.where.function.find(function) != std::string::npos) return &site;
  }
  return nullptr;
}

TEST(FixHint, EachPatternGetsItsHintAndNoOther) {
  const std::map<std::string, int> lookup_table{{"x", 1}};
  g_kept.reserve(16);
  CaptureSites capture;
  grow_vector();
  grow_string();
  format_with_to_string();
  format_with_a_stream();
  shared_from_new();
  big_function();
  regex_per_call();
  start_a_thread();
  fill_a_map();
  temporary_key(lookup_table);
  literal_key(lookup_table);
  temporary_copy("a text longer than the small-string buffer");
  temporary_fill();
  plain_new();
  capture.stop();
  const allocgate::SiteProfile profile = capture.profile();
  const std::pair<const char*, const char*> expected[] = {
      {"grow_vector", "std::vector that grows"},
      {"grow_string", "std::string that grows"},
      {"format_with_to_string", "std::to_chars"},
      {"format_with_a_stream", "std::to_chars"},
      {"shared_from_new", "make_shared"},
      {"big_function", "std::function whose callable does not fit"},
      {"regex_per_call", "std::regex compiled here"},
      {"start_a_thread", "std::thread started"},
      {"fill_a_map", "node-based container"},
      {"temporary_key", "heterogeneous lookup"},
      {"literal_key", "std::less<>"},
  };
  for (const auto& [function, hint] : expected) {
    const allocgate::Site* site = site_of(profile, function);
    EXPECT_NE(site, nullptr) << function << "\n" << profile.top(30);
    if (site != nullptr) {
      EXPECT_NE(site->hint.find(hint), std::string::npos) << function << ": '" << site->hint << "'";
    }
  }
#ifdef _LIBCPP_VERSION
  const std::vector<const char*> unhinted{"plain_new", "temporary_copy"};
#else
  const std::vector<const char*> unhinted{"plain_new", "temporary_copy", "temporary_fill"};
#endif
  for (const char* function : unhinted) {
    const allocgate::Site* site = site_of(profile, function);
    ASSERT_NE(site, nullptr) << function << "\n" << profile.top(30);
    EXPECT_EQ(site->hint, "") << function;
  }
  for (void* p : g_kept) delete[] static_cast<char*>(p);
  g_kept.clear();
}

// A thread emplaced into a vector that grows for it: its state is made
// inside the vector's reallocation, and is a thread's, not the vector's.
TEST(FixHint, AThreadsStateIsNotAVectorsGrowth) {
  const std::vector<allocgate::SiteFrame> libstdcxx{
      {"std::thread::thread<Pool::start()::{lambda()#1}, , void>", "", 0},
      {"void std::vector<std::thread, std::allocator<std::thread> >::_M_realloc_insert<Pool::start()::{lambda()#1}>",
       "", 0},
      {"std::thread& std::vector<std::thread, std::allocator<std::thread> >::emplace_back<Pool::start()::{lambda()#1}>",
       "", 0}};
  EXPECT_NE(allocgate::detail::fix_hint(libstdcxx, false).find("std::thread started"), std::string::npos);
  const std::vector<allocgate::SiteFrame> libcxx{
      {"std::__1::thread::thread<Pool::start()::$_0, void>", "", 0},
      {"void std::__1::vector<std::__1::thread>::__emplace_back_slow_path<Pool::start()::$_0>", "", 0}};
  EXPECT_NE(allocgate::detail::fix_hint(libcxx, false).find("std::thread started"), std::string::npos);
  // The vector's own buffer, grown, keeps its hint.
  EXPECT_NE(allocgate::detail::fix_hint({libstdcxx[1], libstdcxx[2]}, false).find("std::vector that grows"),
            std::string::npos);
}

[[gnu::noinline]] void throwaways(int n) {
  for (int i = 0; i < n; ++i) {
    char* p = new char[32];  // freed before the next allocation: a temporary
    escape(p);
    delete[] p;
  }
}

std::vector<char*> g_blocks;

[[gnu::noinline]] void kept_then_freed(int n) {
  for (int i = 0; i < n; ++i) g_blocks.push_back(new char[32]);  // each outlives the next allocation
  for (char* p : g_blocks) delete[] p;
  g_blocks.clear();
}

TEST(Temporaries, AnAllocationFreedBeforeTheThreadsNextIsOne) {
  g_blocks.reserve(16);
  CaptureSites capture;
  throwaways(7);
  kept_then_freed(5);
  capture.stop();
  const allocgate::SiteProfile profile = capture.profile();
  const allocgate::Site* thrown = site_of(profile, "throwaways");
  ASSERT_NE(thrown, nullptr) << profile.top(10);
  EXPECT_EQ(thrown->count, 7u);
  EXPECT_EQ(thrown->temporary, 7u);
  const allocgate::Site* kept = site_of(profile, "kept_then_freed");
  ASSERT_NE(kept, nullptr) << profile.top(10);
  EXPECT_EQ(kept->count, 5u);
  // The last block is freed while no allocation follows it: a temporary.
  EXPECT_EQ(kept->temporary, 1u) << profile.top(10);
}

}  // namespace
