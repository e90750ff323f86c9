// Reading and writing JSON files: one-line errors on read (json_file.cpp), and
// writes that never leave a half-written file (atomic_write.cpp).
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "input_error.h"

namespace allocgate::reports {

/// Parses the file; throws InputError "FILE: cannot read: ..." or
/// "FILE: malformed JSON at byte N".
nlohmann::json read_json_file(const std::filesystem::path& file);

/// Receives each element of a streamed array as soon as it is complete: the
/// element, its index, and the document as far as it is read (the top-level
/// keys before the array are complete).
using JsonElementHandler = std::function<void(nlohmann::json&& element, std::size_t index, const nlohmann::json& so_far)>;

/// read_json_file, streaming the array under the top-level object's
/// `array_key`: each element goes to on_element and is left out of the
/// returned document (where the array is empty), so that memory holds one
/// element at a time, not the whole array.
nlohmann::json read_json_file_streaming(const std::filesystem::path& file, std::string_view array_key,
                                        const JsonElementHandler& on_element);

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

/// Nesting a report or bounds file may have. Real ones nest 6 deep (a
/// stack's frames); deeper documents are refused before anything recurses.
inline constexpr int kMaxJsonDepth = 64;

/// Parses text that came from `source` (a file name for messages). Throws
/// InputError when it is not JSON, nests deeper than kMaxJsonDepth, has a key
/// twice in one object, or holds a NUL byte.
nlohmann::json parse_json(std::string_view text, const std::string& source);
nlohmann::json parse_json_streaming(std::string_view text, const std::string& source, std::string_view array_key,
                                    const JsonElementHandler& on_element);

/// A figure as JSON: an integer when it is one (15022, not 15022.0), else a
/// double. nlohmann writes numbers the same in every locale.
nlohmann::json json_number(double value);

/// The file a write to `file` replaces: through any chain of symlinks to the
/// final target, so that a link stays a link and its target gets the content.
/// Throws InputError when a link cannot be read or loops.
std::filesystem::path replaced_file(std::filesystem::path file);

/// Writes text to a temporary file in file's directory, then renames it over
/// file: a reader sees the old contents or the new, never a mix. A symlink is
/// written through (its target is replaced, the link kept); the new file keeps
/// the old one's mode, owner and group. The temporary has no name while it is
/// written (O_TMPFILE where the file system has it), so a process killed
/// meanwhile leaves nothing behind. Throws InputError when the directory cannot
/// be written, the owner cannot be kept, or the file has other hard links
/// (replacing it would detach them).
void write_file_atomically(const std::filesystem::path& file, std::string_view text);

/// Removes the temporaries write_file_atomically(file, ...) left behind when
/// killed in the instant between naming one and renaming it. Call only while
/// no other writer of file can be running (under update_bounds_file's lock).
void remove_stale_temporaries(const std::filesystem::path& file);

}  // namespace allocgate::reports
