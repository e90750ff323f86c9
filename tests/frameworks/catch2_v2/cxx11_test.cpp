// SPDX-License-Identifier: Apache-2.0
// A suite of a project built as C++11 (spdlog's are): linking allocgate::catch2
// beside it counts its tests and leaves it C++11.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include <string>

static_assert(__cplusplus == 201103L, "linking allocgate::catch2 raised the suite's C++ standard");

TEST_CASE("a C++11 suite is counted") {
  const std::string text(100, 'x');
  CHECK(text.size() == 100);
}
