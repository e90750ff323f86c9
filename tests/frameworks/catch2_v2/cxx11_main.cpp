// SPDX-License-Identifier: Apache-2.0
// The C++11 suite's main, compiled once as an OBJECT library (CMakeLists.txt).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
