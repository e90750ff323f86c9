// SPDX-License-Identifier: Apache-2.0
// Parsing "1234,5678,/v1/orders" into {user_id, bytes, path} (case study 4).
// The naive parser splits into strings and calls std::stoll; the scanner finds
// the commas in a std::string_view sixteen bytes at a time (eight for a row
// under 16 bytes or over 64), reads the digits itself, throws nothing, and
// copies the path only into storage the caller owns (or, in the zero-copy
// form, not at all). Its common row is read inline (row_scanner.h), the rest
// in row_parse.cpp.
//
// The grammar both follow: exactly three comma-separated fields; the first two
// are an optional '-' and one or more ASCII digits that fit int64_t; the path
// is non-empty and may hold any byte but a comma.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "row_parse/row_scanner.h"

namespace allocgate::workloads::row_parse {

enum class ParseError {
  none,
  short_line,     ///< fewer than three fields
  extra_field,    ///< more than three fields
  empty_field,    ///< a field with no characters
  invalid_digit,  ///< a number field with a character that is not a digit
  overflow,       ///< a number that does not fit int64_t
};

/// "none", "short_line", ...
std::string_view to_string(ParseError error);

struct Row {
  std::int64_t user_id = 0;
  std::int64_t bytes = 0;
  std::string path;
};

/// A row whose path points into the parsed line.
struct RowView {
  std::int64_t user_id = 0;
  std::int64_t bytes = 0;
  std::string_view path;
};

/// The plain parser: split, std::stoll, exceptions turned into error codes.
ParseError parse_naive(const std::string& line, Row& row);

/// The scanner. On success assigns row.path, reusing its capacity: no
/// allocation once the path fits. On error row is unspecified. Throws
/// std::bad_alloc when row.path must grow and cannot (so not noexcept).
inline ParseError parse(std::string_view line, Row& row);

/// Zero-copy: row.path views the line and is valid while the line is.
inline ParseError parse_view(std::string_view line, RowView& row) noexcept;

/// n valid lines: the case study's "1234,5678,/v1/orders", then seeded user
/// ids, byte counts and eight API paths.
std::vector<std::string> make_lines(std::size_t n);

/// A parse result as one line of text, for comparing parsers byte for byte:
/// "1234,5678,/v1/orders\n" or "error:short_line\n".
void append_result(std::string& out, ParseError error, std::int64_t user_id, std::int64_t bytes, std::string_view path);

namespace detail {

/// The scanner for every line: what parse and parse_view do with a line
/// scan_common does not take.
ParseError parse_general(std::string_view line, Row& row);
ParseError parse_general(std::string_view line, RowView& row) noexcept;

}  // namespace detail

inline ParseError parse(std::string_view line, Row& row) {
  detail::CommonRow common;
  if (!detail::scan_common(line, common)) return detail::parse_general(line, row);
  row.user_id = common.user_id;
  row.bytes = common.bytes;
  detail::set_path(line.substr(common.path_at), row.path);
  return ParseError::none;
}

inline ParseError parse_view(std::string_view line, RowView& row) noexcept {
  detail::CommonRow common;
  if (!detail::scan_common(line, common)) return detail::parse_general(line, row);
  row = RowView{common.user_id, common.bytes, line.substr(common.path_at)};
  return ParseError::none;
}

}  // namespace allocgate::workloads::row_parse
