// SPDX-License-Identifier: Apache-2.0
#include "text_table.h"

#include <algorithm>
#include <ostream>
#include <utility>

namespace allocgate::reports {

TextTable::TextTable(std::vector<Column> columns) : columns_(std::move(columns)) {}

void TextTable::add_row(std::vector<std::string> cells) {
  cells.resize(columns_.size());
  rows_.push_back(std::move(cells));
}

void TextTable::print(std::ostream& out) const {
  std::vector<std::size_t> width(columns_.size());
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    width[c] = columns_[c].header.size();
    for (const auto& row : rows_) width[c] = std::max(width[c], row[c].size());
  }
  const auto print_row = [&](const auto& cell_of) {
    std::string line;
    for (std::size_t c = 0; c < columns_.size(); ++c) {
      const std::string& cell = cell_of(c);
      if (c > 0) line += "  ";
      const std::string padding(width[c] - cell.size(), ' ');
      line += columns_[c].align == Align::left ? cell + padding : padding + cell;
    }
    line.erase(line.find_last_not_of(' ') + 1);
    out << line << '\n';
  };
  print_row([&](std::size_t c) -> const std::string& { return columns_[c].header; });
  for (const auto& row : rows_) print_row([&](std::size_t c) -> const std::string& { return row[c]; });
}

void TextTable::print_markdown(std::ostream& out) const {
  const auto print_row = [&](const auto& cell_of) {
    out << '|';
    for (std::size_t c = 0; c < columns_.size(); ++c) out << ' ' << cell_of(c) << " |";
    out << '\n';
  };
  print_row([&](std::size_t c) -> const std::string& { return columns_[c].header; });
  out << '|';
  for (const Column& column : columns_) out << (column.align == Align::left ? "---|" : "---:|");
  out << '\n';
  for (const auto& row : rows_) print_row([&](std::size_t c) -> const std::string& { return row[c]; });
}

}  // namespace allocgate::reports
