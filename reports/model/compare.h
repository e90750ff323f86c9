// SPDX-License-Identifier: Apache-2.0
// `allocgate compare BASE HEAD`: for a developer judging a change, per case
// both sides' exact allocs/op and bytes/op with their deltas, both sides'
// times with their spread and the change in percent with its p, the cases
// that changed first (like benchstat, but counts need no statistics).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "allocgate/site_frame.h"
#include "index_iterator.h"
#include "mann_whitney.h"
#include "report.h"

namespace allocgate::reports {

// A case of either report, or of both, with what compare says of its times.
struct CompareRow {
  std::string name;
  std::optional<CaseResult> base;  // absent: only in head
  std::optional<CaseResult> head;  // absent: only in base
  /// head/base median time, and the range the repetitions allow:
  /// [head min / base max, head max / base min].
  std::optional<double> time_ratio, ratio_low, ratio_high;
  /// The Mann-Whitney U test's two-sided p-value over both reports'
  /// repetitions; absent when either has no repetitions.
  std::optional<double> time_p;
  /// Repetitions too few for any p below kSignificance: no time change can be told.
  bool too_few_repetitions = false;

  bool allocs_changed() const;
  bool bytes_changed() const;
  /// A time difference noise does not explain: p < kSignificance; without
  /// repetitions, ranges that do not overlap.
  bool time_changed() const;
};

/// The p-value below which a time change is real, as benchstat takes it.
inline constexpr double kSignificance = 0.05;

/// Over the cases timed in both reports: the geometric mean of head/base
/// time, how many changed significantly, and whether any could.
struct TimeSummary {
  std::size_t timed = 0, significant = 0;
  std::optional<double> geomean;
  bool too_few_repetitions = false;  ///< no case had enough to tell
};

/// Two reports compared: the reports, their cases packed, and the order of
/// the rows; a row is made when asked (operator[], or iterating), so that a
/// comparison of 1,000,000 cases holds 8 bytes a row, not two decoded cases.
class Comparison {
 public:
  using Iterator = files::IndexIterator<Comparison, CompareRow>;

  std::size_t size() const { return rows_.size(); }
  CompareRow operator[](std::size_t i) const;
  Iterator begin() const { return {this, 0}; }
  Iterator end() const { return {this, size()}; }

 private:
  friend Comparison compare_reports(Report base, Report head);
  static constexpr std::uint32_t kNone = ~std::uint32_t{0};
  struct Pair {
    std::uint32_t base, head;  // indices into the reports' cases; kNone: not in that report
  };
  Report base_, head_;
  std::vector<Pair> rows_;
};

/// Changed allocations first (largest change first), then changed bytes,
/// then changed times, then the rest; cases in only one report last. Takes
/// the reports by value: pass them with std::move when they are not needed
/// after, so that each case is held once.
Comparison compare_reports(Report base, Report head);

/// The sites whose allocs/op changed, each once with the cases it reaches
/// (most cases first), then the table.
void print_comparison(std::ostream& out, const Comparison& rows, bool markdown);

TimeSummary summarize_times(const Comparison& rows);

/// A row's cells as every rendering prints them: allocs/op and bytes/op as
/// "1 -> 14 (+13)", each side's time with its spread, the time change
/// ("~ +2% p=0.40 n=5+5", "~" where not significant), and a note ("only in
/// base", "allocations changed"...). Empty where a figure is absent.
struct CompareCells {
  std::string allocs, bytes, base_time, head_time, change, note;
};
CompareCells compare_cells(const CompareRow& row);

/// A page (compare_page.cpp): each case whose allocations changed with both
/// sides' figures and a differential flame graph of its stacks; the others
/// folded away. base_name and head_name say which reports they are.
void print_compare_html(std::ostream& out, const Comparison& rows, const std::string& base_name,
                        const std::string& head_name);
/// The id of a case's section on that page, and the fragment that links to
/// it: "case-" and the name, as it is (escape it for where it is written).
std::string compare_anchor(const std::string& case_name);

/// One line of code's change in allocs/op and bytes/op between a case's two sides.
struct SiteChange {
  SiteFrame where;                     ///< the line's first site in head (else in base)
  std::vector<std::string> functions;  ///< every function seen at the line: template instances, inlined copies
  double change = 0;                   ///< head's allocs/op at the line minus base's
  double bytes_change = 0;             ///< head's bytes/op at the line minus base's
  double temporary = 0;                ///< head's temporaries/op at the line
  std::string hint;                    ///< head's fix hint at the line, when one is known
};

/// Whether a case's sites were measured: it has some, or allocates nothing.
bool sites_measured(const CaseResult& c);

/// What a line's change is told by: its allocations, or its bytes (where
/// the count stayed and the sizes grew: a larger block, another type).
enum class SiteMeasure { allocs, bytes };

/// Per line of code (file:line; a site without a file by its function), as
/// the gate groups them: the lines whose measure changed, largest change
/// first. None unless both sides have sites.
std::vector<SiteChange> site_changes(const CompareRow& row, SiteMeasure by = SiteMeasure::allocs);

}  // namespace allocgate::reports
