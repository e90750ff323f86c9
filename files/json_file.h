// SPDX-License-Identifier: Apache-2.0
// Reading and writing JSON files: one-line errors on read (json_file.cpp), and
// writes that never leave a half-written file (atomic_write.h).
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "atomic_write.h"
#include "input_error.h"

// simdjson.h takes seconds to compile: only the readers include it.
namespace simdjson::dom {
class document;
class element;
}  // namespace simdjson::dom

namespace allocgate::files {

/// A parsed, checked JSON document (parse_document). Read with simdjson: a
/// report of 100,000 cases parses in a fifth of a second, where a DOM of
/// nlohmann::json objects takes seven times as long. Its values point into
/// the document and are valid while it lives.
class JsonDocument {
 public:
  explicit JsonDocument(std::unique_ptr<simdjson::dom::document> document);
  JsonDocument(JsonDocument&&) noexcept;
  ~JsonDocument();
  simdjson::dom::element root() const;

 private:
  std::unique_ptr<simdjson::dom::document> document_;  // on the heap: elements point at it
};

/// Nesting a report or bounds file may have. Real ones nest 6 deep (a
/// stack's frames); deeper documents are refused before anything recurses.
inline constexpr int kMaxJsonDepth = 64;

/// The most a JSON file may hold: a report of 300,000 cases is 156 MB. A
/// larger file, or an input that never ends (/dev/zero, a pipe), is refused
/// when it reaches this size, before memory runs out.
inline constexpr std::size_t kMaxJsonFileBytes = std::size_t{1} << 30;

/// Parses text that came from `source` (a file name for messages). Throws
/// InputError when it is not JSON, nests deeper than kMaxJsonDepth, has a key
/// twice in one object, or holds a NUL byte or another raw control character.
/// Google Benchmark's non-finite figures (NaN, inf) are read as null.
JsonDocument parse_document(std::string_view text, const std::string& source);

/// parse_document on a file's content, less a UTF-8 byte order mark (RFC
/// 8259 lets a reader ignore one); also throws InputError "FILE: ..." when
/// the file cannot be read, is a directory, or holds more than
/// kMaxJsonFileBytes.
JsonDocument read_json_document(const std::filesystem::path& file);

/// The same, as nlohmann::json: for small documents that are changed or
/// written back (a bounds file being updated, a context).
nlohmann::json parse_json(std::string_view text, const std::string& source);
nlohmann::json read_json_file(const std::filesystem::path& file);
nlohmann::json to_nlohmann(simdjson::dom::element value);

/// Runs read(), which checks a parsed document's shape; an nlohmann
/// exception that escapes it (the simdjson readers use error codes only) (a check that was missed) becomes the same
/// one-line InputError "source: unexpected JSON: ...", never a crash.
template <class Read>
auto with_json_errors(const std::string& source, Read read) -> decltype(read()) {
  try {
    return read();
  } catch (const nlohmann::json::exception& e) {
    throw InputError(source + ": unexpected JSON: " + e.what());
  }
}

/// A figure as JSON: an integer when it is one (15022, not 15022.0), else a
/// double. nlohmann writes numbers the same in every locale.
nlohmann::json json_number(double value);

}  // namespace allocgate::files
