// SPDX-License-Identifier: Apache-2.0
#include "compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <ostream>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "escape.h"
#include "format.h"
#include "name_order.h"
#include "site_findings.h"
#include "text_table.h"

namespace allocgate::reports {

bool CompareRow::allocs_changed() const { return base && head && base->allocs_per_op != head->allocs_per_op; }

bool CompareRow::bytes_changed() const {
  return base && head && base->bytes_per_op && head->bytes_per_op && *base->bytes_per_op != *head->bytes_per_op;
}

bool CompareRow::time_changed() const {
  if (time_p) return !too_few_repetitions && *time_p < kSignificance;
  // Without the repetitions (a report that kept only their range): the
  // ranges do not overlap.
  return ratio_low && ratio_high && (*ratio_high < 1 || *ratio_low > 1);
}

TimeSummary summarize_times(const Comparison& rows) {
  TimeSummary summary;
  double log_sum = 0;
  bool any_could = false;
  for (const CompareRow& r : rows) {
    if (!r.time_ratio || *r.time_ratio <= 0) continue;
    ++summary.timed;
    log_sum += std::log(*r.time_ratio);
    summary.significant += r.time_changed();
    any_could = any_could || (r.time_p && !r.too_few_repetitions);
  }
  if (summary.timed > 0) summary.geomean = std::exp(log_sum / static_cast<double>(summary.timed));
  summary.too_few_repetitions = summary.timed > 0 && !any_could;
  return summary;
}

namespace {

// A row of the two sides' cases, with its times compared.
CompareRow make_row(std::optional<CaseResult> base, std::optional<CaseResult> head) {
  std::string name = base ? base->name : head->name;
  CompareRow row{std::move(name), std::move(base), std::move(head), {}, {}, {}, {}, false};
  if (!row.base || !row.head) return row;
  const CaseResult &b = *row.base, &h = *row.head;
  if (b.ns_median && h.ns_median && *b.ns_median > 0) {
    row.time_ratio = *h.ns_median / *b.ns_median;
    if (b.ns_min && b.ns_max && h.ns_min && h.ns_max && *b.ns_min > 0) {
      row.ratio_low = *h.ns_min / *b.ns_max;
      row.ratio_high = *h.ns_max / *b.ns_min;
    }
    row.time_p = mann_whitney_p(b.ns_repetitions, h.ns_repetitions);
    row.too_few_repetitions =
        row.time_p && smallest_p(b.ns_repetitions.size(), h.ns_repetitions.size()) >= kSignificance;
  }
  return row;
}

}  // namespace

CompareRow Comparison::operator[](std::size_t i) const {
  const Pair& p = rows_.at(i);
  return make_row(p.base == kNone ? std::nullopt : std::optional<CaseResult>(base_.cases[p.base]),
                  p.head == kNone ? std::nullopt : std::optional<CaseResult>(head_.cases[p.head]));
}

Comparison compare_reports(Report base, Report head) {
  Comparison comparison;
  std::vector<Comparison::Pair>& rows = comparison.rows_;
  std::vector<bool> paired(head.cases.size(), false);
  {
    const CaseIndex head_index(head);
    for (std::size_t i = 0; i < base.cases.size(); ++i) {
      const auto j = head_index.index_of(base.cases.name(i));
      rows.push_back({static_cast<std::uint32_t>(i), j ? static_cast<std::uint32_t>(*j) : Comparison::kNone});
      if (j) paired[*j] = true;
    }
  }
  for (std::size_t j = 0; j < head.cases.size(); ++j) {
    if (!paired[j]) rows.push_back({Comparison::kNone, static_cast<std::uint32_t>(j)});
  }
  comparison.base_ = std::move(base);
  comparison.head_ = std::move(head);

  // Each row's place, worked out once from its cases; then sorted by it.
  struct Key {
    int rank;
    double magnitude;
    std::uint32_t row;
  };
  std::vector<Key> keys;
  keys.reserve(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const CompareRow r = comparison[i];
    const int rank = !r.base || !r.head ? 4 : r.allocs_changed() ? 0 : r.bytes_changed() ? 1 : r.time_changed() ? 2 : 3;
    const double magnitude = r.allocs_changed() ? std::fabs(r.head->allocs_per_op - r.base->allocs_per_op) : 0.0;
    keys.push_back({rank, magnitude, static_cast<std::uint32_t>(i)});
  }
  const auto name_of = [&](std::uint32_t row) {
    const Comparison::Pair& p = rows[row];
    return p.base != Comparison::kNone ? comparison.base_.cases.name(p.base) : comparison.head_.cases.name(p.head);
  };
  std::stable_sort(keys.begin(), keys.end(), [&](const Key& a, const Key& b) {
    if (a.rank != b.rank) return a.rank < b.rank;
    if (a.magnitude != b.magnitude) return a.magnitude > b.magnitude;
    return name_before(name_of(a.row), name_of(b.row));
  });
  std::vector<Comparison::Pair> sorted;
  sorted.reserve(rows.size());
  for (const Key& key : keys) sorted.push_back(rows[key.row]);
  rows = std::move(sorted);
  return comparison;
}

namespace {

// "1 -> 14 (+13)": both sides, and the delta when they differ.
std::string both_sides(double base, double head) {
  std::string text = files::readable(base) + " -> " + files::readable(head);
  if (base != head) text += " (" + files::signed_readable(head - base) + ")";
  return text;
}

// A side's median time and, as benchstat gives it, its spread: how far the
// farthest repetition lies from the median, as a share of it ("102 ns ± 2%").
std::string time_with_spread(const CaseResult& c) {
  std::string text = files::compact_nanoseconds(*c.ns_median);
  if (c.ns_min && c.ns_max && *c.ns_median > 0) {
    const double farthest = std::max(*c.ns_median - *c.ns_min, *c.ns_max - *c.ns_median);
    text += " \u00b1 " + files::percent(farthest / *c.ns_median);
  }
  return text;
}

// A p-value with two significant digits: "0.008", "0.40", "1".
std::string p_text(double p) {
  char text[16];
  std::snprintf(text, sizeof text, "%.2g", p);
  return text;
}

}  // namespace

CompareCells compare_cells(const CompareRow& r) {
  CompareCells c;
  if (!r.base || !r.head) {
    c.note = r.base ? "only in base" : "only in head";
    return c;
  }
  c.allocs = both_sides(r.base->allocs_per_op, r.head->allocs_per_op);
  if (r.base->bytes_per_op && r.head->bytes_per_op) c.bytes = both_sides(*r.base->bytes_per_op, *r.head->bytes_per_op);
  if (r.base->ns_median) c.base_time = time_with_spread(*r.base);
  if (r.head->ns_median) c.head_time = time_with_spread(*r.head);
  if (r.time_ratio) {
    // benchstat's way: "~" where the change is not significant.
    c.change = (r.time_p || r.ratio_low) && !r.time_changed() ? "~ " : "";
    c.change += files::signed_percent(*r.time_ratio - 1);
    if (r.time_p) {
      c.change += " p=" + p_text(*r.time_p) + " n=" + std::to_string(r.base->ns_repetitions.size()) + "+" +
                  std::to_string(r.head->ns_repetitions.size());
    }
  }
  c.note = r.allocs_changed()  ? "allocations changed"
           : r.bytes_changed() ? "bytes changed"
           : r.time_changed()  ? (*r.time_ratio < 1 ? "faster" : "slower")
                               : "";
  return c;
}

bool sites_measured(const CaseResult& c) { return !c.sites.empty() || c.allocs_per_op == 0; }

std::vector<SiteChange> site_changes(const CompareRow& row, SiteMeasure by) {
  std::vector<SiteChange> lines;
  // A site's change is told only where both sides measured their sites: a
  // side without them would make every site of the other a change.
  if (!row.head || !row.base || !sites_measured(*row.head) || !sites_measured(*row.base)) return {};
  std::unordered_map<std::string, std::size_t> index;  // the line's key -> its change
  const auto add = [&](const SiteSummary& site, double sign) {
    const SiteFrame& where = site.where();
    const auto [at, added] = index.try_emplace(line_key(where), lines.size());
    if (added) lines.push_back(SiteChange{where, {}, 0, 0, 0, {}});
    SiteChange& line = lines[at->second];
    line.change += sign * site.allocs_per_op;
    line.bytes_change += sign * site.bytes_per_op;
    if (std::find(line.functions.begin(), line.functions.end(), where.function) == line.functions.end()) {
      line.functions.push_back(where.function);
    }
    if (sign > 0) {
      line.temporary += site.temporary_per_op;
      if (line.hint.empty()) line.hint = site.hint;
    }
  };
  if (row.head) {
    for (const SiteSummary& s : row.head->sites) add(s, +1);
  }
  if (row.base) {
    for (const SiteSummary& s : row.base->sites) add(s, -1);
  }
  const auto measure = [by](const SiteChange& line) {
    return by == SiteMeasure::bytes ? line.bytes_change : line.change;
  };
  std::vector<SiteChange> changes;
  for (SiteChange& line : lines) {
    if (measure(line) != 0) changes.push_back(std::move(line));
  }
  std::stable_sort(changes.begin(), changes.end(), [&](const SiteChange& a, const SiteChange& b) {
    return std::fabs(measure(a)) > std::fabs(measure(b));
  });
  return changes;
}

void print_comparison(std::ostream& out, const Comparison& rows, bool markdown) {
  // The sites first, each line of code once with the cases whose
  // allocations it changed, its temporaries and its fix, as the gate says them.
  SiteFindings findings;
  for (const CompareRow& r : rows) {
    if (!r.allocs_changed()) continue;
    for (const SiteChange& line : site_changes(r)) {
      findings.add(line.where, r.name, line.change, line.temporary, line.hint, line.functions);
    }
  }
  const auto escape = [markdown](const std::string& t) { return markdown ? t : files::terminal_text(t); };
  const std::vector<SiteFinding> by_site = findings.by_site();
  for (const SiteFinding& finding : by_site) {
    const std::string line = finding_line(finding, escape);
    out << (markdown ? "- " + files::markdown_text(line) : line) << "\n";
    if (!finding.hint.empty()) {
      out << (markdown ? "  - hint: " + files::markdown_text(finding.hint)
                       : "  hint: " + files::terminal_text(finding.hint))
          << "\n";
    }
  }
  if (!by_site.empty()) out << "\n";
  using Align = TextTable::Align;
  TextTable table({{"case", Align::left},
                   {"allocs/op", Align::right},
                   {"bytes/op", Align::right},
                   {"time base", Align::right},
                   {"time head", Align::right},
                   {"time vs base", Align::right},
                   {"", Align::left}});
  for (const CompareRow& r : rows) {
    CompareCells c = compare_cells(r);
    table.add_row({markdown ? files::markdown_code(r.name) : files::terminal_text(r.name), std::move(c.allocs),
                   std::move(c.bytes), std::move(c.base_time), std::move(c.head_time), std::move(c.change),
                   std::move(c.note)});
  }
  table.print(out, markdown);
  const TimeSummary times = summarize_times(rows);
  if (times.geomean) {
    out << (markdown ? "\n" : "") << "time: geomean head/base " << files::ratio(*times.geomean) << " over "
        << times.timed << " case(s); ";
    if (times.too_few_repetitions) {
      out << "too few repetitions to tell a change from noise (Mann-Whitney U needs 4 per report for p < 0.05)\n";
    } else {
      out << times.significant << " changed (Mann-Whitney U, p < 0.05); ~ marks a change noise may explain\n";
    }
  }
}

}  // namespace allocgate::reports
