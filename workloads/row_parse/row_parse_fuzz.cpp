// SPDX-License-Identifier: Apache-2.0
// libFuzzer: on any bytes, the scanner, its zero-copy form and the naive
// parser return the same error or the same row.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "row_parse.h"

using namespace allocgate::workloads::row_parse;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string line(reinterpret_cast<const char*>(data), size);
  Row naive, scanned;
  RowView view;
  const ParseError expected = parse_naive(line, naive);
  if (parse(line, scanned) != expected || parse_view(line, view) != expected) std::abort();
  if (expected == ParseError::none &&
      (scanned.user_id != naive.user_id || scanned.bytes != naive.bytes || scanned.path != naive.path ||
       view.user_id != naive.user_id || view.bytes != naive.bytes || view.path != naive.path)) {
    std::abort();
  }
  return 0;
}
