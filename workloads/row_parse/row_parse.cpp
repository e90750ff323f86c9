#include "row_parse.h"

#include <charconv>
#include <stdexcept>

#include "common/split.h"
#include "registry/seeded.h"

namespace allocgate::workloads::row_parse {

std::string_view to_string(ParseError error) {
  switch (error) {
    case ParseError::none: return "none";
    case ParseError::short_line: return "short_line";
    case ParseError::extra_field: return "extra_field";
    case ParseError::empty_field: return "empty_field";
    case ParseError::invalid_digit: return "invalid_digit";
    case ParseError::overflow: return "overflow";
  }
  return "unknown";
}

// --- naive ------------------------------------------------------------------

namespace {

ParseError to_int_naive(const std::string& field, std::int64_t& value) {
  if (field.empty()) return ParseError::empty_field;
  // std::stoll would accept spaces, '+' and trailing junk: refuse them first.
  const std::size_t first = field[0] == '-' ? 1 : 0;
  if (first == field.size()) return ParseError::invalid_digit;
  for (std::size_t i = first; i < field.size(); ++i) {
    if (field[i] < '0' || field[i] > '9') return ParseError::invalid_digit;
  }
  try {
    value = std::stoll(field);
  } catch (const std::out_of_range&) {
    return ParseError::overflow;
  }
  return ParseError::none;
}

}  // namespace

ParseError parse_naive(const std::string& line, Row& row) {
  const std::vector<std::string> fields = split(line, ',');
  if (fields.size() < 3) return ParseError::short_line;
  if (fields.size() > 3) return ParseError::extra_field;
  if (const auto e = to_int_naive(fields[0], row.user_id); e != ParseError::none) return e;
  if (const auto e = to_int_naive(fields[1], row.bytes); e != ParseError::none) return e;
  if (fields[2].empty()) return ParseError::empty_field;
  row.path = fields[2];
  return ParseError::none;
}

// --- scanner ----------------------------------------------------------------

namespace {

// Cuts the field before the next comma off the front of rest.
bool next_field(std::string_view& rest, std::string_view& field) noexcept {
  const auto comma = rest.find(',');
  if (comma == std::string_view::npos) return false;
  field = rest.substr(0, comma);
  rest.remove_prefix(comma + 1);
  return true;
}

ParseError to_int(std::string_view field, std::int64_t& value) noexcept {
  if (field.empty()) return ParseError::empty_field;
  const char* end = field.data() + field.size();
  const auto [ptr, ec] = std::from_chars(field.data(), end, value);
  // from_chars reads the longest number it can: anything left over, or nothing
  // read (a lone '-'), is a bad digit, checked first so that "99...9x" is a
  // bad digit as in the naive parser; a whole number out of range overflows.
  if (ptr != end) return ParseError::invalid_digit;
  if (ec == std::errc::result_out_of_range) return ParseError::overflow;
  return ParseError::none;
}

}  // namespace

ParseError parse_view(std::string_view line, RowView& row) noexcept {
  std::string_view user_id, bytes;
  if (!next_field(line, user_id) || !next_field(line, bytes)) return ParseError::short_line;
  if (line.find(',') != std::string_view::npos) return ParseError::extra_field;
  if (const auto e = to_int(user_id, row.user_id); e != ParseError::none) return e;
  if (const auto e = to_int(bytes, row.bytes); e != ParseError::none) return e;
  if (line.empty()) return ParseError::empty_field;
  row.path = line;
  return ParseError::none;
}

ParseError parse(std::string_view line, Row& row) {
  RowView view;
  const ParseError error = parse_view(line, view);
  if (error != ParseError::none) return error;
  row.user_id = view.user_id;
  row.bytes = view.bytes;
  // assign() reuses row.path's buffer: the only copy, into storage the caller
  // owns, and no allocation once it is large enough. A path too long for any
  // buffer would throw length_error; that cannot come from a string_view.
  row.path.assign(view.path);
  return ParseError::none;
}

// --- input and output -------------------------------------------------------

std::vector<std::string> make_lines(std::size_t n) {
  static constexpr std::string_view kPaths[] = {
      "/v1/orders",          "/v1/orders/98234",     "/v1/users",           "/v1/users/42/profile",
      "/v2/search?q=shoes",  "/v1/cart",             "/v1/checkout/confirm", "/healthz"};
  Seeded random(4);
  std::vector<std::string> lines;
  lines.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    lines.push_back(std::to_string(random.between(1, 999'999)) + "," +
                    std::to_string(random.between(0, 10'000'000)) + "," +
                    std::string(kPaths[random.below(std::size(kPaths))]));
  }
  return lines;
}

void append_result(std::string& out, ParseError error, std::int64_t user_id, std::int64_t bytes,
                   std::string_view path) {
  if (error != ParseError::none) {
    out.append("error:").append(to_string(error)).push_back('\n');
    return;
  }
  char digits[24];
  out.append(digits, std::to_chars(digits, digits + sizeof digits, user_id).ptr).push_back(',');
  out.append(digits, std::to_chars(digits, digits + sizeof digits, bytes).ptr).push_back(',');
  out.append(path).push_back('\n');
}

}  // namespace allocgate::workloads::row_parse
