// SPDX-License-Identifier: Apache-2.0
#include "row_parse.h"

#include <bit>
#include <charconv>
#include <cstring>
#include <stdexcept>

#include "common/scan.h"
#include "common/split.h"
#include "registry/seeded.h"

namespace allocgate::workloads::row_parse {

std::string_view to_string(ParseError error) {
  switch (error) {
    case ParseError::none:
      return "none";
    case ParseError::short_line:
      return "short_line";
    case ParseError::extra_field:
      return "extra_field";
    case ParseError::empty_field:
      return "empty_field";
    case ParseError::invalid_digit:
      return "invalid_digit";
    case ParseError::overflow:
      return "overflow";
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
//
// One scanner for both results, a template on them, so that the copying
// parser writes straight into its Row instead of through a RowView: the
// path is a view (RowView) or copied into the caller's string (Row).

namespace {

void set_path(Row& row, std::string_view path) { detail::set_path(path, row.path); }

void set_path(RowView& row, std::string_view path) noexcept { row.path = path; }

// A number field of `line`.
ParseError to_int(std::string_view line, std::string_view field, std::int64_t& value) noexcept {
  if (field.empty()) return ParseError::empty_field;
  const bool negative = field[0] == '-';
  if (negative) field.remove_prefix(1);
  // The magnitude of INT64_MIN is one more than INT64_MAX's.
  constexpr auto kMax = static_cast<std::uint64_t>(INT64_MAX);
  std::uint64_t magnitude = 0;
  switch (read_digits(line, field, negative ? kMax + 1 : kMax, magnitude)) {
    case DigitsResult::not_digits:
      return ParseError::invalid_digit;
    case DigitsResult::overflow:
      return ParseError::overflow;
    case DigitsResult::ok:
      break;
  }
  value = negative ? static_cast<std::int64_t>(0 - magnitude) : static_cast<std::int64_t>(magnitude);
  return ParseError::none;
}

// The fields once the two commas are found, any of them: both numbers, then
// the path. Out of line, for the rows the common case below does not take.
template <class Result>
[[gnu::noinline]] ParseError read_any_fields(std::string_view line, const char* first_comma, const char* second_comma,
                                             Result& row) {
  const char* const end = line.data() + line.size();
  const auto between = [](const char* from, const char* to) {
    return std::string_view(from, static_cast<std::size_t>(to - from));
  };
  if (const auto e = to_int(line, between(line.data(), first_comma), row.user_id); e != ParseError::none) return e;
  if (const auto e = to_int(line, between(first_comma + 1, second_comma), row.bytes); e != ParseError::none) return e;
  if (second_comma + 1 == end) return ParseError::empty_field;
  set_path(row, between(second_comma + 1, end));
  return ParseError::none;
}

// A line the mask does not take (under 16 bytes or over 64): the commas a
// word at a time.
template <class Result>
[[gnu::noinline]] ParseError scan_by_words(std::string_view line, Result& row) {
  const char* commas[3];
  const std::size_t found = find_each(line, ',', commas, 3);
  if (found < 2) return ParseError::short_line;
  if (found > 2) return ParseError::extra_field;
  return read_any_fields(line, commas[0], commas[1], row);
}

// Most rows are 16 to 64 bytes: all their commas in one mask, sixteen bytes a
// compare. Two of them, and no third: the mask with its lowest bit cleared
// has exactly one bit left.
//
// Most rows' numbers are unsigned, of 1 to 8 digits, and both within the
// first sixteen bytes: all their bytes are checked to be digits in one more
// compare, and each is read as a word. Any other row (a sign, a longer
// number, a byte that is not a digit, an empty field) takes read_any_fields,
// which tells the errors apart.
template <class Result>
ParseError scan(std::string_view line, Result& row) {
  if (line.size() < 16 || line.size() > kMaskedTextMax) return scan_by_words(line, row);
  const std::uint64_t commas = equal_mask(line, ',');
  const std::uint64_t after_first = commas & (commas - 1);
  if (after_first == 0) return ParseError::short_line;
  if ((after_first & (after_first - 1)) != 0) return ParseError::extra_field;
  const char* const p = line.data();
  const auto first = static_cast<std::size_t>(std::countr_zero(commas));
  const auto second = static_cast<std::size_t>(std::countr_zero(after_first));
  // Unsigned: a field of 0 digits wraps around and fails the test too.
  if (second <= 16 && first - 1 < 8 && second - first - 2 < 8 && second + 1 < line.size()) {
    const std::uint32_t number_bytes = ((std::uint32_t{1} << second) - 1) & ~(std::uint32_t{1} << first);
    if ((digit_mask16(p) & number_bytes) == number_bytes) {
      row.user_id = short_digits_value(p, 0, first);
      row.bytes = short_digits_value(p, first + 1, second);
      set_path(row, std::string_view(p + second + 1, line.size() - second - 1));
      return ParseError::none;
    }
  }
  return read_any_fields(line, p + first, p + second, row);
}

}  // namespace

// Out of line, as every rare case is: inlined, assign()'s code made every
// row save registers for it first.
void detail::assign_path(std::string_view path, std::string& to) { to.assign(path); }

ParseError detail::parse_general(std::string_view line, RowView& row) noexcept { return scan(line, row); }

ParseError detail::parse_general(std::string_view line, Row& row) { return scan(line, row); }

// --- input and output -------------------------------------------------------

std::vector<std::string> make_lines(std::size_t n) {
  static constexpr std::string_view kPaths[] = {
      "/v1/orders", "/v1/orders/98234",     "/v1/users", "/v1/users/42/profile", "/v2/search?q=shoes",
      "/v1/cart",   "/v1/checkout/confirm", "/healthz"};
  Seeded random(4);
  std::vector<std::string> lines;
  lines.reserve(n);
  // The first is the case study's line, the one its Go version parses.
  if (n > 0) lines.emplace_back("1234,5678,/v1/orders");
  for (std::size_t i = 1; i < n; ++i) {
    lines.push_back(std::to_string(random.between(1, 999'999)) + "," + std::to_string(random.between(0, 10'000'000)) +
                    "," + std::string(kPaths[random.below(std::size(kPaths))]));
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
