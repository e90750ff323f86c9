// SPDX-License-Identifier: Apache-2.0
#include "streamed_json.h"

#include <string>

namespace allocgate::files {

namespace {
// Text that is not UTF-8 (a name from a Google Benchmark JSON) is written
// with U+FFFD in its place rather than thrown on.
std::string dump(const nlohmann::json& value, int indent) {
  return value.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}
}  // namespace

StreamedJson::StreamedJson(std::ostream& out, char open, std::size_t indent)
    : out_(out), indent_(indent), close_(open == '[' ? ']' : '}') {
  out_ << open;
}

void StreamedJson::element(const nlohmann::json& value) {
  next();
  nested(value);
}

void StreamedJson::member(std::string_view name, const nlohmann::json& value) {
  key(name);
  nested(value);
}

void StreamedJson::key(std::string_view name) {
  next();
  out_ << dump(nlohmann::json(name), -1) << ": ";
}

void StreamedJson::finish() {
  if (members_ > 0) out_ << '\n' << std::string(indent_, ' ');
  out_ << close_;
}

void StreamedJson::next() { out_ << (members_++ == 0 ? "\n" : ",\n") << std::string(nested_indent(), ' '); }

// value.dump(2), each of its lines after the first indented as deep as this
// value's members: the text it has nested there in a document dumped whole.
// (JSON strings hold no raw newline, so every '\n' is a line's end.)
void StreamedJson::nested(const nlohmann::json& value) {
  const std::string text = dump(value, 2);
  const std::string indent(nested_indent(), ' ');
  std::size_t from = 0;
  for (std::size_t newline; (newline = text.find('\n', from)) != std::string::npos; from = newline + 1) {
    out_.write(text.data() + from, static_cast<std::streamsize>(newline + 1 - from));
    out_ << indent;
  }
  out_.write(text.data() + from, static_cast<std::streamsize>(text.size() - from));
}

}  // namespace allocgate::files
