// SPDX-License-Identifier: Apache-2.0
// Every table allocgate prints, text or markdown, through one printer: for a
// terminal, each column as wide as its widest cell and two spaces from the
// next, so that no two figures ever touch; for markdown, a pipe table with
// each column's alignment.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace allocgate::reports {

class TextTable {
 public:
  enum class Align { left, right };
  struct Column {
    std::string header;
    Align align = Align::right;
  };

  explicit TextTable(std::vector<Column> columns);

  /// One cell per column, already escaped for where the table is printed
  /// (terminal_text, or markdown_text/markdown_code); missing cells are empty.
  void add_row(std::vector<std::string> cells);

  /// The header, then the rows, aligned; trailing spaces trimmed.
  void print(std::ostream& out) const;

  /// "| header | ... |", its alignment row ("|---|---:|"), then the rows.
  void print_markdown(std::ostream& out) const;

  /// print_markdown() when markdown, else print().
  void print(std::ostream& out, bool markdown) const { markdown ? print_markdown(out) : print(out); }

  /// A row's cells, made when asked.
  using RowCells = std::function<std::vector<std::string>(std::size_t row)>;
  /// The same table, its `rows` rows made by `row` as they are printed,
  /// never held: for tables as long as a report (the gate's, a row per
  /// case). A terminal table makes each row twice, to measure the columns.
  static void print_generated(std::ostream& out, const std::vector<Column>& columns, std::size_t rows,
                              const RowCells& row, bool markdown);

 private:
  std::size_t rows() const { return row_at_.size(); }
  // Row r's cells, in column order.
  template <class Visit>
  void for_each_cell(std::size_t r, Visit visit) const;

  std::vector<Column> columns_;
  // The cells packed, not a string each: a table of 1,000,000 rows (a gate
  // over as many cases) takes its text and a few bytes a cell. A row's cells
  // are back to back in one block; blocks are never reallocated.
  std::vector<std::string> blocks_;
  std::deque<std::uint64_t> row_at_;        // block << 32 | offset, per row
  std::deque<std::uint32_t> cell_lengths_;  // per row, per column
};

}  // namespace allocgate::reports
