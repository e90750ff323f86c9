// SPDX-License-Identifier: Apache-2.0
// What a first draft uses to cut a line into fields: a vector of strings,
// one allocation for the vector's growth and one per field too long for the
// small-string buffer. The naive variants share it.
#pragma once

#include <string>
#include <vector>

namespace allocgate::workloads {

inline std::vector<std::string> split(const std::string& line, char separator) {
  std::vector<std::string> parts;
  std::string::size_type start = 0;
  for (;;) {
    const auto end = line.find(separator, start);
    parts.push_back(line.substr(start, end - start));
    if (end == std::string::npos) return parts;
    start = end + 1;
  }
}

}  // namespace allocgate::workloads
