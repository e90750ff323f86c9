// SPDX-License-Identifier: Apache-2.0
// Reading JSON files (json_file.h): parsed by simdjson, then checked for
// duplicate keys; one-line errors that say where the text broke.
// Writing them is atomic_write.cpp's.

#include "json_file.h"

#include <fcntl.h>
#include <simdjson.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>
#include <vector>

#include "escape.h"
#include "input_error.h"
#include "open_file.h"

namespace allocgate::files {

namespace {

// Google Benchmark writes a counter's coefficient of variation as NaN when its
// mean is 0 (every allocs/op aggregate of a zero-allocation benchmark), and
// JSON has no NaN. Outside strings, non-finite literals become null, which the
// report reader then refuses wherever it needs a figure.
std::string null_for_non_finite(std::string_view text) {
  static constexpr std::string_view kLiterals[] = {"-Infinity", "Infinity", "-nan", "-inf", "NaN", "nan", "inf"};
  std::string out;
  out.reserve(text.size());
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < text.size()) {
        out += text[++i];
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') in_string = true;
    bool replaced = false;
    for (const std::string_view literal : kLiterals) {
      if (text.substr(i, literal.size()) == literal) {
        out += "null";
        i += literal.size() - 1;
        replaced = true;
        break;
      }
    }
    if (!replaced) out += c;
  }
  return out;
}

// Google Benchmark writes a counter's coefficient of variation as NaN when its
// mean is 0; such a document is read again with those literals as null.
bool has_non_finite_literal(std::string_view text) {
  for (const std::string_view literal : {"NaN", "nan", "inf", "Infinity"}) {
    if (text.find(literal) != std::string_view::npos) return true;
  }
  return false;
}

// Where nlohmann's parser stops on text simdjson refused: simdjson says what
// is wrong, not where. Accepts every event; remembers the first error.
struct ErrorLocator {
  using json = nlohmann::json;
  std::optional<std::size_t> byte;
  bool null() { return true; }
  bool boolean(bool) { return true; }
  bool number_integer(json::number_integer_t) { return true; }
  bool number_unsigned(json::number_unsigned_t) { return true; }
  bool number_float(json::number_float_t, const std::string&) { return true; }
  bool string(std::string&) { return true; }
  bool binary(json::binary_t&) { return true; }
  bool start_object(std::size_t) { return true; }
  bool key(std::string&) { return true; }
  bool end_object() { return true; }
  bool start_array(std::size_t) { return true; }
  bool end_array() { return true; }
  template <class Exception>
  bool parse_error(std::size_t position, const std::string&, const Exception&) {
    byte = position;
    return false;
  }
};

[[noreturn]] void throw_malformed(std::string_view text, simdjson::error_code error, const std::string& source) {
  if (error == simdjson::DEPTH_ERROR) {
    throw InputError(source + ": JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
  }
  if (error == simdjson::MEMALLOC) throw std::bad_alloc();
  if (error == simdjson::CAPACITY) throw InputError(source + ": larger than the 4 GiB a JSON file may have");
  // JSON text has no raw NUL (a string must escape it); nlohmann's parser
  // would take one for the end of the text.
  if (const auto nul = text.find('\0'); nul != std::string_view::npos) {
    throw InputError(source + ": malformed JSON at byte " + std::to_string(nul + 1) + " (a NUL byte)");
  }
  // Google Benchmark's other outputs: its CSV starts with the column names
  // (after any context lines), its console output with the date.
  if (text.find("name,iterations,real_time") != std::string_view::npos) {
    throw InputError(source +
                     ": is Google Benchmark's CSV output, not a JSON report; write the JSON with "
                     "--benchmark_out=FILE --benchmark_out_format=json");
  }
  ErrorLocator locator;
  nlohmann::json::sax_parse(text, &locator);
  if (locator.byte) throw InputError(source + ": malformed JSON at byte " + std::to_string(*locator.byte));
  // Valid for nlohmann, not for simdjson: an integer beyond 64 bits.
  throw InputError(source + ": malformed JSON: " + simdjson::error_message(error));
}

// A key twice in one object: nlohmann would keep the last one silently, so
// a second entry could override a bound; simdjson keeps both. Walks the
// document once, after the parse (which bounds its depth, so recursing is
// safe).
class DuplicateKeyCheck {
 public:
  explicit DuplicateKeyCheck(const std::string& source) : source_(source) {}

  void check(simdjson::dom::element value, std::size_t depth = 0) {
    simdjson::dom::array array;
    if (value.get(array) == simdjson::SUCCESS) {
      for (const simdjson::dom::element element : array) check(element, depth + 1);
      return;
    }
    simdjson::dom::object object;
    if (value.get(object) != simdjson::SUCCESS) return;
    if (keys_.size() <= depth) keys_.resize(depth + 1);
    std::vector<std::string_view>& keys = keys_[depth];  // reused between objects at this depth
    keys.clear();
    for (const simdjson::dom::key_value_pair field : object) keys.push_back(field.key);
    if (const std::string_view* twice = find_twice(keys)) {
      throw InputError(source_ + ": the key \"" + std::string(*twice) + "\" appears twice in one object");
    }
    for (const simdjson::dom::key_value_pair field : object) check(field.value, depth + 1);
  }

 private:
  // A case's object has about 15 keys: comparing each pair (mostly a length
  // compare) is cheaper there than sorting; a bounds section's 100,000 keys
  // are sorted.
  static const std::string_view* find_twice(std::vector<std::string_view>& keys) {
    constexpr std::size_t kPairwiseUpTo = 24;
    if (keys.size() <= kPairwiseUpTo) {
      for (std::size_t i = 0; i < keys.size(); ++i) {
        for (std::size_t j = i + 1; j < keys.size(); ++j) {
          if (keys[i] == keys[j]) return &keys[i];
        }
      }
      return nullptr;
    }
    std::sort(keys.begin(), keys.end());
    const auto twice = std::adjacent_find(keys.begin(), keys.end());
    return twice == keys.end() ? nullptr : &*twice;
  }

  const std::string& source_;
  std::vector<std::vector<std::string_view>> keys_;
};

// text's buffer must hold SIMDJSON_PADDING readable bytes past its end:
// simdjson reads whole blocks. The document keeps only what it needs (the tape
// and its strings), not the parser's index of the text, nor the text.
JsonDocument parse_padded(std::string_view text, const std::string& source) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  simdjson::error_code error = parser.allocate(text.size(), kMaxJsonDepth);
  if (error == simdjson::SUCCESS) error = parser.parse(text.data(), text.size(), false).get(root);
  std::string replaced;
  const bool utf8_error = error == simdjson::UTF8_ERROR;
  if (error != simdjson::SUCCESS && error != simdjson::DEPTH_ERROR && (utf8_error || has_non_finite_literal(text))) {
    // Replaced only now, so a valid document is never copied; non-finite
    // literals only outside strings: "info" in a name stays. A byte that is
    // not UTF-8 (a Latin-1 name, a path Google Benchmark wrote as it found
    // it) becomes U+FFFD: the report is read, not refused.
    replaced = utf8_error ? utf8_replaced(text) : std::string(text);
    if (has_non_finite_literal(replaced)) replaced = null_for_non_finite(replaced);
    replaced.reserve(replaced.size() + simdjson::SIMDJSON_PADDING);
    error = parser.allocate(replaced.size(), kMaxJsonDepth);
    if (error == simdjson::SUCCESS) error = parser.parse(replaced.data(), replaced.size(), false).get(root);
  }
  if (error != simdjson::SUCCESS) throw_malformed(replaced.empty() ? text : replaced, error, source);
  // On the heap: elements point at their document.
  auto document = std::make_unique<simdjson::dom::document>(std::move(parser.doc));
  DuplicateKeyCheck(source).check(document->root());
  return JsonDocument(std::move(document));
}

struct FileText {
  std::string text;      ///< with room for simdjson's padding
  bool regular = false;  ///< a regular file, which can be read again
};

// The file's bytes, read through one descriptor so that what is checked is
// what is read.
FileText read_text(const std::filesystem::path& file) {
  const std::string name = file.string();
  OpenedFile opened = open_for_reading(file);
  // A regular file into a string of its size (and simdjson's padding), in
  // place; then whatever else there is (all of a pipe's or a device's, or what
  // a file gained meanwhile) a chunk at a time, up to the limit.
  const std::size_t expected = opened.size();
  std::string text;
  text.reserve(expected + simdjson::SIMDJSON_PADDING);
  text.resize(expected);
  std::size_t got = 0;
  while (got < expected) {
    const std::size_t n = opened.read(text.data() + got, expected - got);
    if (n == 0) break;  // it shrank meanwhile
    got += n;
  }
  text.resize(got);
  char chunk[1 << 16];
  for (std::size_t n; (n = opened.read(chunk, sizeof chunk)) > 0;) {
    if (text.size() + n > kMaxJsonFileBytes) throw opened.too_large();  // before the string grows past it
    text.append(chunk, n);
  }
  constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";
  if (std::string_view(text).substr(0, 3) == kByteOrderMark) text.erase(0, 3);
  if (text.capacity() < text.size() + simdjson::SIMDJSON_PADDING)
    text.reserve(text.size() + simdjson::SIMDJSON_PADDING);
  return {std::move(text), opened.regular()};
}

// From this size on, a file's whitespace is removed before it is parsed.
constexpr std::size_t kMinifyFrom = std::size_t{1} << 20;

}  // namespace

OpenedFile open_for_reading(const std::filesystem::path& file) {
  const std::string name = file.string();
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw InputError(name + ": cannot read: " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int error = errno;
    ::close(fd);
    throw InputError(name + ": cannot read: " + std::strerror(error));
  }
  OpenedFile opened(name, fd, S_ISREG(st.st_mode), S_ISREG(st.st_mode) ? static_cast<std::size_t>(st.st_size) : 0);
  if (S_ISDIR(st.st_mode)) throw InputError(name + ": is a directory, not a JSON file");
  if (opened.regular() && static_cast<std::uint64_t>(st.st_size) > kMaxJsonFileBytes) throw opened.too_large();
  return opened;
}

OpenedFile::OpenedFile(OpenedFile&& other) noexcept
    : name_(std::move(other.name_)), fd_(other.fd_), regular_(other.regular_), size_(other.size_) {
  other.fd_ = -1;
}

OpenedFile::~OpenedFile() {
  if (fd_ >= 0) ::close(fd_);
}

std::size_t OpenedFile::read(char* into, std::size_t size) {
  for (;;) {
    const ssize_t n = ::read(fd_, into, size);
    if (n >= 0) return static_cast<std::size_t>(n);
    if (errno != EINTR) throw InputError(name_ + ": cannot read: " + std::strerror(errno));
  }
}

InputError OpenedFile::too_large() const {
  return InputError(name_ + ": holds more than the " + std::to_string(kMaxJsonFileBytes >> 30) +
                    " GiB a JSON file may have" + (regular_ ? "" : " (an input that does not end?)"));
}

JsonDocument::JsonDocument(std::unique_ptr<simdjson::dom::document> document) : document_(std::move(document)) {}
JsonDocument::JsonDocument(JsonDocument&&) noexcept = default;
JsonDocument::~JsonDocument() = default;
simdjson::dom::element JsonDocument::root() const { return document_->root(); }

JsonDocument parse_document(std::string_view text, const std::string& source) {
  std::string padded;
  padded.reserve(text.size() + simdjson::SIMDJSON_PADDING);
  padded.assign(text);
  return parse_padded(padded, source);
}

JsonDocument read_json_document(const std::filesystem::path& file) {
  const std::string name = file.string();
  FileText read = read_text(file);
  if (!read.regular || read.text.size() < kMinifyFrom) return parse_padded(read.text, name);
  // A report is mostly indentation (a third of it). Parsed without it, the
  // text held beside the parser's tape and strings is that much smaller: what
  // keeps `compare`, which holds one report while it parses the other, within
  // 3x a report's size. Not zero-filled: only what minify writes is touched.
  std::unique_ptr<char[]> minified(new char[read.text.size() + simdjson::SIMDJSON_PADDING]);
  std::size_t length = 0;
  if (simdjson::minify(read.text.data(), read.text.size(), minified.get(), length) != simdjson::SUCCESS) {
    return parse_padded(read.text, name);
  }
  std::string().swap(read.text);
  try {
    return parse_padded({minified.get(), length}, name);
  } catch (const InputError&) {
    // Say where in the file, not in its minified text, it broke.
    minified.reset();
    return parse_padded(read_text(file).text, name);
  }
}

nlohmann::json to_nlohmann(simdjson::dom::element value) {
  // Recursion is bounded: every document is at most kMaxJsonDepth deep.
  switch (value.type()) {
    case simdjson::dom::element_type::ARRAY: {
      nlohmann::json out = nlohmann::json::array();
      // A copy, not the result's reference: the result is a temporary.
      const simdjson::dom::array array = value.get_array().value_unsafe();
      for (const simdjson::dom::element element : array) out.push_back(to_nlohmann(element));
      return out;
    }
    case simdjson::dom::element_type::OBJECT: {
      nlohmann::json out = nlohmann::json::object();
      const simdjson::dom::object object = value.get_object().value_unsafe();
      for (const simdjson::dom::key_value_pair field : object) {
        out.emplace(std::string(field.key), to_nlohmann(field.value));
      }
      return out;
    }
    case simdjson::dom::element_type::INT64: {
      // nlohmann reads a non-negative integer as unsigned; simdjson as
      // signed whenever it fits. The readers check for nlohmann's kind.
      const std::int64_t number = value.get_int64().value_unsafe();
      if (number >= 0) return static_cast<std::uint64_t>(number);
      return number;
    }
    case simdjson::dom::element_type::UINT64:
      return value.get_uint64().value_unsafe();
    case simdjson::dom::element_type::DOUBLE:
      return value.get_double().value_unsafe();
    case simdjson::dom::element_type::STRING:
      return std::string(value.get_string().value_unsafe());
    case simdjson::dom::element_type::BOOL:
      return value.get_bool().value_unsafe();
    case simdjson::dom::element_type::NULL_VALUE:
      break;
  }
  return nullptr;
}

nlohmann::json parse_json(std::string_view text, const std::string& source) {
  return to_nlohmann(parse_document(text, source).root());
}

nlohmann::json read_json_file(const std::filesystem::path& file) {
  return to_nlohmann(read_json_document(file).root());
}

nlohmann::json json_number(double value) {
  if (std::trunc(value) == value && std::fabs(value) < 9.0e15) return static_cast<std::int64_t>(value);
  return value;
}

}  // namespace allocgate::files
