// SPDX-License-Identifier: Apache-2.0
// The C++11 suite's main, compiled once as an OBJECT library (CMakeLists.txt).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
