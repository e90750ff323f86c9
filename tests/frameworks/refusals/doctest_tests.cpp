// SPDX-License-Identifier: Apache-2.0
// The suite's one test: 1 allocation of 101 bytes, whichever doctest runs it.
#include "which_doctest.h"

#include <string>

TEST_CASE("a string of 100 characters") {
  const std::string text(100, 'x');
  CHECK(text.size() == 100);
}
