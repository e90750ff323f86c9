// Columns of text aligned for a terminal: each column as wide as its widest
// cell and two spaces from the next, so that no two figures ever touch.
#pragma once

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

  /// One cell per column, already escaped for a terminal; missing cells are empty.
  void add_row(std::vector<std::string> cells);

  /// The header, then the rows; trailing spaces trimmed.
  void print(std::ostream& out) const;

 private:
  std::vector<Column> columns_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace allocgate::reports
