// SPDX-License-Identifier: Apache-2.0
// A test suite written as GoogleTest's primer writes one, with no line of
// allocgate's: linked with allocgate::gtest_main, every test is counted
// (zero_code_gtest_test.cpp derives each test's figures and checks them).
// Sizes below are libstdc++'s and libc++'s alike: a std::string of n > 22
// characters allocates n + 1 bytes, a std::vector<T>(n) n * sizeof(T).

#include <gtest/gtest.h>

#include <cstdlib>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "../frameworks/shared/verdict_cases.h"
#include "primer_style_code.h"

TEST(Strings, CopyOfALongString) {
  const std::string a(100, 'x');
  const std::string b = a;
  EXPECT_EQ(a, b);
}

TEST(Vectors, ReserveThenPush) {
  std::vector<int> v;
  v.reserve(10);
  v.push_back(1);
  EXPECT_EQ(v.size(), 1u);
}

// A fixture: its SetUp, body and TearDown are the test's; the fixture object
// itself is GoogleTest's.
class QueueTest : public ::testing::Test {
 protected:
  void SetUp() override { queue_.reserve(4); }
  void TearDown() override { queue_.clear(); }
  std::vector<int> queue_;
};

TEST_F(QueueTest, SetUpAndBody) {
  queue_.push_back(1);
  const std::string label(50, 'y');
  EXPECT_EQ(queue_.size(), 1u);
}

class SizeTest : public ::testing::TestWithParam<int> {};

TEST_P(SizeTest, AllocatesOnce) {
  const std::vector<char> buffer(static_cast<std::size_t>(GetParam()));
  EXPECT_EQ(buffer.size(), static_cast<std::size_t>(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Sizes, SizeTest, ::testing::Values(8, 64));

template <typename T>
class TypedTest : public ::testing::Test {};
using Elements = ::testing::Types<int, double>;
TYPED_TEST_SUITE(TypedTest, Elements);

TYPED_TEST(TypedTest, FourElements) {
  const std::vector<TypeParam> v(4);
  EXPECT_EQ(v.size(), 4u);
}

TEST(Threads, AThreadsAllocationsAreTheTests) { EXPECT_EQ(start_and_join_a_thread(), 100u); }

TEST(Skips, ASkippedTestIsNotACase) {
  const std::string before(30, 's');
  GTEST_SKIP() << "not run here";
}

TEST(Statics, BuiltOnFirstUseIsNotALeak) {
  static const std::string table(64, 't');
  EXPECT_EQ(table.size(), 64u);
}

TEST(Traces, ScopedTraceIsGoogleTestsOwn) {
  SCOPED_TRACE("short");
  const std::vector<int> v(2);
  EXPECT_EQ(v.size(), 2u);
}

TEST(Leaks, ADeliberateLeak) {
  const std::string* leaked = new std::string(100, 'L');
  EXPECT_EQ(leaked->size(), 100u);
}

// Frees a block older than the test and leaks a new one of its size: no
// net bytes, one leak.
std::string* older = new std::string(100, 'o');
TEST(Leaks, FreesAnOlderBlockAndLeaksANewOne) {
  delete older;
  older = nullptr;
  const std::string* leaked = new std::string(100, 'n');
  EXPECT_EQ(leaked->size(), 100u);
}

// Blocks the test leaves live but reachable are kept, not leaked: from a
// global, through a block older than the test, from a thread-local.
std::string* g_kept = nullptr;
std::vector<std::string*>* g_older_list = new std::vector<std::string*>(4);
thread_local std::string* t_kept = nullptr;
TEST(Kept, HeldByAGlobal) {
  delete g_kept;
  g_kept = new std::string(100, 'g');
  EXPECT_EQ(g_kept->size(), 100u);
}
TEST(Kept, HeldThroughABlockOlderThanTheTest) {
  delete (*g_older_list)[0];
  (*g_older_list)[0] = new std::string(100, 'v');
  EXPECT_EQ((*g_older_list)[0]->size(), 100u);
}
TEST(Kept, HeldByAThreadLocal) {
  delete t_kept;
  t_kept = new std::string(100, 't');
  EXPECT_EQ(t_kept->size(), 100u);
}
// A worker that outlives the test, as a pool's does, holding what it
// allocated in its own frames: the marking reads every thread, stopped.
TEST(Kept, HeldByAWorkersStack) { verdict_cases::hand_work_to_a_worker(); }
// Held only by a block that is itself leaked: both leaked.
struct Chain {
  std::string* next = nullptr;
};
TEST(Leaks, HeldOnlyByALeakedBlock) {
  auto* chain = new Chain{new std::string(100, 'c')};
  EXPECT_EQ(chain->next->size(), 100u);
}

TEST(Failures, AFailedTestIsReportedWithItsFigures) {
  const std::string s(40, 'z');
  EXPECT_EQ(s.size(), 40u);
  ADD_FAILURE() << "failed on purpose";
}

// Each assertion fails: the message of each is GoogleTest's report, built by
// its own functions, and the test's figures are its vector's alone.
TEST(Failures, AFailingAssertionsMessageIsGoogleTests) {
  const std::vector<int> v(2);
  EXPECT_EQ(v.size(), 3u);
  EXPECT_TRUE(v.empty());
  EXPECT_STREQ("a string that is expected", "another string that is not");
  EXPECT_NEAR(1.0, 2.0, 0.1);
  EXPECT_DOUBLE_EQ(1.0, 2.0);
}

// The test fails, charged with its exception's own allocations (the
// message), never with GoogleTest's record of it: a GoogleTest built as a
// static library and one built shared alike (tests/frameworks).
TEST(Failures, AnExceptionOutOfTheBody) { throw std::runtime_error(std::string(100, 'r')); }

TEST(Death, TheChildsAllocationsAreNotTheParents) {
  const std::string before(30, 'b');
  EXPECT_DEATH(
      {
        const std::vector<char> big(100000);
        std::fprintf(stderr, "dying with %zu\n", big.size());
        std::abort();
      },
      "dying");
}
