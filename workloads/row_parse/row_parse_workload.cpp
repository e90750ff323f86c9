// SPDX-License-Identifier: Apache-2.0
// The row_parse workload in the registry. Each operation parses n lines into
// results the case keeps (the caller-owned storage the scanner copies into).

#include "registry/workload.h"
#include "row_parse.h"

namespace allocgate::workloads {
namespace {

using row_parse::ParseError;

template <class Result>
std::string serialize(const std::vector<ParseError>& errors, const std::vector<Result>& rows) {
  std::string text;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    row_parse::append_result(text, errors[i], rows[i].user_id, rows[i].bytes, rows[i].path);
  }
  return text;
}

// Parses every line into results kept across runs: Result is Row (the caller
// owns the path, whose buffer the scanner reuses) or RowView.
template <class Result, ParseError (*parse)(const std::string&, Result&)>
class ParseCase : public Case {
 public:
  explicit ParseCase(std::size_t n) : lines_(row_parse::make_lines(n)), rows_(n), errors_(n) {}
  void run() override {
    // Pointers, not indices: a store through errors_[i] might change
    // lines_.size() for all the compiler knows, which it reloaded each row.
    Result* row = rows_.data();
    ParseError* error = errors_.data();
    for (const std::string& line : lines_) *error++ = parse(line, *row++);
  }
  std::string output() const override { return serialize(errors_, rows_); }

 private:
  std::vector<std::string> lines_;
  std::vector<Result> rows_;
  std::vector<ParseError> errors_;
};

ParseError scan(const std::string& line, row_parse::Row& row) { return row_parse::parse(line, row); }
ParseError view(const std::string& line, row_parse::RowView& row) { return row_parse::parse_view(line, row); }

}  // namespace

Workload row_parse_workload() {
  return Workload{"row_parse",
                  "user_id,bytes,path rows parsed into a struct: split and stoll, scanner, views",
                  {{"naive", &make_case<ParseCase<row_parse::Row, &row_parse::parse_naive>>},
                   {"optimized", &make_case<ParseCase<row_parse::Row, &scan>>},
                   {"zero_copy", &make_case<ParseCase<row_parse::RowView, &view>>}},
                  {1, 100, 10000},
                  1};
}

}  // namespace allocgate::workloads
