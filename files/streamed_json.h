// SPDX-License-Identifier: Apache-2.0
// A JSON array or object written a member at a time, byte for byte as
// nlohmann's dump(2) writes the whole value, each member dumped by nlohmann:
// a report of 1,000,000 cases is written without ever being one JSON value,
// whose nodes would take several times the text's size.
#pragma once

#include <cstddef>
#include <ostream>
#include <string_view>

#include <nlohmann/json.hpp>

namespace allocgate::files {

class StreamedJson {
 public:
  /// Opens an array ('[') or an object ('{') nested `indent` spaces deep.
  StreamedJson(std::ostream& out, char open, std::size_t indent = 0);
  void element(const nlohmann::json& value);
  void member(std::string_view key, const nlohmann::json& value);
  /// Writes a member's key: its value follows, written by a StreamedJson
  /// nested at nested_indent().
  void key(std::string_view key);
  std::size_t nested_indent() const { return indent_ + 2; }
  /// Closes it.
  void finish();

 private:
  void next();
  void nested(const nlohmann::json& value);

  std::ostream& out_;
  std::size_t indent_;
  char close_;
  std::size_t members_ = 0;
};

}  // namespace allocgate::files
