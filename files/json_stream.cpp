// SPDX-License-Identifier: Apache-2.0
// json_stream.h: a file read a block at a time, filtered (a byte order mark
// skipped, NaN and inf outside strings read as null), fed to nlohmann's SAX
// parser, whose events build only what the handler does not stream.
#include "json_stream.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iterator>
#include <optional>

#include "escape.h"
#include "input_error.h"
#include "json_file.h"
#include "open_file.h"

namespace allocgate::files {

namespace {

// The text the parser sees: the file's bytes a block at a time, or a text in
// memory, with Google Benchmark's non-finite figures (it writes a counter's
// coefficient of variation as NaN when its mean is 0, and JSON has no NaN)
// replaced by null outside strings. The report readers then refuse a null
// wherever they need a figure. Filtered a block at a time, so that the
// parser's per-character reads are a pointer's compare and increment.
class FilteredInput {
 public:
  FilteredInput(OpenedFile file, const std::string& source) : file_(std::in_place, std::move(file)), source_(source) {}
  FilteredInput(std::string_view text, const std::string& source) : text_(text), source_(source) {}

  bool at_end() { return next_ == filtered_.size() && !produce(); }
  const char& peek() const { return filtered_[next_]; }
  void advance() { ++next_; }

  /// Where in the text (past any byte order mark) the parser's byte
  /// `position` came from: positions move where a literal became null.
  std::size_t original_position(std::size_t position) const {
    std::ptrdiff_t shift = 0;
    for (const auto& [at, by] : replacements_) {
      if (at < position) shift += by;
    }
    const auto original = static_cast<std::ptrdiff_t>(position) - shift;
    return original < 1 ? 1 : static_cast<std::size_t>(original);
  }
  /// The text's first bytes: enough to tell Google Benchmark's CSV.
  std::string_view head() const { return file_ ? std::string_view(head_) : text_.substr(0, kHead); }

 private:
  static constexpr std::size_t kBlock = std::size_t{1} << 16;
  static constexpr std::size_t kHead = std::size_t{1} << 16;
  static constexpr std::size_t kLongestLiteral = 9;  // "-Infinity"

  // The next block of raw bytes after `carried` kept from the last; false at the end.
  bool read_raw() {
    if (!file_) {
      if (text_offset_ >= text_.size()) return false;
      const std::size_t n = std::min(kBlock, text_.size() - text_offset_);
      raw_.append(text_.data() + text_offset_, n);
      text_offset_ += n;
      return true;
    }
    const std::size_t carried = raw_.size();
    raw_.resize(carried + kBlock);
    const std::size_t n = file_->read(raw_.data() + carried, kBlock);
    raw_.resize(carried + n);
    read_ += n;
    if (read_ > kMaxJsonFileBytes) throw file_->too_large();
    if (head_.size() < kHead) head_.append(raw_.data() + carried, std::min(n, kHead - head_.size()));
    return n > 0;
  }

  // The next filtered block into filtered_; false at the text's end.
  bool produce() {
    filtered_.clear();
    next_ = 0;
    while (filtered_.empty()) {
      const bool more = read_raw();
      if (!more && raw_.empty()) return false;
      if (!started_) {
        // A byte order mark is skipped once its three bytes are in.
        if (raw_.size() < 3 && more) continue;
        started_ = true;
        if (std::string_view(raw_).substr(0, 3) == "\xEF\xBB\xBF") raw_.erase(0, 3);
      }
      const std::size_t used = filter(more);
      raw_.erase(0, used);
    }
    return true;
  }

  // Filters raw_ into filtered_, up to where a literal might continue into
  // the next block; returns the bytes used.
  std::size_t filter(bool more) {
    static constexpr std::string_view kLiterals[] = {"-Infinity", "Infinity", "-nan", "-inf", "NaN", "nan", "inf"};
    const std::string_view raw(raw_);
    std::size_t i = 0;
    for (; i < raw.size(); ++i) {
      const char c = raw[i];
      if (c == '\0') {
        // JSON text has no raw NUL (a string must escape it); nlohmann's
        // parser would take one for the end of the text, and ignore the rest.
        throw InputError(source_ + ": malformed JSON at byte " + std::to_string(offset_ + i + 1) + " (a NUL byte)");
      }
      if (static_cast<unsigned char>(c) >= 0x80) {
        // A byte that is not part of a well-formed UTF-8 sequence becomes
        // U+FFFD, as json_file.h's reader has it; a sequence that may go on
        // into the next block is decided with it.
        if (more && raw.size() - i < 4) break;
        const std::size_t length = utf8_sequence_length(raw, i);
        if (length == 0) {
          replacements_.emplace_back(produced_ + filtered_.size(), 2);
          filtered_ += kReplacementCharacter;
        } else {
          filtered_.append(raw, i, length);
          i += length - 1;
        }
        continue;
      }
      if (in_string_) {
        if (escaped_) {
          escaped_ = false;
        } else if (c == '\\') {
          escaped_ = true;
        } else if (c == '"') {
          in_string_ = false;
        }
      } else if (c == '"') {
        in_string_ = true;
      } else if (c == 'N' || c == 'n' || c == 'i' || c == 'I' || c == '-') {
        if (more && raw.size() - i < kLongestLiteral) break;  // decided with the next block
        const std::string_view rest = raw.substr(i);
        const auto literal = std::find_if(std::begin(kLiterals), std::end(kLiterals),
                                          [&](std::string_view l) { return rest.substr(0, l.size()) == l; });
        if (literal != std::end(kLiterals)) {
          replacements_.emplace_back(produced_ + filtered_.size(), 4 - static_cast<std::ptrdiff_t>(literal->size()));
          filtered_ += "null";
          i += literal->size() - 1;
          continue;
        }
      }
      filtered_ += c;
    }
    offset_ += i;
    produced_ += filtered_.size();
    return i;
  }

  std::optional<OpenedFile> file_;  // the file read, or
  std::string_view text_;           // the text
  std::size_t text_offset_ = 0;
  const std::string& source_;
  std::string raw_;       // read, not yet filtered
  std::string filtered_;  // what the parser reads
  std::size_t next_ = 0;  // in filtered_
  std::size_t read_ = 0, offset_ = 0, produced_ = 0;
  std::string head_;
  bool started_ = false;  // past any byte order mark
  bool in_string_ = false, escaped_ = false;
  std::vector<std::pair<std::size_t, std::ptrdiff_t>> replacements_;  // (filtered offset, length change)
};

// What nlohmann's parser reads FilteredInput through: an input iterator.
class FilteredIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  FilteredIterator() = default;  // the end
  explicit FilteredIterator(FilteredInput* input) : input_(input) {}
  reference operator*() const { return input_->peek(); }
  FilteredIterator& operator++() {
    input_->advance();
    return *this;
  }
  bool operator==(const FilteredIterator& other) const { return at_end() == other.at_end(); }
  bool operator!=(const FilteredIterator& other) const { return !(*this == other); }

 private:
  bool at_end() const { return input_ == nullptr || input_->at_end(); }
  FilteredInput* input_ = nullptr;
};

// nlohmann's SAX events: members of streamed containers go to the handler,
// everything below them is built (with a check for a key twice).
class StreamingSax {
 public:
  using json = nlohmann::json;

  StreamingSax(const std::string& source, JsonStreamHandler& handler) : source_(source), handler_(handler) {}

  bool null() { return put(nullptr); }
  bool boolean(bool value) { return put(value); }
  bool number_integer(json::number_integer_t value) { return put(value); }
  bool number_unsigned(json::number_unsigned_t value) { return put(value); }
  bool number_float(json::number_float_t value, const std::string&) { return put(value); }
  bool string(std::string& value) { return put(std::move(value)); }
  bool binary(json::binary_t& value) { return put(std::move(value)); }
  bool start_object(std::size_t) { return start(false); }
  bool start_array(std::size_t) { return start(true); }
  bool end_object() { return finish(); }
  bool end_array() { return finish(); }

  bool key(std::string& key) {
    if (building_.empty()) {
      path_.back().key = std::move(key);
      return true;
    }
    json& object = *building_.back();
    if (object.contains(key)) throw InputError(source_ + ": the key \"" + key + "\" appears twice in one object");
    member_ = &object[key];
    return true;
  }

  template <class Exception>
  bool parse_error(std::size_t position, const std::string&, const Exception&) {
    error_at_ = position;
    return false;
  }

  std::optional<std::size_t> error_at() const { return error_at_; }

 private:
  template <class Value>
  bool put(Value&& value) {
    if (building_.empty()) {
      deliver(json(std::forward<Value>(value)));
    } else {
      slot() = json(std::forward<Value>(value));
    }
    return true;
  }

  // Where the next value built goes: appended to an array, or at the key just read.
  json& slot() {
    json& container = *building_.back();
    if (container.is_array()) {
      container.push_back(nullptr);
      return container.back();
    }
    return *member_;
  }

  bool start(bool is_array) {
    if (++depth_ > kMaxJsonDepth) {
      throw InputError(source_ + ": JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
    }
    json empty = is_array ? json::array() : json::object();
    if (!building_.empty()) {
      json& value = slot();
      value = std::move(empty);
      building_.push_back(&value);
    } else if (handler_.stream(path_, is_array)) {
      path_.push_back(JsonPathPart{{}, 0, is_array});
    } else {
      built_ = std::move(empty);
      building_.push_back(&built_);
    }
    return true;
  }

  bool finish() {
    --depth_;
    if (!building_.empty()) {
      building_.pop_back();
      if (building_.empty()) deliver(std::move(built_));
      return true;
    }
    path_.pop_back();
    next_member();
    return true;
  }

  void deliver(json value) {
    handler_.value(path_, std::move(value));
    next_member();
  }

  void next_member() {
    if (!path_.empty() && path_.back().in_array) ++path_.back().index;
  }

  const std::string& source_;
  JsonStreamHandler& handler_;
  JsonPath path_;  // to the member being read, within the streamed containers
  json built_;
  std::vector<json*> building_;  // the containers being built, innermost last
  json* member_ = nullptr;       // in the innermost object being built: the value at the last key
  int depth_ = 0;
  std::optional<std::size_t> error_at_;
};

void stream(FilteredInput& input, const std::string& source, JsonStreamHandler& handler) {
  StreamingSax sax(source, handler);
  if (nlohmann::json::sax_parse(FilteredIterator(&input), FilteredIterator(), &sax)) return;
  // Google Benchmark's other outputs: its CSV starts with the column names
  // (after any context lines).
  if (input.head().find("name,iterations,real_time") != std::string_view::npos) {
    throw InputError(source +
                     ": is Google Benchmark's CSV output, not a JSON report; write the JSON with "
                     "--benchmark_out=FILE --benchmark_out_format=json");
  }
  throw InputError(source + ": malformed JSON at byte " + std::to_string(input.original_position(*sax.error_at())));
}

}  // namespace

void stream_json_file(const std::filesystem::path& file, JsonStreamHandler& handler) {
  const std::string name = file.string();
  FilteredInput input(open_for_reading(file), name);
  stream(input, name, handler);
}

void stream_json_text(std::string_view text, const std::string& source, JsonStreamHandler& handler) {
  FilteredInput input(text, source);
  stream(input, source, handler);
}

}  // namespace allocgate::files
