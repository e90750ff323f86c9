// SPDX-License-Identifier: Apache-2.0
// A suite of a project built as C++11 (spdlog's are) and laid out as
// nlohmann/json's: the main compiled once in an OBJECT library
// (cxx11_main.cpp) that links allocgate::catch2, the tests in a binary that
// links that library. Its tests are counted, and it stays C++11.
#include <catch2/catch.hpp>

#include <string>

static_assert(__cplusplus == 201103L, "linking allocgate::catch2 raised the suite's C++ standard");

TEST_CASE("a C++11 suite is counted") {
  const std::string text(100, 'x');
  CHECK(text.size() == 100);
}
