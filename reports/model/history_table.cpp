// SPDX-License-Identifier: Apache-2.0
#include "history_table.h"

#include <ostream>

#include "escape.h"
#include "format.h"
#include "input_error.h"
#include "json_keys.h"
#include "text_table.h"

namespace allocgate::reports {

namespace k = allocgate::reports::keys;

RunKey run_key(const Report& report, const RunKeyOverrides& overrides, const std::string& source) {
  RunKey key;
  key.commit = overrides.commit.value_or(report.context_text(k::kGitCommit));
  key.date = overrides.date.value_or(report.context_text(k::kDate));
  key.branch = overrides.branch.value_or("");
  key.toolchain = overrides.toolchain.value_or(report.toolchain());
  key.host = overrides.host.value_or(report.context_text(k::kHostName));
  if (key.commit.empty()) throw files::InputError(source + ": no git_commit in its context; pass --commit");
  if (key.date.empty()) throw files::InputError(source + ": no date in its context; pass --date");
  for (const std::string* text : {&key.commit, &key.date, &key.branch, &key.toolchain, &key.host}) {
    if (!files::valid_utf8(*text))
      throw files::InputError(source + ": the run's commit, date, branch, toolchain or host is not UTF-8");
  }
  return key;
}

namespace {

// The column where the figure last changed from the run before it that had
// it; none when it never changed.
std::optional<std::size_t> last_change(const std::vector<std::optional<double>>& values) {
  std::optional<std::size_t> changed;
  std::optional<double> previous;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!values[i]) continue;
    if (previous && *values[i] != *previous) changed = i;
    previous = values[i];
  }
  return changed;
}

}  // namespace

void print_history(std::ostream& out, const HistoryTable& table, bool markdown) {
  if (table.runs.empty()) {
    out << "no runs recorded\n";
    return;
  }
  // One row per case and figure; one column per run, headed by its commit.
  std::vector<std::vector<std::string>> cells;
  std::vector<std::string> header{"case", "figure"};
  for (const RunKey& run : table.runs) {
    const std::string commit(files::utf8_prefix(run.commit, 10));
    header.push_back(markdown ? files::markdown_code(commit) : files::terminal_text(commit));
  }
  cells.push_back(header);
  struct Figure {
    const char* label;
    std::optional<double> (*get)(const HistoryFigures&);
    bool exact;
  };
  const Figure kFigures[] = {
      {"allocs/op", [](const HistoryFigures& f) { return std::optional<double>(f.allocs_per_op); }, true},
      {"bytes/op", [](const HistoryFigures& f) { return f.bytes_per_op; }, true},
      {"ns/op", [](const HistoryFigures& f) { return f.ns_median; }, false},
  };
  for (std::size_t c = 0; c < table.cases.size(); ++c) {
    for (const Figure& figure : kFigures) {
      std::vector<std::optional<double>> values;
      for (const auto& f : table.figures[c]) values.push_back(f ? figure.get(*f) : std::nullopt);
      if (std::none_of(values.begin(), values.end(), [](const auto& v) { return v.has_value(); })) continue;
      // Times vary from run to run: only the exact figures mark a change.
      const auto changed = figure.exact ? last_change(values) : std::nullopt;
      std::vector<std::string> row{
          markdown ? files::markdown_code(table.cases[c]) : files::terminal_text(table.cases[c]), figure.label};
      for (std::size_t i = 0; i < values.size(); ++i) {
        std::string cell = !values[i]     ? "-"
                           : figure.exact ? files::readable(*values[i])
                                          : files::nanoseconds(*values[i]);
        if (changed == i) cell += " *";
        row.push_back(cell);
      }
      cells.push_back(std::move(row));
    }
  }
  // Names left, figures right.
  std::vector<TextTable::Column> columns;
  for (std::size_t i = 0; i < header.size(); ++i) {
    columns.push_back({header[i], i < 2 ? TextTable::Align::left : TextTable::Align::right});
  }
  TextTable text(std::move(columns));
  for (std::size_t r = 1; r < cells.size(); ++r) text.add_row(std::move(cells[r]));
  text.print(out, markdown);
  out << (markdown ? "\n" : "") << "* the run where a figure last changed; runs oldest first by date\n";
}

}  // namespace allocgate::reports
