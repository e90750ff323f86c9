// SPDX-License-Identifier: Apache-2.0
// Reading a JSON document a part at a time, never whole: what keeps a
// command within a few times its input when a report holds 1,000,000 small
// cases, where a parsed document (simdjson's tape, or nlohmann's nodes) takes
// four to ten times the text. The file is read a block at a time through
// nlohmann's SAX parser; only the members of the containers the handler
// streams are built, one at a time, as nlohmann::json.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace allocgate::files {

/// Where a value is: its key in an object, or its index in an array.
struct JsonPathPart {
  std::string key;
  std::size_t index = 0;
  bool in_array = false;
};
using JsonPath = std::vector<JsonPathPart>;

class JsonStreamHandler {
 public:
  virtual ~JsonStreamHandler() = default;
  /// Whether the object or array that begins at `path` (empty: the root) is
  /// streamed, its members handed to value() one by one, rather than built
  /// and handed over whole. Asked only of the root and of members of a
  /// streamed container. May throw InputError to refuse the document.
  virtual bool stream(const JsonPath& path, bool is_array) = 0;
  /// A member of a streamed container, whole (path ends with its key or
  /// index), or the root when it is not streamed (path empty). The keys of a
  /// streamed object are not checked for duplicates: value() sees each.
  virtual void value(const JsonPath& path, nlohmann::json value) = 0;
};

/// Streams a file's JSON to handler, with read_json_document's checks and
/// one-line InputErrors: a file that cannot be read or is a directory, more
/// than kMaxJsonFileBytes, nesting deeper than kMaxJsonDepth, a key twice in
/// one built object, a NUL byte, malformed JSON (naming the byte), Google
/// Benchmark's CSV. A UTF-8 byte order mark is skipped, and Google
/// Benchmark's non-finite figures (NaN, inf) outside strings read as null.
void stream_json_file(const std::filesystem::path& file, JsonStreamHandler& handler);

/// The same on text that came from `source` (a name for messages).
void stream_json_text(std::string_view text, const std::string& source, JsonStreamHandler& handler);

}  // namespace allocgate::files
