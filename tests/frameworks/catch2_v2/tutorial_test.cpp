// SPDX-License-Identifier: Apache-2.0
// A Catch2 v2 suite written as its tutorial writes one, with no line of
// allocgate's (run_catch2_v2.sh derives each run's figures and checks them).
// Sizes are libstdc++'s: a std::string of n > 15 characters allocates n + 1.
// Its main is tutorial_main.cpp's, as the tutorial's "Scaling up" puts it.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "../shared/verdict_cases.h"

static unsigned int Factorial(unsigned int number) { return number <= 1 ? number : Factorial(number - 1) * number; }

TEST_CASE("Factorials are computed", "[factorial]") {
#ifdef ALLOCGATE_GROWN  // the build run_catch2_v2.sh gates: one allocation more
  const std::string grown(100, 'g');
#endif
  REQUIRE(Factorial(1) == 1);
  REQUIRE(Factorial(2) == 2);
  REQUIRE(Factorial(10) == 3628800);
}

TEST_CASE("vectors can be sized and resized", "[vector]") {
  std::vector<int> v(5);  // 20 B
  REQUIRE(v.size() == 5);
  SECTION("resizing bigger changes size and capacity") {
    v.resize(10);  // 40 B
    REQUIRE(v.size() == 10);
  }
  SECTION("reserving bigger changes capacity but not size") {
    v.reserve(10);  // 40 B
    REQUIRE(v.capacity() >= 10);
    SECTION("reserving down unused capacity does not change capacity") {
      v.reserve(7);
      REQUIRE(v.capacity() >= 10);
    }
  }
}

TEST_CASE("a string per generated length") {
  const int length = GENERATE(20, 40, 60);
  const std::string s(static_cast<std::size_t>(length), 'g');  // length + 1 B
  INFO("the length is " << length << ", and this message is long enough to need the heap");
  CAPTURE(s);
  REQUIRE(s.size() == static_cast<std::size_t>(length));
}

TEST_CASE("a failing check is reported with its figures") {
  const std::string s(30, 'f');  // 31 B
  CHECK(s.size() == 29);
}

struct Fixture {
  std::string name = std::string(40, 'x');  // 41 B, built with the test
};

TEST_CASE_METHOD(Fixture, "a fixture is the test's") {
  name += "y";  // 81 B: the string doubles
  REQUIRE(name.size() == 41);
}

static const std::string& table() {
  static const std::string t(100, 't');  // 101 B, once: a first use's
  return t;
}

TEST_CASE("a static built on first use") { REQUIRE(table().size() == 100); }

TEST_CASE("a deliberate leak") {
  auto* leaked = new std::string(50, 'l');  // 51 B, and the string object
  REQUIRE(leaked->size() == 50);
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

// Hidden (run with "[exits]"): a run that ends inside a test writes no report
// and says so, and an earlier run's report is not left for the gate.
TEST_CASE("ends the process", "[.exits]") { std::exit(0); }
