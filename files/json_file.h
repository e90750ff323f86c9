// SPDX-License-Identifier: Apache-2.0
// Reading and writing JSON files: one-line errors on read (json_file.cpp), and
// writes that never leave a half-written file (atomic_write.cpp).
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

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

/// The file a write to `file` replaces: through any chain of symlinks to the
/// final target, so that a link stays a link and its target gets the content.
/// Throws InputError when a link cannot be read or loops.
std::filesystem::path replaced_file(std::filesystem::path file);

/// Writes text to a temporary file in file's directory, then renames it over
/// file: a reader sees the old contents or the new, never a mix. A character
/// device or a FIFO (/dev/null, a terminal, a pipe) is written in place, never
/// renamed over; a directory, a block device or a socket is refused. A symlink is
/// written through (its target is replaced, the link kept); the new file keeps
/// the old one's mode, owner and group. The temporary has no name while it is
/// written (O_TMPFILE where the file system has it), so a process killed
/// meanwhile leaves nothing behind. Throws InputError when the directory cannot
/// be written, the owner cannot be kept, or the file has other hard links
/// (replacing it would detach them).
void write_file_atomically(const std::filesystem::path& file, std::string_view text);

/// What a producer writes its text through, a piece at a time.
using TextSink = std::function<void(std::string_view)>;
using TextProducer = std::function<void(const TextSink&)>;

/// The same, with the text written a piece at a time by `produce` (a report
/// of 1,000,000 cases never exists as one string). When produce throws,
/// nothing is replaced.
void write_file_atomically(const std::filesystem::path& file, const TextProducer& produce);
/// The same with the text printed onto a stream, a block at a time.
void print_file_atomically(const std::filesystem::path& file, const std::function<void(std::ostream&)>& print);

/// Removes the temporaries write_file_atomically(file, ...) left behind when
/// killed in the instant between naming one and renaming it, and nothing that
/// is not provably one: a regular file of the writer's, with one name, named
/// as write_file_atomically names them (".NAME.allocgate-XXXXXX") and holding
/// what `ours` recognises as that writer's complete output. A user's
/// ".NAME.backup" or ".NAME.orig12" stays. Call only while no other writer of
/// file can be running (under update_bounds_file's lock).
void remove_stale_temporaries(const std::filesystem::path& file,
                              const std::function<bool(const std::filesystem::path&)>& ours);

}  // namespace allocgate::files
