// SPDX-License-Identifier: Apache-2.0
// The classic exception-safety bugs, one a function, and clean code beside
// them: what a failure sweep (--allocgate_fail_each, --allocgate-fail-each)
// must find, each at its line (the lines marked "found here"), and nothing
// else. Each framework's suite (classic_bugs_test.cpp for GoogleTest,
// classic_bugs_cases.cpp for Catch2 v3 and doctest) calls them from tests
// of the same names.
#pragma once

#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace classic_bugs {

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
inline std::vector<Widget*> g_registry;
inline void register_widget() {
  Widget* w = new Widget;
  g_registry.push_back(w);  // found here: leaked
}
inline void clear_registry() {
  for (Widget* w : g_registry) delete w;
  g_registry.clear();
  g_registry.shrink_to_fit();
}

// A noexcept function that builds a string: std::terminate when it cannot.
inline std::size_t describe(int code) noexcept {
  const std::string text = "error code " + std::to_string(code) + std::string(40, '.');  // found here: terminated
  return text.size();
}

// A catch (...) that returns a default: the failure becomes a wrong answer.
inline std::size_t length_or_zero(std::size_t n) {
  try {
    const std::string text(n, 'x');  // found here: swallowed
    return text.size();
  } catch (...) {
    return 0;
  }
}

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

// Adds to the bag; out of memory, the bag must still be whole.
inline bool bag_stays_whole() {
  Bag bag;
  try {
    bag.add(1);
  } catch (const std::bad_alloc&) {
  }
  return bag.size() == bag.items();
}

// new (std::nothrow)'s null used as a block.
inline int first_of_numbers() {
  int* numbers = new (std::nothrow) int[64];  // found here: crashed
  numbers[0] = 1;
  keep(numbers);
  const int first = numbers[0];
  delete[] numbers;
  return first;
}

// A retry on std::bad_alloc: forever, once memory has run out.
inline std::string retried() {
  for (;;) {
    try {
      return std::string(100, 'r');  // found here with fail_rest: hung
    } catch (const std::bad_alloc&) {
    }
  }
}

// Clean code: every failure propagates, or is handled and the test passes.
inline std::size_t names_and_widget() {
  std::vector<std::string> names;
  names.emplace_back(100, 'a');
  names.emplace_back(100, 'b');
  auto owned = std::make_unique<Widget>();
  return names.size() + owned->name.size();
}

inline std::size_t values_with_a_fallback() {
  std::vector<int> values;
  try {
    values.reserve(4096);
  } catch (const std::bad_alloc&) {
    values.clear();  // smaller steps instead
  }
  values.push_back(1);
  return values.size();
}

}  // namespace classic_bugs
