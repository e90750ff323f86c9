// SPDX-License-Identifier: Apache-2.0
// A suite with the classic exception-safety bugs, one a test, and clean code
// beside them: what a failure sweep (--allocgate_fail_each) must find, each
// at its line (the lines marked "found here"), and nothing else.
// Written as any GoogleTest suite is; linked with allocgate::gtest_main.

#include <gtest/gtest.h>

#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

// Keeps the optimizer from dropping an allocation whose block is not read.
template <class T>
void keep(T* p) {
  asm volatile("" : : "g"(p) : "memory");
}

struct Widget {
  std::string name = std::string(40, 'w');
};

// A raw new before a call that may throw: the widget leaks when push_back
// cannot grow the vector.
std::vector<Widget*> g_registry;
void register_widget() {
  Widget* w = new Widget;
  g_registry.push_back(w);  // found here: leaked
}

TEST(ClassicBugs, RawNewBeforeAThrowingPushBack) {
  register_widget();
  ASSERT_EQ(g_registry.size(), 1u);
  for (Widget* w : g_registry) delete w;
  g_registry.clear();
  g_registry.shrink_to_fit();
}

// A noexcept function that builds a string: std::terminate when it cannot.
std::size_t describe(int code) noexcept {
  const std::string text = "error code " + std::to_string(code) + std::string(40, '.');  // found here: terminated
  return text.size();
}

TEST(ClassicBugs, ANoexceptFunctionThatAllocates) { EXPECT_EQ(describe(7), 52u); }

// A catch (...) that returns a default: the failure becomes a wrong answer.
std::size_t length_or_zero(std::size_t n) {
  try {
    const std::string text(n, 'x');  // found here: swallowed
    return text.size();
  } catch (...) {
    return 0;
  }
}

TEST(ClassicBugs, ACatchAllThatReturnsADefault) { EXPECT_EQ(length_or_zero(100), 100u); }

// A size counted before the allocation that may fail: the bag says it holds
// an item it does not.
class Bag {
 public:
  void add(int item) {
    ++size_;
    items_.push_back(item);  // found here: swallowed (the count is off)
  }
  std::size_t size() const { return size_; }
  std::size_t items() const { return items_.size(); }

 private:
  std::size_t size_ = 0;
  std::vector<int> items_;
};

TEST(ClassicBugs, ASizeUpdatedBeforeTheAllocation) {
  Bag bag;
  try {
    bag.add(1);
  } catch (const std::bad_alloc&) {  // out of memory: the bag must still be whole
  }
  EXPECT_EQ(bag.size(), bag.items());
}

// new (std::nothrow)'s null used as a block.
TEST(ClassicBugs, ANothrowNullUsed) {
  int* numbers = new (std::nothrow) int[64];  // found here: crashed
  numbers[0] = 1;
  keep(numbers);
  EXPECT_EQ(numbers[0], 1);
  delete[] numbers;
}

// A retry on std::bad_alloc: forever, once memory has run out.
std::string retried() {
  for (;;) {
    try {
      return std::string(100, 'r');  // found here with --allocgate_fail_rest: hung
    } catch (const std::bad_alloc&) {
    }
  }
}

TEST(RetryLoop, RetriesOnBadAlloc) { EXPECT_EQ(retried().size(), 100u); }

// Clean code: every failure propagates, or is handled and the test passes.
TEST(Clean, EveryFailurePropagates) {
  std::vector<std::string> names;
  names.emplace_back(100, 'a');
  names.emplace_back(100, 'b');
  auto owned = std::make_unique<Widget>();
  EXPECT_EQ(names.size() + owned->name.size(), 42u);
}

TEST(Clean, AFailureHandledWithAFallback) {
  std::vector<int> values;
  try {
    values.reserve(4096);
  } catch (const std::bad_alloc&) {
    values.clear();  // smaller steps instead
  }
  values.push_back(1);
  EXPECT_EQ(values.size(), 1u);
}

}  // namespace
