// SPDX-License-Identifier: Apache-2.0
// A history's figures as cases by runs (what `allocgate history` reads out
// of its database, command/history.h), and their renderings: a text or
// markdown table (history_table.cpp), an HTML page of charts
// (history_chart.cpp).
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "report.h"

namespace allocgate::reports {

/// What a recorded run is known by. Adding a report whose key is recorded
/// already changes nothing.
struct RunKey {
  std::string commit, date, branch, toolchain, host;
};

/// The parts of a key given on the command line, over the report's context.
struct RunKeyOverrides {
  std::optional<std::string> commit, date, branch, toolchain, host;
};

/// The report's key: commit (context.git_commit), date, toolchain and host
/// (context.host_name) from its context, each overridable; the branch only
/// from the overrides. Throws InputError when there is no commit or date.
RunKey run_key(const Report& report, const RunKeyOverrides& overrides, const std::string& source);

/// One case's figures in one run.
struct HistoryFigures {
  double allocs_per_op = 0;
  std::optional<double> bytes_per_op, ns_median, ns_min, ns_max;
};

/// Cases by runs: what `history show` prints. figures[case][run] is absent
/// where the run did not have the case.
struct HistoryTable {
  std::vector<RunKey> runs;  ///< oldest first
  std::vector<std::string> cases;
  std::vector<std::vector<std::optional<HistoryFigures>>> figures;
};

/// Cases by runs, each figure's row marking (`*`) the run where it last
/// changed: a text table, or markdown.
void print_history(std::ostream& out, const HistoryTable& table, bool markdown);

/// A self-contained HTML page (history_chart.cpp): Chart.js charts per case
/// over the runs, allocs/op and bytes/op exact, the time with its spread,
/// commits and dates on the x axis, each run where an exact figure changed
/// marked.
void print_history_chart(std::ostream& out, const HistoryTable& table);

}  // namespace allocgate::reports
