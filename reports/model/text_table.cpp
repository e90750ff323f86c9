// SPDX-License-Identifier: Apache-2.0
#include "text_table.h"

#include <algorithm>
#include <ostream>
#include <string_view>
#include <utility>

namespace allocgate::reports {

TextTable::TextTable(std::vector<Column> columns) : columns_(std::move(columns)) {}

namespace {
constexpr std::size_t kBlock = std::size_t{1} << 20;
}  // namespace

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
  std::vector<std::size_t> width(columns_.size());
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    width[c] = columns_[c].header.size();
  }
  for (std::size_t r = 0; r < rows(); ++r) {
    for_each_cell(r, [&](std::size_t c, std::string_view cell) { width[c] = std::max(width[c], cell.size()); });
  }
  std::string line;
  const auto add_cell = [&](std::size_t c, std::string_view cell) {
    if (c > 0) line += "  ";
    const std::size_t padding = width[c] - cell.size();
    if (columns_[c].align == Align::right) line.append(padding, ' ');
    line += cell;
    if (columns_[c].align == Align::left) line.append(padding, ' ');
  };
  const auto end_line = [&] {
    line.erase(line.find_last_not_of(' ') + 1);
    line += '\n';
    out << line;
    line.clear();
  };
  for (std::size_t c = 0; c < columns_.size(); ++c) add_cell(c, columns_[c].header);
  end_line();
  for (std::size_t r = 0; r < rows(); ++r) {
    for_each_cell(r, add_cell);
    end_line();
  }
}

void TextTable::print_markdown(std::ostream& out) const {
  const auto add_cell = [&](std::size_t, std::string_view cell) { out << ' ' << cell << " |"; };
  out << '|';
  for (std::size_t c = 0; c < columns_.size(); ++c) add_cell(c, columns_[c].header);
  out << "\n|";
  for (const Column& column : columns_) out << (column.align == Align::left ? "---|" : "---:|");
  out << '\n';
  for (std::size_t r = 0; r < rows(); ++r) {
    out << '|';
    for_each_cell(r, add_cell);
    out << '\n';
  }
}

}  // namespace allocgate::reports
