// SPDX-License-Identifier: Apache-2.0
// main() for test binaries that link allocgate::gtest_main in place of
// GTest::gtest_main: GoogleTest's own main, every test counted (the calls
// below reach allocgate's wrappers, gtest_counting.h).

#include <gtest/gtest.h>

#include <iostream>

#include "integrations/gtest/gtest_counting.h"

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  // Linked by hand without the target's link options, the binary would run
  // every test uncounted and write no report, saying nothing.
  if (!allocgate::testing::detail::init_reached_allocgate()) {
    std::cerr << "allocgate: this binary was linked without allocgate::gtest_main's link options (ld --wrap of "
                 "GoogleTest's functions), so no test would be counted: link the CMake target "
                 "allocgate::gtest_main, or add the flags of `pkg-config --libs allocgate-gtest-main`\n";
    return 2;
  }
  return RUN_ALL_TESTS();
}
