// SPDX-License-Identifier: Apache-2.0
#include "name_order.h"

namespace allocgate::reports {
namespace {

bool digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

bool name_before(std::string_view a, std::string_view b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (digit(a[i]) && digit(b[j])) {
      // The runs without their leading zeros: the longer is the larger; of
      // two as long, the first digit that differs decides.
      std::size_t i_end = i, j_end = j;
      while (i_end < a.size() && digit(a[i_end])) ++i_end;
      while (j_end < b.size() && digit(b[j_end])) ++j_end;
      std::size_t i_start = i, j_start = j;
      while (i_start + 1 < i_end && a[i_start] == '0') ++i_start;
      while (j_start + 1 < j_end && b[j_start] == '0') ++j_start;
      const std::string_view x = a.substr(i_start, i_end - i_start), y = b.substr(j_start, j_end - j_start);
      if (x.size() != y.size()) return x.size() < y.size();
      if (x != y) return x < y;
      if (i_end - i != j_end - j) return i_end - i < j_end - j;  // "7" before "07"
      i = i_end, j = j_end;
      continue;
    }
    if (a[i] != b[j]) return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]);
    ++i, ++j;
  }
  return a.size() - i < b.size() - j;
}

}  // namespace allocgate::reports
