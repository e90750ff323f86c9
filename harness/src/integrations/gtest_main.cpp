// SPDX-License-Identifier: Apache-2.0
// main() for test binaries that link allocgate::gtest_main in place of
// GTest::gtest_main: GoogleTest's own main, every test counted (the calls
// below reach allocgate's wrappers, gtest_counting.h).

#include <gtest/gtest.h>

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
