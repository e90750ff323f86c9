// SPDX-License-Identifier: Apache-2.0
/// @file
/// One frame of an allocation's stack, and how it is printed: used by the
/// call-site capture (sites.h) and by the reports that carry its results.
#pragma once

#include "allocgate/standard.h"  // C++17, said in one line

#include <string>

namespace allocgate {

/// One frame: function (demangled, without its parameter list), source file
/// and line. Inlined calls are frames of their own.
struct SiteFrame {
  std::string function;
  std::string file;  ///< relative to the source root when under it; empty if unknown
  unsigned line = 0;

  friend bool operator==(const SiteFrame& a, const SiteFrame& b) {
    return a.function == b.function && a.file == b.file && a.line == b.line;
  }
  friend bool operator!=(const SiteFrame& a, const SiteFrame& b) { return !(a == b); }
};

/// "function (file:line)", or "function" when the file is unknown.
inline std::string to_string(const SiteFrame& frame) {
  if (frame.file.empty()) return frame.function;
  return frame.function + " (" + frame.file + ":" + std::to_string(frame.line) + ")";
}

}  // namespace allocgate
