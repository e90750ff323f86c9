// SPDX-License-Identifier: Apache-2.0
// A suite of a project built as C++11 and laid out as nlohmann/json's: the
// main compiled once in an OBJECT library (cxx11_main.cpp) that links
// allocgate::doctest, the tests in a binary that links that library. Its
// tests are counted, and it stays C++11.
#include <doctest/doctest.h>

#include <string>

static_assert(__cplusplus == 201103L, "linking allocgate::doctest raised the suite's C++ standard");

TEST_CASE("a C++11 suite is counted") {
  const std::string text(100, 'x');
  CHECK(text.size() == 100);
}
