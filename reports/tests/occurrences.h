// SPDX-License-Identifier: Apache-2.0
// Test support: how many times a text names something, for the tests that
// check a finding is printed once however many cases share it.
#pragma once

#include <cstddef>
#include <string_view>

namespace allocgate::reports::test {

inline std::size_t occurrences(std::string_view text, std::string_view needle) {
  std::size_t count = 0;
  for (std::size_t at = 0; (at = text.find(needle, at)) != std::string_view::npos; at += needle.size()) ++count;
  return count;
}

}  // namespace allocgate::reports::test
