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

class NaiveCase : public Case {
 public:
  explicit NaiveCase(std::size_t n) : lines_(row_parse::make_lines(n)), rows_(n), errors_(n) {}
  void run() override {
    for (std::size_t i = 0; i < lines_.size(); ++i) errors_[i] = row_parse::parse_naive(lines_[i], rows_[i]);
  }
  std::string output() const override { return serialize(errors_, rows_); }

 private:
  std::vector<std::string> lines_;
  std::vector<row_parse::Row> rows_;
  std::vector<ParseError> errors_;
};

class ScannerCase : public Case {
 public:
  explicit ScannerCase(std::size_t n) : lines_(row_parse::make_lines(n)), rows_(n), errors_(n) {}
  void run() override {
    for (std::size_t i = 0; i < lines_.size(); ++i) errors_[i] = row_parse::parse(lines_[i], rows_[i]);
  }
  std::string output() const override { return serialize(errors_, rows_); }

 private:
  std::vector<std::string> lines_;
  std::vector<row_parse::Row> rows_;  // their paths' buffers are reused
  std::vector<ParseError> errors_;
};

class ViewCase : public Case {
 public:
  explicit ViewCase(std::size_t n) : lines_(row_parse::make_lines(n)), rows_(n), errors_(n) {}
  void run() override {
    for (std::size_t i = 0; i < lines_.size(); ++i) errors_[i] = row_parse::parse_view(lines_[i], rows_[i]);
  }
  std::string output() const override { return serialize(errors_, rows_); }

 private:
  std::vector<std::string> lines_;
  std::vector<row_parse::RowView> rows_;
  std::vector<ParseError> errors_;
};

std::unique_ptr<Case> prepare(std::string_view variant, std::size_t size) {
  if (variant == "naive") return std::make_unique<NaiveCase>(size);
  if (variant == "optimized") return std::make_unique<ScannerCase>(size);
  if (variant == "zero_copy") return std::make_unique<ViewCase>(size);
  throw_unknown_variant("row_parse", variant);
}

}  // namespace

Workload row_parse_workload() {
  return Workload{"row_parse",
                  "user_id,bytes,path rows parsed into a struct: split and stoll, scanner, views",
                  {"naive", "optimized", "zero_copy"},
                  {1, 100, 10000},
                  1,
                  &prepare};
}

}  // namespace allocgate::workloads
