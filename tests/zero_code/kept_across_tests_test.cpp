// SPDX-License-Identifier: Apache-2.0
// A suite whose tests keep blocks on purpose for later tests: an interning
// cache, with allocgate::KeptAcrossTests around what it keeps (one-time
// initialisation) and without (kept: reachable from the cache); a shared
// library's static, built on the test's call; and a leak that only an
// earlier test brings about; cases registered under the names of their data
// files, with GoogleTest's filter characters in them.
// zero_code_gtest_test.cpp runs it with the leak check on.

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <locale>
#include <map>
#include <set>
#include <stdexcept>
#include <string>

#include "allocgate/guards.h"

const std::string& library_table();  // library_with_a_static.cpp, a shared library

namespace {

// Interns names for the program's life: what a test adds is for later tests.
std::set<std::string>& names() {
  static std::set<std::string> interned;
  return interned;
}

TEST(Interning, KeptOnPurposeIsNotALeak) {
  {
    const allocgate::KeptAcrossTests kept;
    names().insert(std::string(40, 'k'));
  }
  EXPECT_EQ(names().count(std::string(40, 'k')), 1u);
}

TEST(Interning, KeptWithoutSayingSoIsKept) {
  names().insert(std::string(40, 'u'));
  EXPECT_EQ(names().count(std::string(40, 'u')), 1u);
}

TEST(Statics, AStaticInASharedLibraryIsNotALeak) { EXPECT_EQ(library_table().size(), 64u); }

// A cache the first test to look a key up fills for the tests after it:
// the first pays for the node and its key, kept; each pays for its own
// lookup key. Which test is first depends on the order they run in, until
// the run warms up (--allocgate_warm_up).
std::map<std::string, std::size_t>& lengths() {
  static std::map<std::string, std::size_t> cache;
  return cache;
}
std::size_t cached_length(const std::string& key) { return lengths().try_emplace(key, key.size()).first->second; }
TEST(Cache, FirstUser) { EXPECT_EQ(cached_length(std::string(40, 'k')), 40u); }
TEST(Cache, SecondUser) { EXPECT_EQ(cached_length(std::string(40, 'k')), 40u); }

// A locale the program keeps: reachable from the global locale, so kept.
struct PlainPunctuation : std::numpunct<char> {};
TEST(Locale, KeptByTheGlobalLocale) {
  std::locale::global(std::locale(std::locale::classic(), new PlainPunctuation));
  EXPECT_TRUE(std::has_facet<PlainPunctuation>(std::locale()));
}

// Tests that depend on the order they run in: run alone, the second leaks
// nothing, so a rerun cannot name its lines.
bool g_first_ran = false;
std::string* g_kept_after_the_first = nullptr;

TEST(Order, First) { g_first_ran = true; }

TEST(Order, LeaksOnlyAfterTheFirst) {
  if (g_first_ran) g_kept_after_the_first = new std::string(100, 'a');
  SUCCEED();
}

// Run only with --gtest_also_run_disabled_tests, which its rerun keeps.
TEST(Order, DISABLED_LeaksWhenRun) {
  const std::string* leaked = new std::string(100, 'd');
  EXPECT_EQ(leaked->size(), 100u);
}

// A leak whose address a freed block's bytes still hold, in a block that
// takes that memory next and never writes those bytes (a vector's spare
// capacity, a string's unused inline buffer), reachable from a global.
// Those bytes are cleared when the block is made: the leak is a leak.
std::uintptr_t* volatile g_holder = nullptr;  // a root the compiler keeps
TEST(Stale, ALeakIsNotKeptByBytesALiveBlockNeverWrote) {
  char* const leak = new char[48];
  std::memset(leak, 'l', 48);
  auto* scratch = new std::uintptr_t[8]();
  scratch[7] = reinterpret_cast<std::uintptr_t>(leak);
  asm volatile("" : : "g"(scratch) : "memory");
  delete[] scratch;
  g_holder = new std::uintptr_t[8];  // the same size: malloc hands scratch's memory back
  g_holder[0] = 1;                   // its other words are never written
  asm volatile("" : : "g"(g_holder) : "memory");
}

// Tests that throw out of their body: GoogleTest records the failure. Run
// only by name.
struct NotAnException {
  int code;
};
TEST(Throws, DISABLED_NotAnException) { throw NotAnException{42}; }
TEST(Throws, DISABLED_RuntimeError) { throw std::runtime_error(std::string(100, 'r')); }
TEST(Throws, DISABLED_BuildsTheSameErrorWithoutThrowing) {
  const std::runtime_error error(std::string(100, 'r'));
  EXPECT_NE(error.what(), nullptr);
}
TEST(Throws, DISABLED_CatchesItsOwnThenFails) {
  try {
    throw NotAnException{1};
  } catch (const NotAnException&) {
  }
  const std::string* kept_by_nothing = new std::string(100, 'c');
  ADD_FAILURE() << kept_by_nothing->size();
  delete kept_by_nothing;
}

// Tests that end the run before the report is written; run only by name.
TEST(Exits, DISABLED_WithStdExit) { std::exit(0); }
TEST(Exits, DISABLED_WithQuickExit) { std::quick_exit(0); }

// A data-driven suite names its cases after its files, with characters that
// GoogleTest's filter reads as its own: `-`, `*`, `?`, `:`. Each leaks its
// own number of bytes, so a rerun of the wrong case shows.
class LeaksItsFile : public ::testing::Test {
 public:
  explicit LeaksItsFile(std::size_t bytes) : bytes_(bytes) {}
  void TestBody() override {
    char* unreachable = new char[bytes_];
    std::memset(unreachable, 'f', bytes_);
    asm volatile("" : : "g"(unreachable) : "memory");
  }

 private:
  std::size_t bytes_;
};

[[maybe_unused]] const bool g_files_registered = [] {
  const std::pair<const char*, std::size_t> files[] = {
      {"parse-empty.json", 100}, {"e*f", 103}, {"eXf", 104}, {"a:b?", 105}};
  for (const auto& [name, bytes] : files) {
    ::testing::RegisterTest("Files", name, nullptr, nullptr, __FILE__, __LINE__,
                            [bytes = bytes]() -> ::testing::Test* { return new LeaksItsFile(bytes); });
  }
  return true;
}();

}  // namespace
