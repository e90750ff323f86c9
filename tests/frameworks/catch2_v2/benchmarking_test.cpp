// SPDX-License-Identifier: Apache-2.0
// A Catch2 v2 suite built with benchmarking, beside an allocgate::catch2
// built without it: refused in one line (run_catch2_v2.sh).
#define CATCH_CONFIG_ENABLE_BENCHMARKING
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include <string>

TEST_CASE("a benchmark") {
  BENCHMARK("copying a string") { return std::string(40, 'b'); };
}
