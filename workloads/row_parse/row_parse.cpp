#include "row_parse.h"

#include <charconv>
#include <stdexcept>

#include "common/scan.h"
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

// A number field of `line`.
ParseError to_int(std::string_view line, std::string_view field, std::int64_t& value) noexcept {
  if (field.empty()) return ParseError::empty_field;
  const bool negative = field[0] == '-';
  if (negative) field.remove_prefix(1);
  // The magnitude of INT64_MIN is one more than INT64_MAX's.
  constexpr auto kMax = static_cast<std::uint64_t>(INT64_MAX);
  std::uint64_t magnitude = 0;
  switch (read_digits(line, field, negative ? kMax + 1 : kMax, magnitude)) {
    case DigitsResult::not_digits: return ParseError::invalid_digit;
    case DigitsResult::overflow: return ParseError::overflow;
    case DigitsResult::ok: break;
  }
  value = negative ? static_cast<std::int64_t>(0 - magnitude) : static_cast<std::int64_t>(magnitude);
  return ParseError::none;
}

}  // namespace

ParseError parse_view(std::string_view line, RowView& row) noexcept {
  // The commas a word at a time: two of them, and no third.
  const char* commas[3];
  const std::size_t found = find_each(line, ',', commas, 3);
  if (found < 2) return ParseError::short_line;
  if (found > 2) return ParseError::extra_field;
  const char* const end = line.data() + line.size();
  const auto between = [](const char* from, const char* to) {
    return std::string_view(from, static_cast<std::size_t>(to - from));
  };
  if (const auto e = to_int(line, between(line.data(), commas[0]), row.user_id); e != ParseError::none) return e;
  if (const auto e = to_int(line, between(commas[0] + 1, commas[1]), row.bytes); e != ParseError::none) return e;
  if (commas[1] + 1 == end) return ParseError::empty_field;
  row.path = between(commas[1] + 1, end);
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
