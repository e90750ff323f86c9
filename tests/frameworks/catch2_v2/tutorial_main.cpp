// SPDX-License-Identifier: Apache-2.0
// Catch2 v2's main in a file of its own, compiled once for the programs that
// share it, as the tutorial's "Scaling up" advises: the implementation is the
// slowest file of a suite to compile.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
