// Reading JSON files (json_file.h): parsed with the document's depth and keys
// checked on the way, optionally streaming one array; one-line errors.
// Writing them is atomic_write.cpp's.

#include "json_file.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <vector>

#include "input_error.h"

namespace allocgate::reports {

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

// Builds the document as nlohmann's own parser does, checking it on the way,
// before anything recurses over it: nesting deeper than kMaxJsonDepth (dump(),
// copies and comparisons recurse, and a few hundred kilobytes of brackets
// would overflow the stack) and a key twice in one object (nlohmann keeps the
// last silently, so a second entry could override a bound). A SAX handler
// around nlohmann's DOM builder, because the parser-callback interface is
// quadratic in an array's length (it scans the parent for discarded values).
//
// Streaming: the elements of one array under the top-level object are built
// apart, each handed to a callback when complete and then dropped, so that a
// report of a million cases is never one document in memory.
class CheckedDomBuilder {
 public:
  using json = nlohmann::json;
  using Dom = nlohmann::detail::json_sax_dom_parser<json>;

  CheckedDomBuilder(json& result, const std::string& source, std::string_view stream_key = {},
                    const JsonElementHandler* on_element = nullptr)
      : root_(result), dom_(result), source_(source), stream_key_(stream_key), on_element_(on_element) {}

  bool null() {
    return forward([](Dom& d) { return d.null(); });
  }
  bool boolean(bool value) {
    return forward([&](Dom& d) { return d.boolean(value); });
  }
  bool number_integer(json::number_integer_t value) {
    return forward([&](Dom& d) { return d.number_integer(value); });
  }
  bool number_unsigned(json::number_unsigned_t value) {
    return forward([&](Dom& d) { return d.number_unsigned(value); });
  }
  bool number_float(json::number_float_t value, const std::string& text) {
    return forward([&](Dom& d) { return d.number_float(value, text); });
  }
  bool string(std::string& value) {
    return forward([&](Dom& d) { return d.string(value); });
  }
  bool binary(json::binary_t& value) {
    return forward([&](Dom& d) { return d.binary(value); });
  }

  bool start_object(std::size_t elements) {
    enter();
    if (open_objects_ == keys_.size()) keys_.emplace_back();
    keys_[open_objects_++].clear();
    return forward([&](Dom& d) { return d.start_object(elements); });
  }
  bool key(std::string& name) {
    keys_[open_objects_ - 1].push_back(name);
    if (depth_ == 1) root_key_ = name;
    return forward([&](Dom& d) { return d.key(name); });
  }
  bool end_object() {
    // Sorting the object's keys at its end finds a duplicate in n log n,
    // where a set per object would allocate per key.
    std::vector<std::string>& keys = keys_[--open_objects_];
    std::sort(keys.begin(), keys.end());
    const auto twice = std::adjacent_find(keys.begin(), keys.end());
    if (twice != keys.end()) throw InputError(source_ + ": the key \"" + *twice + "\" appears twice in one object");
    --depth_;
    return forward([](Dom& d) { return d.end_object(); });
  }
  bool start_array(std::size_t elements) {
    const bool opens_stream = on_element_ != nullptr && stream_depth_ == 0 && depth_ == 1 && open_objects_ == 1 &&
                              root_key_ == stream_key_;
    enter();
    if (!opens_stream) return forward([&](Dom& d) { return d.start_array(elements); });
    stream_depth_ = depth_;
    return dom_.start_array(0);  // stays empty in the document
  }
  bool end_array() {
    if (stream_depth_ != 0 && depth_ == stream_depth_ && !element_dom_) {
      --depth_;
      stream_depth_ = -1;  // one streamed array per document
      return dom_.end_array();
    }
    --depth_;
    return forward([](Dom& d) { return d.end_array(); });
  }
  // A template, as nlohmann's: it throws the exception as its own type
  // (parse_error, out_of_range), which a base-class parameter would slice.
  template <class Exception>
  bool parse_error(std::size_t position, const std::string& last_token, const Exception& e) {
    return dom_.parse_error(position, last_token, e);
  }

 private:
  void enter() {
    if (++depth_ > kMaxJsonDepth) {
      throw InputError(source_ + ": JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
    }
  }

  // Sends an event to the document, or to the streamed element it belongs to;
  // hands the element over once the event completes it.
  template <class Event>
  bool forward(Event event) {
    const bool in_stream = stream_depth_ > 0 && depth_ >= stream_depth_;
    if (!in_stream) return event(dom_);
    if (!element_dom_) element_dom_.emplace(element_);
    const bool ok = event(*element_dom_);
    if (depth_ == stream_depth_) {
      element_dom_.reset();
      json element = std::move(element_);
      element_ = json();
      (*on_element_)(std::move(element), streamed_++, root_);
    }
    return ok;
  }

  json& root_;
  Dom dom_;
  const std::string& source_;
  int depth_ = 0;
  std::vector<std::vector<std::string>> keys_;  // per open object, reused
  std::size_t open_objects_ = 0;
  std::string root_key_;  // the top-level object's key being read
  // Streaming: the array's depth while inside it (0 before, -1 after).
  std::string_view stream_key_;
  const JsonElementHandler* on_element_;
  int stream_depth_ = 0;
  json element_;
  std::optional<Dom> element_dom_;
  std::size_t streamed_ = 0;
};

// Google Benchmark writes a counter's coefficient of variation as NaN when its
// mean is 0; such a document is read with those literals as null.
bool has_non_finite_literal(std::string_view text) {
  for (const std::string_view literal : {"NaN", "nan", "inf", "Infinity"}) {
    if (text.find(literal) != std::string_view::npos) return true;
  }
  return false;
}

nlohmann::json parse_checked(std::string_view text, const std::string& source, std::string_view stream_key,
                             const JsonElementHandler* on_element) {
  // JSON text has no raw NUL (a string must escape it); the parser would stop
  // reading at one and accept whatever came after it.
  if (const auto nul = text.find('\0'); nul != std::string_view::npos) {
    throw InputError(source + ": malformed JSON at byte " + std::to_string(nul + 1) + " (a NUL byte)");
  }
  // Replaced before parsing, not on a retry, so that a streamed element is
  // never handed over twice. Only outside strings: "info" in a name stays.
  const std::string replaced = has_non_finite_literal(text) ? null_for_non_finite(text) : std::string();
  const std::string_view parsed = replaced.empty() ? text : std::string_view(replaced);
  try {
    nlohmann::json result;
    CheckedDomBuilder builder(result, source, stream_key, on_element);
    nlohmann::json::sax_parse(parsed, &builder);
    return result;
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(source + ": malformed JSON at byte " + std::to_string(e.byte));
  } catch (const nlohmann::json::exception& e) {
    // Found by fuzzing: a number too large for a double (1e+99999) is an
    // out_of_range error, not a parse_error.
    throw InputError(source + ": malformed JSON: " + e.what());
  }
}

std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(file.string() + ": cannot read: " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw InputError(file.string() + ": cannot read");
  return std::move(text).str();
}

}  // namespace

nlohmann::json parse_json(std::string_view text, const std::string& source) {
  return parse_checked(text, source, {}, nullptr);
}

nlohmann::json parse_json_streaming(std::string_view text, const std::string& source, std::string_view array_key,
                                    const JsonElementHandler& on_element) {
  return parse_checked(text, source, array_key, &on_element);
}

nlohmann::json json_number(double value) {
  if (std::trunc(value) == value && std::fabs(value) < 9.0e15) return static_cast<std::int64_t>(value);
  return value;
}

nlohmann::json read_json_file(const std::filesystem::path& file) {
  return parse_json(read_text(file), file.string());
}

nlohmann::json read_json_file_streaming(const std::filesystem::path& file, std::string_view array_key,
                                        const JsonElementHandler& on_element) {
  return parse_json_streaming(read_text(file), file.string(), array_key, on_element);
}

}  // namespace allocgate::reports
