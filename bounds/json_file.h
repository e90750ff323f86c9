// Reading and writing JSON files: one-line errors on read, and writes that
// never leave a half-written file (a temporary beside the target, then rename).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "input_error.h"

namespace allocgate::reports {

/// Parses the file; throws InputError "FILE: cannot read: ..." or
/// "FILE: malformed JSON at byte N".
nlohmann::json read_json_file(const std::filesystem::path& file);

/// Runs read(), which checks a parsed document's shape; a
/// nlohmann::json::exception that escapes it (a check that was missed) becomes
/// the same one-line InputError "source: unexpected JSON: ...", never a crash.
template <class Read>
auto with_json_errors(const std::string& source, Read read) -> decltype(read()) {
  try {
    return read();
  } catch (const nlohmann::json::exception& e) {
    throw InputError(source + ": unexpected JSON: " + e.what());
  }
}

/// Parses text that came from `source` (a file name for messages).
nlohmann::json parse_json(std::string_view text, const std::string& source);

/// A figure as JSON: an integer when it is one (15022, not 15022.0), else a
/// double. nlohmann writes numbers the same in every locale.
nlohmann::json json_number(double value);

/// Writes text to a temporary file in file's directory, then renames it over
/// file: a reader sees the old contents or the new, never a mix. Throws
/// InputError when the directory cannot be written.
void write_file_atomically(const std::filesystem::path& file, std::string_view text);

}  // namespace allocgate::reports
