// SPDX-License-Identifier: Apache-2.0
// A doctest suite's main, compiled once in an OBJECT library that links
// allocgate::doctest (CMakeLists.txt), with whichever doctest.h the
// library's include directories give first: a bundled header directory, as
// nlohmann/json's, or doctest::doctest's.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include "which_doctest.h"
