// SPDX-License-Identifier: Apache-2.0
// A doctest suite written as its tutorial writes one, with no line of
// allocgate's (run_doctest.sh derives each run's figures and checks them).
// Sizes are libstdc++'s: a std::string of n > 15 characters allocates n + 1.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "../shared/verdict_cases.h"

static int factorial(int number) { return number <= 1 ? number : factorial(number - 1) * number; }

TEST_CASE("testing the factorial function") {
#ifdef ALLOCGATE_GROWN  // the build run_doctest.sh gates: one allocation more
  const std::string grown(100, 'g');
#endif
  CHECK(factorial(1) == 1);
  CHECK(factorial(2) == 2);
  CHECK(factorial(3) == 6);
  CHECK(factorial(10) == 3628800);
}

TEST_CASE("vectors can be sized and resized") {
  std::vector<int> v(5);  // 20 B
  REQUIRE(v.size() == 5);
  REQUIRE(v.capacity() >= 5);
  SUBCASE("adding to the vector increases its size") {
    v.push_back(1);  // grown to 10: 40 B
    CHECK(v.size() == 6);
    CHECK(v.capacity() >= 6);
  }
  SUBCASE("reserving increases just the capacity") {
    v.reserve(6);  // 24 B
    CHECK(v.size() == 5);
    CHECK(v.capacity() >= 6);
  }
}

TEST_CASE("messages are doctest's") {
  const std::string s(40, 'm');  // 41 B
  INFO("the string is ", s, ", and this message is long enough to need the heap");
  CAPTURE(s);
  MESSAGE("a message of the test's, long enough for the heap: ", s);
  CHECK(s.size() == 40);
}

TEST_CASE("a failing check is reported with its figures") {
  const std::string s(30, 'f');  // 31 B
  CHECK(s.size() == 29);
}

TEST_CASE("a skipped test is not a case" * doctest::skip()) {
  const std::string s(30, 's');
  CHECK(s.empty());
}

struct Fixture {
  std::string name = std::string(40, 'x');  // 41 B, built with the test
};

TEST_CASE_FIXTURE(Fixture, "a fixture is the test's") {
  name += "y";  // 81 B: the string doubles
  CHECK(name.size() == 41);
}

static const std::string& table() {
  static const std::string t(100, 't');  // 101 B, once: a first use's
  return t;
}

TEST_CASE("a static built on first use") { CHECK(table().size() == 100); }

TEST_CASE("a deliberate leak") {
  auto* leaked = new std::string(50, 'l');  // 51 B, and the string object
  CHECK(leaked->size() == 50);
}

TEST_CASE("a thread's allocations are the test's") {
  std::thread worker([] { const std::string s(40, 'w'); });  // the thread's state, and 41 B on it
  worker.join();
}

// The verdicts that must not flip: each checked in 100 runs by the run script.
TEST_CASE("a small leak") {
  int* p = new int(4);  // 4 B
  REQUIRE(*p == 4);
}

TEST_CASE("a worker holds what it was handed") { verdict_cases::hand_work_to_a_worker(); }  // kept, not leaked

TEST_CASE("an exception ends the test") { verdict_cases::throw_with_a_message(); }  // its blocks are not a leak

// doctest names each instance by its type: int and std::int32_t are one
// type, two instances of one name, each then named by its place.
TEST_CASE_TEMPLATE("a test case per type", T, int, std::int32_t, double) {
  const std::vector<T> v(3);  // 12 B, 12 B, 24 B
  CHECK(v.size() == 3);
}

// Skipped (run with --no-skip): a run that ends inside a test writes no
// report and says so, and an earlier run's report is not left for the gate.
TEST_CASE("ends the process" * doctest::skip()) { std::exit(0); }
