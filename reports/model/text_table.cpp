// SPDX-License-Identifier: Apache-2.0
#include "text_table.h"

#include <algorithm>
#include <ostream>
#include <string_view>
#include <utility>

namespace allocgate::reports {

namespace {

constexpr std::size_t kBlock = std::size_t{1} << 20;

using Column = TextTable::Column;
using Align = TextTable::Align;

// A terminal table's lines: each cell padded to its column's width, two
// spaces between columns, trailing spaces trimmed.
class TextLines {
 public:
  TextLines(std::ostream& out, const std::vector<Column>& columns, const std::vector<std::size_t>& width)
      : out_(out), columns_(columns), width_(width) {}
  void cell(std::size_t c, std::string_view text) {
    if (c > 0) line_ += "  ";
    const std::size_t padding = width_[c] - text.size();
    if (columns_[c].align == Align::right) line_.append(padding, ' ');
    line_ += text;
    if (columns_[c].align == Align::left) line_.append(padding, ' ');
  }
  void end() {
    line_.erase(line_.find_last_not_of(' ') + 1);
    line_ += '\n';
    out_ << line_;
    line_.clear();
  }
  void header() {
    for (std::size_t c = 0; c < columns_.size(); ++c) cell(c, columns_[c].header);
    end();
  }

 private:
  std::ostream& out_;
  const std::vector<Column>& columns_;
  const std::vector<std::size_t>& width_;
  std::string line_;
};

std::vector<std::size_t> header_widths(const std::vector<Column>& columns) {
  std::vector<std::size_t> width;
  for (const Column& column : columns) width.push_back(column.header.size());
  return width;
}

// "| a | b |" and, after the header, its alignment row ("|---|---:|").
void markdown_header(std::ostream& out, const std::vector<Column>& columns) {
  out << '|';
  for (const Column& column : columns) out << ' ' << column.header << " |";
  out << "\n|";
  for (const Column& column : columns) out << (column.align == Align::left ? "---|" : "---:|");
  out << '\n';
}

void markdown_cell(std::ostream& out, std::string_view text) { out << ' ' << text << " |"; }

}  // namespace

TextTable::TextTable(std::vector<Column> columns) : columns_(std::move(columns)) {}

void TextTable::add_row(std::vector<std::string> cells) {
  cells.resize(columns_.size());
  std::size_t size = 0;
  for (const std::string& cell : cells) size += cell.size();
  if (blocks_.empty() || blocks_.back().size() + size > blocks_.back().capacity()) {
    blocks_.emplace_back().reserve(std::max(kBlock, size));
  }
  std::string& block = blocks_.back();
  row_at_.push_back(static_cast<std::uint64_t>(blocks_.size() - 1) << 32 | block.size());
  for (const std::string& cell : cells) {
    block += cell;
    cell_lengths_.push_back(static_cast<std::uint32_t>(cell.size()));
  }
}

template <class Visit>
void TextTable::for_each_cell(std::size_t r, Visit visit) const {
  const std::uint64_t at = row_at_[r];
  const char* cell = blocks_[at >> 32].data() + (at & 0xffffffffu);
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    const std::uint32_t length = cell_lengths_[r * columns_.size() + c];
    visit(c, std::string_view(cell, length));
    cell += length;
  }
}

void TextTable::print(std::ostream& out) const {
  std::vector<std::size_t> width = header_widths(columns_);
  for (std::size_t r = 0; r < rows(); ++r) {
    for_each_cell(r, [&](std::size_t c, std::string_view cell) { width[c] = std::max(width[c], cell.size()); });
  }
  TextLines lines(out, columns_, width);
  lines.header();
  for (std::size_t r = 0; r < rows(); ++r) {
    for_each_cell(r, [&](std::size_t c, std::string_view cell) { lines.cell(c, cell); });
    lines.end();
  }
}

void TextTable::print_markdown(std::ostream& out) const {
  markdown_header(out, columns_);
  for (std::size_t r = 0; r < rows(); ++r) {
    out << '|';
    for_each_cell(r, [&](std::size_t, std::string_view cell) { markdown_cell(out, cell); });
    out << '\n';
  }
}

void TextTable::print_generated(std::ostream& out, const std::vector<Column>& columns, std::size_t rows,
                                const RowCells& row, bool markdown) {
  if (markdown) {
    markdown_header(out, columns);
    for (std::size_t r = 0; r < rows; ++r) {
      out << '|';
      for (const std::string& cell : row(r)) markdown_cell(out, cell);
      out << '\n';
    }
    return;
  }
  std::vector<std::size_t> width = header_widths(columns);
  for (std::size_t r = 0; r < rows; ++r) {
    const std::vector<std::string> cells = row(r);
    for (std::size_t c = 0; c < columns.size() && c < cells.size(); ++c) width[c] = std::max(width[c], cells[c].size());
  }
  TextLines lines(out, columns, width);
  lines.header();
  for (std::size_t r = 0; r < rows; ++r) {
    std::vector<std::string> cells = row(r);
    cells.resize(columns.size());
    for (std::size_t c = 0; c < columns.size(); ++c) lines.cell(c, cells[c]);
    lines.end();
  }
}

}  // namespace allocgate::reports
