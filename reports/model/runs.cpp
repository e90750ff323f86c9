// SPDX-License-Identifier: Apache-2.0
#include "runs.h"

#include <algorithm>

#include "format.h"
#include "input_error.h"

namespace allocgate::reports {

Report fold_runs(std::vector<NamedReport> runs, Spreads& spreads) {
  if (runs.empty()) throw files::InputError("no report to read");
  Report folded = std::move(runs.front().report);
  const std::string& first = runs.front().source;
  const CaseIndex index(folded);
  std::vector<Spread> seen(folded.cases.size());
  for (std::size_t i = 0; i < folded.cases.size(); ++i) {
    const CaseResult c = folded.cases[i];
    const double bytes = c.bytes_per_op.value_or(0);
    seen[i] = Spread{c.allocs_per_op_min.value_or(c.allocs_per_op), c.allocs_per_op, bytes, bytes, 1};
  }
  for (std::size_t r = 1; r < runs.size(); ++r) {
    const NamedReport& run = runs[r];
    if (run.report.toolchain() != folded.toolchain()) {
      throw files::InputError(run.source + " names the toolchain '" + run.report.toolchain() + "', " + first + " '" +
                              folded.toolchain() + "': runs of one suite are of one build");
    }
    if (run.report.cases.size() != folded.cases.size()) {
      throw files::InputError(run.source + " has " + std::to_string(run.report.cases.size()) + " cases, " + first +
                              " " + std::to_string(folded.cases.size()) + ": runs of one suite have the same cases");
    }
    for (const CaseResult c : run.report.cases) {
      const std::optional<std::size_t> at = index.index_of(c.name);
      if (!at) throw files::InputError(run.source + ": " + c.name + " is not a case of " + first);
      Spread& s = seen[*at];
      const double bytes = c.bytes_per_op.value_or(0);
      s.allocs_min = std::min(s.allocs_min, c.allocs_per_op_min.value_or(c.allocs_per_op));
      s.allocs_max = std::max(s.allocs_max, c.allocs_per_op);
      s.bytes_min = std::min(s.bytes_min, bytes);
      s.bytes_max = std::max(s.bytes_max, bytes);
      ++s.runs;
      CaseResult most = folded.cases[*at];
      most.allocs_per_op = s.allocs_max;
      if (most.bytes_per_op) most.bytes_per_op = s.bytes_max;
      if (c.peak_bytes) most.peak_bytes = std::max(most.peak_bytes.value_or(0), *c.peak_bytes);
      if (c.leaked_bytes_per_op)
        most.leaked_bytes_per_op = std::max(most.leaked_bytes_per_op.value_or(0), *c.leaked_bytes_per_op);
      most.test_failed = most.test_failed || c.test_failed;
      if (c.other_thread_allocs) {
        most.other_thread_allocs = std::max(most.other_thread_allocs.value_or(0), *c.other_thread_allocs);
      }
      folded.cases.set(*at, most);
    }
  }
  for (std::size_t i = 0; i < folded.cases.size(); ++i) {
    if (!seen[i].varies()) continue;
    // Within one run's repetitions a count that varies is refused; across
    // runs it is the range recorded.
    CaseResult c = folded.cases[i];
    c.allocs_per_op_min.reset();
    folded.cases.set(i, c);
    spreads.emplace(c.name, seen[i]);
  }
  return folded;
}

std::string describe(const std::string& name, const Spread& spread) {
  std::string line = name + " varies between " + std::to_string(spread.runs) + " runs:";
  if (spread.allocs_max > spread.allocs_min) {
    line += " allocs/op " + files::exact(spread.allocs_min) + "-" + files::exact(spread.allocs_max);
  }
  if (spread.bytes_max > spread.bytes_min) {
    line += std::string(spread.allocs_max > spread.allocs_min ? "," : "") + " bytes/op " +
            files::exact(spread.bytes_min) + "-" + files::exact(spread.bytes_max);
  }
  return line;
}

}  // namespace allocgate::reports
