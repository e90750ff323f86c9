// SPDX-License-Identifier: Apache-2.0
#include "row_parse.h"

#include <string>
#include <vector>

#include "allocgate/failure_injection.h"
#include "allocgate/gtest.h"
#include "registry/seeded.h"

namespace {

using namespace allocgate::workloads::row_parse;

// A parser's result for line as text, so that parsers compare byte for byte.
template <class Result, class Parse>
std::string result_text(Parse parse, const std::string& line) {
  Result row;
  std::string out;
  const ParseError e = parse(line, row);
  append_result(out, e, row.user_id, row.bytes, row.path);
  return out;
}

std::string naive_text(const std::string& line) {
  return result_text<Row>([](const std::string& l, Row& r) { return parse_naive(l, r); }, line);
}
std::string scanner_text(const std::string& line) {
  return result_text<Row>([](const std::string& l, Row& r) { return parse(l, r); }, line);
}
std::string view_text(const std::string& line) {
  return result_text<RowView>([](const std::string& l, RowView& r) { return parse_view(l, r); }, line);
}

// The scanner, its zero-copy form and the scanner into a row reused from
// line to line (as a caller's is: its buffer grows to the longest path, and
// every shorter one after is copied inline into it) give the naive result.
void expect_parsers_agree(const std::string& line, const std::string& expected, Row& reused) {
  ASSERT_EQ(scanner_text(line), expected) << line;
  ASSERT_EQ(view_text(line), expected) << line;
  const ParseError error = parse(line, reused);
  std::string into_reused;
  append_result(into_reused, error, reused.user_id, reused.bytes, reused.path);
  ASSERT_EQ(into_reused, expected) << line;
}

TEST(RowParse, ParsesTheCaseStudysLine) {
  Row row;
  ASSERT_EQ(parse("1234,5678,/v1/orders", row), ParseError::none);
  EXPECT_EQ(row.user_id, 1234);
  EXPECT_EQ(row.bytes, 5678);
  EXPECT_EQ(row.path, "/v1/orders");
  RowView view;
  const std::string line = "-7,0,/x";
  ASSERT_EQ(parse_view(line, view), ParseError::none);
  EXPECT_EQ(view.user_id, -7);
  EXPECT_EQ(view.path.data(), line.data() + 5);  // a view into the line, not a copy
}

TEST(RowParse, ErrorsAreCodes) {
  struct Bad {
    const char* line;
    ParseError error;
  };
  const Bad bad[] = {
      {"1234,5678", ParseError::short_line},
      {"", ParseError::short_line},
      {"1,2,/a,b", ParseError::extra_field},
      {",5678,/x", ParseError::empty_field},
      {"1,,/x", ParseError::empty_field},
      {"1,2,", ParseError::empty_field},
      {"12a,5,/x", ParseError::invalid_digit},
      {"+12,5,/x", ParseError::invalid_digit},
      {" 12,5,/x", ParseError::invalid_digit},
      {"-,5,/x", ParseError::invalid_digit},
      {"1,99999999999999999999x,/x", ParseError::invalid_digit},
      // Go's parseInt would wrap around here; ours reports it.
      {"9223372036854775808,1,/x", ParseError::overflow},
      {"1,-9223372036854775809,/x", ParseError::overflow},
  };
  for (const Bad& b : bad) {
    Row row;
    RowView view;
    EXPECT_EQ(parse(b.line, row), b.error) << b.line;
    EXPECT_EQ(parse_view(b.line, view), b.error) << b.line;
    EXPECT_EQ(parse_naive(b.line, row), b.error) << b.line;
  }
  Row row;
  EXPECT_EQ(parse("-9223372036854775808,9223372036854775807,/x", row), ParseError::none);
  EXPECT_EQ(row.user_id, INT64_MIN);
}

// The line may be the row's own path: the copy reads the path before it
// changes the string it is in.
TEST(RowParse, ParsesALineHeldInTheRowsOwnPath) {
  for (const std::string line :
       {"1,2,abcd", "1234,5678,/v1/orders", "1234,5678,/v1/users/42/profile/x", "-1,5678,/v1/users/42/profile/x"}) {
    Row row;
    row.path.reserve(64);
    row.path = line;
    ASSERT_EQ(parse(row.path, row), ParseError::none) << line;
    EXPECT_EQ(row.path, line.substr(line.rfind(',') + 1));
  }
}

// Lines built from fragments that hit every rule: digits, signs, letters,
// commas, long numbers, empty pieces.
std::string random_line(allocgate::workloads::Seeded& random) {
  static const char* const kPieces[] = {"0",
                                        "7",
                                        "42",
                                        "1234",
                                        "-",
                                        "+",
                                        "x",
                                        " ",
                                        ",",
                                        ",",
                                        "/v1/orders",
                                        "/",
                                        "99999999999999999999",
                                        "9223372036854775807",
                                        "-9223372036854775808",
                                        "\xc3\xa9",
                                        ""};
  std::string line;
  const std::size_t pieces = random.below(9);
  for (std::size_t i = 0; i < pieces; ++i) line += kPieces[random.below(std::size(kPieces))];
  return line;
}

TEST(RowParse, ScannerAndViewAgreeWithNaiveOnRandomLines) {
  allocgate::workloads::Seeded random(9);
  const std::vector<std::string> valid_lines = make_lines(50'000);
  std::size_t valid = 0;
  Row reused;
  for (std::size_t i = 0; i < 150'000; ++i) {
    const std::string line = i % 3 == 0 ? valid_lines[i / 3] : random_line(random);
    const std::string expected = naive_text(line);
    ASSERT_NO_FATAL_FAILURE(expect_parsers_agree(line, expected, reused));
    valid += expected.rfind("error:", 0) != 0;
  }
  EXPECT_GT(valid, 50'000u);  // both kinds were exercised
}

// Numbers of every length from none to past INT64_MAX's 19 digits, with and
// without a sign, before paths of every length the inline copy takes and
// more: the scanner's limits (8 digits, 16 bytes, 16 to 64 byte lines, 4 to
// 32 byte paths) are all crossed.
TEST(RowParse, EveryFieldLengthAgreesWithNaive) {
  allocgate::workloads::Seeded random(10);
  const auto digits = [&](std::size_t n) {
    std::string text;
    for (std::size_t i = 0; i < n; ++i) text += static_cast<char>('0' + random.below(10));
    return text;
  };
  Row reused;
  for (std::size_t first = 0; first <= 20; ++first) {
    for (std::size_t second = 0; second <= 20; ++second) {
      for (std::size_t path = 0; path <= 40; ++path) {
        for (const char* sign : {"", "-"}) {
          const std::string line = sign + digits(first) + "," + digits(second) + "," + std::string(path, 'p');
          ASSERT_NO_FATAL_FAILURE(expect_parsers_agree(line, naive_text(line), reused));
        }
      }
    }
  }
}

TEST(RowParseAllocations, TheScannerAllocatesNothingOnceThePathFits) {
  Row row;
  row.path.reserve(64);
  EXPECT_NO_ALLOCATIONS(parse("1234,5678,/v1/users/42/profile/settings", row));
  RowView view;
  EXPECT_NO_ALLOCATIONS(parse_view("1234,5678,/v1/users/42/profile/settings", view));
  EXPECT_NO_ALLOCATIONS(parse("not,a,row,at all", row));  // errors allocate nothing either
}

// The path's one allocation can fail: that is a std::bad_alloc to the caller,
// not std::terminate from a noexcept function.
TEST(RowParseAllocations, AFailedPathAllocationThrows) {
  const auto sweep = allocgate::fail_each_allocation([] {
    Row row;
    parse("1234,5678,/v1/users/42/profile/settings/and/more", row);
  });
  EXPECT_EQ(sweep.allocation_points, 1u);
  EXPECT_EQ(sweep.propagated, 1u);
}

TEST(RowParseAllocations, NaiveAllocatesPerLineScannerStaysAtZero) {
  for (const std::size_t n : {std::size_t{1}, std::size_t{100}, std::size_t{10000}}) {
    const auto lines = make_lines(n);
    std::vector<Row> rows(n);
    for (std::size_t i = 0; i < n; ++i) parse(lines[i], rows[i]);  // warm-up: paths fit
    EXPECT_NO_ALLOCATIONS(for (std::size_t i = 0; i < n; ++i) parse(lines[i], rows[i]));
    // The split's vector grows 1, 2, 4: three arrays per line at least.
    const auto naive = allocgate::measure([&] {
      for (std::size_t i = 0; i < n; ++i) parse_naive(lines[i], rows[i]);
    });
    EXPECT_GE(naive.allocations, 3 * n) << n << " lines";
  }
}

}  // namespace
