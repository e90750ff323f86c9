// SPDX-License-Identifier: Apache-2.0
// The names of a Catch2 or doctest suite's runs (see run_names.h).
#include "integrations/core/run_names.h"

#include <cctype>
#include <cstdio>

#include "escape.h"

namespace allocgate::integrations {
namespace {

// Whether text[from, end) is " #" and digits, the numbering's own form.
bool is_number_suffix(std::string_view text) {
  if (text.size() < 3 || text.substr(0, 2) != " #") return false;
  for (std::size_t i = 2; i < text.size(); ++i) {
    if (std::isdigit(static_cast<unsigned char>(text[i])) == 0) return false;
  }
  return true;
}

}  // namespace

std::string run_name_part(std::string_view part) {
  // Where a closing " #N" starts, its '#' is escaped.
  std::size_t suffix = std::string_view::npos;
  if (const std::size_t hash = part.rfind(" #");
      hash != std::string_view::npos && is_number_suffix(part.substr(hash))) {
    suffix = hash + 1;
  }
  std::string out;
  out.reserve(part.size());
  for (std::size_t i = 0; i < part.size();) {
    const std::size_t length = files::utf8_sequence_length(part, i);
    if (length == 0) {
      char byte[5];
      std::snprintf(byte, sizeof byte, "\\x%02x", static_cast<unsigned char>(part[i]));
      out += byte;
      ++i;
      continue;
    }
    const char c = part[i];
    if (c == '\\' || c == '/' || i == suffix) out += '\\';
    out.append(part, i, length);
    i += length;
  }
  return out;
}

void RunNames::test_case_begins(std::string where) {
  where_ = std::move(where);
  runs_of_path_.clear();
}

std::string RunNames::next(const std::string& path) {
  std::string name = path;
  if (const int before = runs_of_path_[path]++; before > 0) name += " #" + std::to_string(before + 1);
  const auto [owner, added] = owners_.emplace(name, where_);
  if (!added && collision_.empty()) {
    collision_ = "two test cases' runs are both named \"" + name + "\" (" + owner->second + " and " + where_ +
                 "): a report keys its figures by name; rename one";
  }
  return name;
}

}  // namespace allocgate::integrations
