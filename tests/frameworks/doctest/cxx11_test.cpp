// SPDX-License-Identifier: Apache-2.0
// A suite of a project built as C++11 (nlohmann/json's tests are): linking
// allocgate::doctest beside it counts its tests and leaves it C++11.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <string>

static_assert(__cplusplus == 201103L, "linking allocgate::doctest raised the suite's C++ standard");

TEST_CASE("a C++11 suite is counted") {
  const std::string text(100, 'x');
  CHECK(text.size() == 100);
}
