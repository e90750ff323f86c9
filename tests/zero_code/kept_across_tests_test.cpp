// SPDX-License-Identifier: Apache-2.0
// A suite whose tests keep blocks on purpose for later tests: an interning
// cache, with allocgate::KeptAcrossTests around what it keeps and without.
// zero_code_gtest_test.cpp runs it with the leak check on.

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "allocgate/guards.h"

namespace {

// Interns names for the program's life: what a test adds is for later tests.
std::set<std::string>& names() {
  static std::set<std::string> interned;
  return interned;
}

TEST(Interning, KeptOnPurposeIsNotALeak) {
  {
    const allocgate::KeptAcrossTests kept;
    names().insert(std::string(40, 'k'));
  }
  EXPECT_EQ(names().count(std::string(40, 'k')), 1u);
}

TEST(Interning, KeptWithoutSayingSoIsALeak) {
  names().insert(std::string(40, 'u'));
  EXPECT_EQ(names().count(std::string(40, 'u')), 1u);
}

}  // namespace
