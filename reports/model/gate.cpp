// SPDX-License-Identifier: Apache-2.0
#include "gate.h"

#include <algorithm>
#include <cmath>
#include <ostream>
#include <set>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "compare.h"
#include "escape.h"
#include "format.h"
#include "input_error.h"
#include "name_order.h"
#include "site_findings.h"
#include "sweep_gate.h"
#include "text_table.h"

namespace allocgate::reports {

const char* label(Status status) {
  switch (status) {
    case Status::regression:
      return "REGRESSION";
    case Status::varies:
      return "VARIES";
    case Status::errored:
      return "ERROR";
    case Status::unmeasured:
      return "unmeasured";
    case Status::unbounded:
      return "no bound";
    case Status::missing:
      return "no case";
    case Status::skipped:
      return "skipped";
    case Status::improved:
      return "improved";
    case Status::ok:
      return "ok";
  }
  return "";
}

namespace {

// Why a count changes between runs of the same code.
constexpr const char* kVariesCause =
    "something in the loop does not allocate the same every run (a cache, a pool, a clock or a random number)";

// "varies: 1-2 allocs/op between repetitions".
std::string varies(const CaseResult& c) {
  return "varies: " + files::exact(*c.allocs_per_op_min) + "-" + files::exact(c.allocs_per_op) +
         " allocs/op between repetitions";
}

GateRow judge_figures(const bounds::Bound& bound, CaseResult case_result) {
  std::string name = case_result.name;
  GateRow row{std::move(name), Status::ok, bound, std::move(case_result), {}};
  const CaseResult& measured = *row.measured;
  const double allocs_limit = bound.allocs_per_op + bound.tolerance;
  // A count that changes between runs of the same code would pass or fail by
  // chance; a tolerance on the bound says that is expected.
  if (measured.allocs_per_op_min && bound.tolerance == 0) {
    row.status = Status::varies;
    row.detail = varies(measured) + ": " + kVariesCause + "; make it deterministic or give the bound a tolerance";
    return row;
  }
  if (measured.allocs_per_op > allocs_limit) {
    row.status = Status::regression;
    row.detail = "allocs/op " + files::exact(measured.allocs_per_op) + " > bound " + files::exact(bound.allocs_per_op) +
                 (bound.tolerance > 0 ? " + " + files::exact(bound.tolerance) : std::string()) + " (" +
                 files::signed_exact(measured.allocs_per_op - bound.allocs_per_op) + ")";
    return row;
  }
  if (bound.bytes_per_op) {
    if (!measured.bytes_per_op) {
      row.status = Status::unmeasured;
      row.detail = "bytes/op is bounded (" + files::exact(*bound.bytes_per_op) + ") but the report has no bytes figure";
      return row;
    }
    if (*measured.bytes_per_op > *bound.bytes_per_op + bound.bytes_tolerance) {
      row.status = Status::regression;
      row.detail = "bytes/op " + files::exact(*measured.bytes_per_op) + " > bound " +
                   files::exact(*bound.bytes_per_op) + " (" +
                   files::signed_exact(*measured.bytes_per_op - *bound.bytes_per_op) + ")";
      return row;
    }
  }
  // Memory held: the peak of one operation, and what it leaves behind. A
  // figure the report could not measure (a free of unknown size) is never taken for 0.
  const auto held = [&](const std::optional<double>& limit, const std::optional<double>& figure, const char* what) {
    if (!limit) return false;
    if (!figure) {
      row.status = Status::unmeasured;
      row.detail = std::string(what) + " is bounded (" + files::exact(*limit) +
                   ") but the report does not know it (a free of unknown size: see block headers)";
      return true;
    }
    if (*figure <= *limit) return false;
    row.status = Status::regression;
    row.detail = std::string(what) + " " + files::exact(*figure) + " > bound " + files::exact(*limit) + " (" +
                 files::signed_exact(*figure - *limit) + ")";
    return true;
  };
  if (held(bound.peak_bytes, measured.peak_bytes, "peak_bytes")) return row;
  if (held(bound.leaked_bytes_per_op, measured.leaked_bytes_per_op, "leaked_bytes_per_op")) return row;
  if (measured.allocs_per_op < bound.allocs_per_op) {
    row.status = Status::improved;
    row.detail = "allocs/op " + files::exact(measured.allocs_per_op) + " < bound " + files::exact(bound.allocs_per_op) +
                 " (" + files::signed_exact(measured.allocs_per_op - bound.allocs_per_op) + "): tighten with --update";
  }
  return row;
}

// A case's figures, then its failure sweep: a bad outcome its bound does
// not record fails it, beside a figure over its bound or alone.
GateRow judge(const bounds::Bound& bound, CaseResult case_result) {
  GateRow row = judge_figures(bound, std::move(case_result));
  const CaseResult& measured = *row.measured;
  if (!measured.sweep ||
      (row.status != Status::ok && row.status != Status::improved && row.status != Status::regression)) {
    return row;
  }
  const std::vector<const SweepFindingResult*> found = new_findings(bound.sweep, *measured.sweep);
  if (found.empty()) return row;
  if (row.status == Status::regression) {
    row.detail += "; " + new_findings_text(found);
  } else {
    row.status = Status::regression;
    row.detail = new_findings_text(found);
  }
  return row;
}

// The suite-wide limits the case falls under, each figure its own bound
// does not set: "leaked_bytes_per_op 133 > limit 0 (every case: no test leaks)".
void apply_limits(GateRow& row, const std::vector<bounds::Limit>& limits, const std::vector<LimitScope>& scopes) {
  if (!row.measured || (row.status != Status::ok && row.status != Status::improved && row.status != Status::unbounded))
    return;
  const CaseResult& measured = *row.measured;
  const std::optional<bounds::Bound>& own = row.bound;
  bool allocs_limited = false;
  for (std::size_t i = 0; i < limits.size(); ++i) {
    const bounds::Limit& limit = limits[i];
    if (!scopes[i](measured.name)) continue;
    const std::string whose = (limit.cases.empty() ? std::string("every case") : "cases matching " + limit.cases) +
                              (limit.note.empty() ? std::string() : ": " + limit.note);
    const auto over = [&](const std::optional<double>& most, const std::optional<double>& figure, bool own_sets,
                          const char* what) {
      if (!most || own_sets) return false;
      if (!figure) {
        row.status = Status::unmeasured;
        row.detail = std::string(what) + " is limited (" + files::exact(*most) + ", " + whose +
                     ") but the report does not know it";
        return true;
      }
      if (*figure <= *most) return false;
      row.status = Status::regression;
      row.detail =
          std::string(what) + " " + files::exact(*figure) + " > limit " + files::exact(*most) + " (" + whose + ")";
      return true;
    };
    if (over(limit.allocs_per_op, measured.allocs_per_op, own.has_value(), "allocs/op") ||
        over(limit.bytes_per_op, measured.bytes_per_op, own && own->bytes_per_op, "bytes/op") ||
        over(limit.peak_bytes, measured.peak_bytes, own && own->peak_bytes, "peak_bytes") ||
        over(limit.leaked_bytes_per_op, measured.leaked_bytes_per_op, own && own->leaked_bytes_per_op,
             "leaked_bytes_per_op")) {
      return;
    }
    allocs_limited = allocs_limited || limit.allocs_per_op.has_value();
  }
  if (row.status == Status::unbounded && allocs_limited) {
    row.status = Status::ok;  // a limit is its bound
    row.detail = "within the suite's limits";
  }
}

std::string cell(const std::optional<double>& value) { return value ? files::readable(*value) : "-"; }

// A row's bound, measured allocs/op, delta and bytes/op as a table shows
// them (the REGRESSION lines above it are exact); "-" where absent.
struct RowCells {
  std::string bound, measured, delta, bytes;
};

RowCells cells_of(const GateRow& row) {
  RowCells c{"-", "-", "-", "-"};
  if (row.bound) c.bound = files::readable(row.bound->allocs_per_op);
  if (row.measured) {
    c.measured = files::readable(row.measured->allocs_per_op);
    if (row.measured->allocs_per_op_min)
      c.measured = files::readable(*row.measured->allocs_per_op_min) + "-" + c.measured;
    c.bytes = cell(row.measured->bytes_per_op);
  }
  if (row.bound && row.measured)
    c.delta = files::signed_readable(row.measured->allocs_per_op - row.bound->allocs_per_op);
  return c;
}

}  // namespace

std::size_t GateResult::count(Status status) const {
  std::size_t n = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) n += rows.status(i) == status;
  return n;
}

bool GateResult::failed(bool strict) const {
  if (count(Status::regression) + count(Status::varies) + count(Status::errored) > 0) return true;
  return strict &&
         (count(Status::unmeasured) + count(Status::unbounded) + count(Status::missing) + count(Status::skipped)) > 0;
}

std::string_view GateRows::name(const Packed& p) const {
  if (p.measured != kNone) return report_.cases.name(p.measured);
  if (p.not_run != kNone) return report_.not_run[p.not_run].name;
  return bounds_.name(p.bound);
}

GateRow GateRows::operator[](std::size_t i) const {
  const Packed& p = rows_.at(i);
  GateRow row{std::string(name(p)), p.status, std::nullopt, std::nullopt, {}};
  if (p.bound != kNone) row.bound = bounds_[p.bound].bound;
  if (p.measured != kNone) row.measured = report_.cases[p.measured];
  if (p.detail != kNone) row.detail = details_[p.detail];
  return row;
}

GateResult evaluate(Report report, bounds::BoundsFile bounds, const std::string& toolchain,
                    const std::string& bounds_source, const std::vector<LimitScope>& scopes) {
  if (scopes.size() != bounds.limits.size()) throw std::logic_error("evaluate: a scope per limit");
  const auto section = bounds.toolchains.find(toolchain);
  if (section == bounds.toolchains.end()) {
    std::string known;
    for (const auto& [key, cases] : bounds.toolchains) known += (known.empty() ? "" : ", ") + key;
    throw files::InputError(bounds_source + " has no bounds for toolchain " + toolchain +
                            " (it has: " + (known.empty() ? "none" : known) +
                            "); record them with: allocgate diff --update --bounds " + bounds_source + " REPORT");
  }
  GateResult result;
  result.toolchain = toolchain;
  GateRows& rows = result.rows;
  rows.report_ = std::move(report);
  rows.bounds_ = std::move(section->second);
  const Report& r = rows.report_;
  const bounds::ToolchainBounds& bounded = rows.bounds_;
  rows.rows_.reserve(r.cases.size() + r.not_run.size());

  // A row judged whole (with the suite's limits), kept packed. A detail that
  // many rows share ("no bound recorded for this case", "within the suite's
  // limits") is kept once; the first texts seen are remembered for that.
  std::unordered_map<std::string, std::uint32_t> common_details;
  constexpr std::size_t kCommonDetails = 1000;
  const auto add = [&](GateRow row, std::uint32_t bound, std::uint32_t measured, std::uint32_t not_run) {
    if (!bounds.limits.empty()) apply_limits(row, bounds.limits, scopes);
    std::uint32_t detail = GateRows::kNone;
    if (!row.detail.empty()) {
      if (const auto it = common_details.find(row.detail); it != common_details.end()) {
        detail = it->second;
      } else {
        detail = static_cast<std::uint32_t>(rows.details_.size());
        if (common_details.size() < kCommonDetails) common_details.emplace(row.detail, detail);
        rows.details_.push_back(std::move(row.detail));
      }
    }
    rows.rows_.push_back({bound, measured, not_run, detail, row.status});
  };
  const auto missing = [&](std::uint32_t bound) {
    auto [name, b] = bounded[bound];
    add({std::string(name), Status::missing, std::move(b), std::nullopt, "bounded, but not in the report"}, bound,
        GateRows::kNone, GateRows::kNone);
  };

  // The cases and not-run benchmarks by name, walked beside the bounds
  // (sorted by name): one pass matches them.
  struct Named {
    std::string_view name;  // into the report
    std::uint32_t index;
    bool not_run;
  };
  std::vector<Named> named;
  named.reserve(r.cases.size() + r.not_run.size());
  for (std::size_t i = 0; i < r.cases.size(); ++i)
    named.push_back({r.cases.name(i), static_cast<std::uint32_t>(i), false});
  for (std::size_t i = 0; i < r.not_run.size(); ++i)
    named.push_back({r.not_run[i].name, static_cast<std::uint32_t>(i), true});
  std::sort(named.begin(), named.end(), [](const Named& a, const Named& b) { return a.name < b.name; });

  std::uint32_t bound = 0;
  const auto bounds_count = static_cast<std::uint32_t>(bounded.size());
  for (auto entry = named.begin(); entry != named.end();) {
    while (bound < bounds_count && bounded.name(bound) < entry->name) missing(bound++);
    const bool has_bound = bound < bounds_count && bounded.name(bound) == entry->name;
    const std::optional<bounds::Bound> own = has_bound ? std::optional(bounded[bound].bound) : std::nullopt;
    const std::uint32_t own_index = has_bound ? bound : GateRows::kNone;
    // Every entry of this name (a case and a not-run benchmark may share one) meets the bound.
    const auto next = std::find_if(entry, named.end(), [&](const Named& e) { return e.name != entry->name; });
    for (; entry != next; ++entry) {
      if (entry->not_run) {
        const NotRun& n = r.not_run[entry->index];
        GateRow row{n.name, n.errored ? Status::errored : Status::skipped, own, std::nullopt,
                    std::string(n.errored ? "the benchmark reported an error" : "the benchmark was skipped") +
                        (n.message.empty() ? "" : ": " + n.message)};
        add(std::move(row), own_index, GateRows::kNone, entry->index);
      } else if (own) {
        add(judge(*own, r.cases[entry->index]), own_index, entry->index, GateRows::kNone);
      } else {
        CaseResult c = r.cases[entry->index];
        std::string name = c.name;
        add({std::move(name), Status::unbounded, std::nullopt, std::move(c), "no bound recorded for this case"},
            GateRows::kNone, entry->index, GateRows::kNone);
      }
    }
    if (has_bound) ++bound;
  }
  while (bound < bounds_count) missing(bound++);

  // Sorted by status, names in order within each (numbers by value:
  // BM_Copy/512 before BM_Copy/4096); rows of one status keep the name
  // order they were made in.
  std::stable_sort(rows.rows_.begin(), rows.rows_.end(), [&](const GateRows::Packed& x, const GateRows::Packed& y) {
    if (x.status != y.status) return x.status < y.status;
    return name_before(rows.name(x), rows.name(y));
  });
  return result;
}

namespace {

// The toolchain comes from the report: the caller escapes it for its medium.
void print_summary(std::ostream& out, const GateResult& r, const std::string& toolchain_shown) {
  out << r.count(Status::regression) << " regression(s), ";
  if (r.count(Status::varies) > 0) out << r.count(Status::varies) << " varying, ";
  if (r.count(Status::errored) > 0) out << r.count(Status::errored) << " errored, ";
  out << r.count(Status::improved) << " improved, " << r.count(Status::ok) << " ok; " << r.count(Status::unbounded)
      << " case(s) without a bound, " << r.count(Status::missing) << " bound(s) without a case";
  if (r.count(Status::unmeasured) > 0) out << ", " << r.count(Status::unmeasured) << " unmeasured";
  if (r.count(Status::skipped) > 0) out << ", " << r.count(Status::skipped) << " skipped";
  out << " [" << toolchain_shown << "]\n";
}

}  // namespace

namespace {

// Where a regressed case's allocations come from, when the report has sites.
constexpr std::size_t kSitesShown = 3;

// Rows that fail the gate whatever --strict says, printed ahead of the table.
bool fails(const GateRow& row) {
  return row.status == Status::regression || row.status == Status::varies || row.status == Status::errored;
}

// The sites shown under a failing case: the top ones by allocations, or by
// bytes when what failed is the memory it holds (peak or leak).
bool memory_failed(const GateRow& row) {
  return row.status == Status::regression &&
         (row.detail.rfind("peak_bytes", 0) == 0 || row.detail.rfind("leaked_bytes_per_op", 0) == 0);
}

// A regression of the failure sweep alone: its lines are the findings'
// (in its detail), not the lines that allocate.
bool sweep_only(const GateRow& row) { return row.detail.rfind("failure sweep:", 0) == 0; }

std::vector<const SiteSummary*> sites_shown(const GateRow& row) {
  std::vector<const SiteSummary*> sites;
  if (!row.measured || sweep_only(row)) return sites;
  for (const SiteSummary& site : row.measured->sites) sites.push_back(&site);
  if (memory_failed(row)) {
    std::stable_sort(sites.begin(), sites.end(),
                     [](const SiteSummary* a, const SiteSummary* b) { return a->bytes_per_op > b->bytes_per_op; });
  }
  if (sites.size() > kSitesShown) sites.resize(kSitesShown);
  return sites;
}

// Unescaped: each printer escapes it for its medium.
std::string site_line(const SiteSummary& site, bool with_bytes = false) {
  std::string line = files::readable(site.allocs_per_op) + " allocs/op";
  if (site.temporary_per_op > 0) line += " (" + files::readable(site.temporary_per_op) + " temporary)";
  if (with_bytes) line += ", " + files::readable(site.bytes_per_op) + " B/op";
  return line + " from " + to_string(site.where());
}

// Whether what failed is a figure in bytes (bytes/op, the peak, a leak):
// the lines that grew are then told by their bytes, as the count of
// allocations may not have moved.
bool bytes_failed(const GateRow& row) { return memory_failed(row) || row.detail.rfind("bytes/op", 0) == 0; }

// The lines whose allocs/op (or, for a regression in bytes, bytes/op) grew
// from the base's sites to the row's, largest first; empty without a base.
// A line that only moved (the same function and file, the same change, at
// another line: code added above it) is no change.
std::vector<SiteChange> grown_sites(const GateResult& result, const GateRow& row) {
  const auto base = result.base_sites.find(row.name);
  if (base == result.base_sites.end() || !row.measured) return {};
  CompareRow pair;
  pair.name = row.name;
  pair.base.emplace();
  pair.base->sites = base->second;
  pair.head = row.measured;
  const SiteMeasure by = bytes_failed(row) ? SiteMeasure::bytes : SiteMeasure::allocs;
  const auto measure = [by](const SiteChange& c) { return by == SiteMeasure::bytes ? c.bytes_change : c.change; };
  std::vector<SiteChange> changes = site_changes(pair, by);
  const auto moved = [&](const SiteChange& a, const SiteChange& b) {
    return measure(a) == -measure(b) && a.where.file == b.where.file && a.where.function == b.where.function;
  };
  std::vector<bool> cancelled(changes.size(), false);
  for (std::size_t i = 0; i < changes.size(); ++i) {
    for (std::size_t j = 0; j < changes.size() && measure(changes[i]) > 0 && !cancelled[i]; ++j) {
      if (!cancelled[j] && moved(changes[i], changes[j])) cancelled[i] = cancelled[j] = true;
    }
  }
  std::vector<SiteChange> grown;
  for (std::size_t i = 0; i < changes.size(); ++i) {
    if (!cancelled[i] && measure(changes[i]) > 0) grown.push_back(std::move(changes[i]));
  }
  return grown;
}

// How a grown line's change is said: in the row's failing measure.
std::string growth_text(const GateRow& row, const SiteChange& change) {
  if (!bytes_failed(row)) return "+" + files::readable(change.change) + " allocs/op";
  std::string text = "+" + files::readable(change.bytes_change) + " B/op";
  if (change.change != 0) text += " (" + files::signed_readable(change.change) + " allocs/op)";
  return text;
}

// One finding per line of code that grew in more than one regressed case
// (against the base's sites: a delta is said only where both sides were
// measured), each said once with the cases it reaches; their rows then go
// without their sites.
std::vector<SiteFinding> shared_top_sites(const GateResult& result) {
  SiteFindings findings;
  for (const GateRow& row : result.rows) {
    if (row.status != Status::regression || !row.bound || !row.measured || row.measured->sites.empty() ||
        sweep_only(row)) {
      continue;
    }
    const std::vector<SiteChange> grown = grown_sites(result, row);
    if (grown.empty() || grown[0].change <= 0) continue;  // a growth in bytes alone is said under its row
    findings.add(grown[0].where, row.name, grown[0].change, grown[0].temporary, grown[0].hint, grown[0].functions);
  }
  std::vector<SiteFinding> shared = findings.by_site();
  shared.erase(std::remove_if(shared.begin(), shared.end(), [](const SiteFinding& f) { return f.cases.size() < 2; }),
               shared.end());
  return shared;
}

// Under a regressed row, the lines that grew from the base (at most
// kSitesShown), each through `line` for its medium. False when no base
// says: the caller then shows the row's top sites.
bool print_grown(std::ostream& out, const GateResult& result, const GateRow& row,
                 const std::function<std::string(const std::string&)>& line) {
  if (!result.base_sites.count(row.name) || sweep_only(row)) return false;
  const std::vector<SiteChange> grown = grown_sites(result, row);
  if (grown.empty()) {
    out << line("no line allocates more than in the base: the change is in lines the sites do not tell apart") << "\n";
  }
  for (std::size_t i = 0; i < grown.size() && i < kSitesShown; ++i) {
    out << line(growth_text(row, grown[i]) + " at " + to_string(grown[i].where) + " (against the base)") << "\n";
  }
  return true;
}

// Whether a regression shows its top sites for want of a base's.
bool top_sites_only(const GateResult& result) {
  for (const GateRow& row : result.rows) {
    if (row.status == Status::regression && row.measured && !row.measured->sites.empty() &&
        !result.base_sites.count(row.name) && !sweep_only(row)) {
      return true;
    }
  }
  return false;
}

// The cases the findings name, looked up once per row.
std::unordered_set<std::string_view> cases_in(const std::vector<SiteFinding>& findings) {
  std::unordered_set<std::string_view> names;
  for (const SiteFinding& f : findings) names.insert(f.cases.begin(), f.cases.end());
  return names;
}

// Every case against its bound; names and statuses escaped or marked up for
// where the table goes. A row per case: made as it is printed, never held.
void print_bounds_table(std::ostream& out, const GateResult& result, bool markdown) {
  using Align = TextTable::Align;
  const std::vector<TextTable::Column> columns{{"case", Align::left},       {"bound", Align::right},
                                               {"allocs/op", Align::right}, {"delta", Align::right},
                                               {"bytes/op", Align::right},  {"status", Align::left}};
  TextTable::print_generated(
      out, columns, result.rows.size(),
      [&](std::size_t i) {
        const GateRow row = result.rows[i];
        RowCells c = cells_of(row);
        std::string status = label(row.status);
        if (markdown && fails(row)) status = "**" + status + "**";
        // A failed test's figures gate as any other's; the table says it failed.
        if (row.measured && row.measured->test_failed) status += ", test failed";
        if (row.status == Status::regression && sweep_only(row)) status += ", failure sweep";
        return std::vector<std::string>{markdown ? files::markdown_code(row.name) : files::terminal_text(row.name),
                                        std::move(c.bound),
                                        std::move(c.measured),
                                        std::move(c.delta),
                                        std::move(c.bytes),
                                        std::move(status)};
      },
      markdown);
}

}  // namespace

void print_text(std::ostream& out, const GateResult& result) {
  const std::vector<SiteFinding> shared = shared_top_sites(result);
  const std::unordered_set<std::string_view> said = cases_in(shared);
  for (const SiteFinding& finding : shared) {
    out << "REGRESSION " << finding_line(finding, [](const std::string& t) { return files::terminal_text(t); }) << "\n";
    if (!finding.hint.empty()) out << "      hint: " << files::terminal_text(finding.hint) << "\n";
  }
  for (const GateRow& row : result.rows) {
    if (!fails(row)) continue;
    out << label(row.status) << " " << files::terminal_text(row.name) << ": " << files::terminal_text(row.detail)
        << "\n";
    if (said.count(row.name)) continue;
    if (print_grown(out, result, row, [](const std::string& t) { return "    " + files::terminal_text(t); })) continue;
    for (const SiteSummary* site : sites_shown(row)) {
      out << "    " << files::terminal_text(site_line(*site, memory_failed(row))) << "\n";
      if (!site->hint.empty()) out << "      hint: " << files::terminal_text(site->hint) << "\n";
    }
  }
  if (top_sites_only(result)) {
    out << "(the sites above are the lines that allocate most, not the lines that changed: --base BASE.json, a "
           "report of the base commit with sites, names the lines that grew)\n";
  }
  print_bounds_table(out, result, false);
  print_summary(out, result, files::terminal_text(result.toolchain));
}

void print_markdown(std::ostream& out, const GateResult& result) {
  const bool failed = result.failed(false);
  out << "### allocgate: " << (failed ? "allocation regression" : "allocation bounds hold") << "\n\n";
  const std::vector<SiteFinding> shared = shared_top_sites(result);
  const std::unordered_set<std::string_view> said = cases_in(shared);
  for (const SiteFinding& finding : shared) {
    out << "- **" << files::markdown_text(finding_line(finding, [](const std::string& t) { return t; })) << "**\n";
    if (!finding.hint.empty()) out << "  - hint: " << files::markdown_text(finding.hint) << "\n";
  }
  for (const GateRow& row : result.rows) {
    if (!fails(row)) continue;
    out << "- **" << files::markdown_text(row.name) << "**: " << files::markdown_text(row.detail) << "\n";
    out << "  - flame graph of the change: " << files::markdown_code("compare.html#" + compare_anchor(row.name))
        << "\n";
    if (said.count(row.name)) continue;
    if (print_grown(out, result, row, [](const std::string& t) { return "  - " + files::markdown_text(t); })) continue;
    for (const SiteSummary* site : sites_shown(row)) {
      out << "  - " << files::markdown_text(site_line(*site, memory_failed(row))) << "\n";
      if (!site->hint.empty()) out << "    - hint: " << files::markdown_text(site->hint) << "\n";
    }
  }
  if (failed) {
    // Where the pointers above lead: the gate has only bounds, a compare has
    // both sides' stacks.
    out << "\nEach case's stacks before and after, coloured by their change: "
        << "`allocgate compare BASE.json HEAD.json --html --out compare.html` "
        << "(both reports made with `--sites`, or `--allocgate_sites`).\n\n";
  }
  print_bounds_table(out, result, true);
  out << "\n";
  print_summary(out, result, files::markdown_text(result.toolchain));
}

void print_github_annotations(std::ostream& out, const GateResult& result) {
  // A site that many cases share: one annotation at its line, naming them.
  const std::vector<SiteFinding> shared = shared_top_sites(result);
  const std::unordered_set<std::string_view> said = cases_in(shared);
  for (const SiteFinding& finding : shared) {
    const SiteFrame& where = finding.where;
    out << "::error ";
    if (!where.file.empty()) out << "file=" << files::workflow_property(where.file) << ",line=" << where.line << ",";
    out << "title=allocation regression::"
        << files::workflow_data(finding_line(finding, [](const std::string& t) { return t; })) << "\n";
  }
  for (const GateRow& row : result.rows) {
    if (!fails(row) || said.count(row.name)) continue;
    out << "::error ";
    if (sweep_only(row)) {  // at the line whose allocation's failure was mishandled
      const std::vector<const SweepFindingResult*> found = new_findings(row.bound->sweep, *row.measured->sweep);
      if (const auto at = found.empty() ? std::nullopt : file_line_of(found[0]->line)) {
        out << "file=" << files::workflow_property(at->file) << ",line=" << at->line << ",";
      }
      out << "title=allocation failure mishandled::" << files::workflow_data(row.name + ": " + row.detail) << "\n";
      continue;
    }
    // Point the annotation at the line that grew most against the base,
    // else at the line that allocates most, when known.
    const std::vector<SiteChange> grown = grown_sites(result, row);
    const bool has_site = row.measured && !row.measured->sites.empty();
    const SiteFrame* where = !grown.empty() ? &grown[0].where : has_site ? &row.measured->sites[0].where() : nullptr;
    if (where != nullptr && !where->file.empty()) {
      out << "file=" << files::workflow_property(where->file) << ",line=" << where->line << ",";
    }
    std::string message = row.name + ": " + row.detail;
    if (!grown.empty()) {
      message += "; grew against the base: " + growth_text(row, grown[0]) + " at " + to_string(grown[0].where);
    } else if (has_site) {
      message += "; top site: " + site_line(row.measured->sites[0]);
    }
    out << "title="
        << (row.status == Status::errored  ? "benchmark error"
            : row.status == Status::varies ? "allocation count varies"
                                           : "allocation regression")
        << "::" << files::workflow_data(message) << "\n";
  }
}

namespace {

bool whole(double figure) { return std::floor(figure) == figure; }

bool same_findings(const std::vector<bounds::KnownFinding>& a, const std::vector<bounds::KnownFinding>& b) {
  return std::equal(
      a.begin(), a.end(), b.begin(), b.end(), [](const bounds::KnownFinding& x, const bounds::KnownFinding& y) {
        return x.outcome == y.outcome && x.line == y.line && x.on_purpose == y.on_purpose && x.note == y.note;
      });
}

// Why a case's figures would make a flaky bound, or empty when they would not.
std::string flaky_figures(const CaseResult& c) {
  if (c.allocs_per_op_min) {
    return "allocs/op " + varies(c) + ": " + kVariesCause;
  }
  const bool allocs_whole = whole(c.allocs_per_op);
  if (allocs_whole && (!c.bytes_per_op || whole(*c.bytes_per_op))) return {};
  const std::string figure =
      allocs_whole ? "bytes/op " + files::exact(*c.bytes_per_op) : "allocs/op " + files::exact(c.allocs_per_op);
  return figure + (c.iterations ? " over " + std::to_string(*c.iterations) + " iterations" : std::string()) +
         " is not a whole number, so it changes with the iteration count: something allocates once per run, "
         "not once per iteration (a first-iteration cache, a static built on first use, a counter or label set "
         "inside the loop)";
}

}  // namespace

double scheduling_margin(double other_thread_allocations) {
  return std::max(1.0, std::ceil(std::sqrt(other_thread_allocations)));
}

std::string describe(const BoundChange& change, const Report& report) {
  using Kind = BoundChange::Kind;
  if (change.kind == Kind::failed_test) {
    return "not recorded " + std::string(report.cases.name(change.case_index)) +
           ": the test failed, and a failed test's figures hold its framework's formatting of the failure";
  }
  if (change.kind == Kind::swept) {
    const auto findings = [](double n) {
      return n == 0 ? std::string("clean") : files::exact(n) + (n == 1 ? " finding" : " findings");
    };
    std::string line = "swept " + std::string(report.cases.name(change.case_index)) + ": ";
    if (change.from >= 0) line += findings(change.from) + " -> ";
    return line + findings(change.to);
  }
  std::string line = change.kind == Kind::added       ? "added "
                     : change.kind == Kind::tightened ? "tightened "
                     : change.kind == Kind::widened   ? "widened "
                                                      : "loosened ";
  line += report.cases.name(change.case_index);
  if (change.kind == Kind::widened) {
    line += change.bytes ? ": bytes/op tolerance " : ": allocs/op tolerance ";
  } else {
    line += change.bytes ? ": bytes/op " : ": allocs/op ";
  }
  if (change.kind != Kind::added) line.append(files::exact(change.from)).append(" -> ");
  line += files::exact(change.to);
  if (change.kind == Kind::added && change.from > 0) line += " + " + files::exact(change.from) + " (tolerance)";
  return line;
}

bounds::BoundsFile update_bounds(bounds::BoundsFile bounds, const Report& report, const std::string& toolchain,
                                 bool allow_loosen, std::vector<BoundChange>& changes,
                                 std::vector<std::string>& refused, const Spreads* spreads) {
  bounds::ToolchainBounds& section = bounds.toolchains[toolchain];
  const auto spread_of = [&](const std::string& name) -> const Spread* {
    if (spreads == nullptr) return nullptr;
    const auto it = spreads->find(name);
    return it == spreads->end() ? nullptr : &it->second;
  };
  // Bounds are changed in place first and added after, all at once: an
  // addition out of name order is sorted in by the sort() that ends the
  // update, where a lookup after it would sort the section each time.
  std::vector<std::uint32_t> added;
  std::vector<std::size_t> added_changes;  // each one's entry in changes
  for (std::size_t i = 0; i < report.cases.size(); ++i) {
    const CaseResult c = report.cases[i];
    const auto index = static_cast<std::uint32_t>(i);
    if (c.test_failed) {
      changes.push_back({index, BoundChange::Kind::failed_test, false, 0, 0});
      continue;
    }
    const std::optional<std::size_t> at = section.index_of(c.name);
    std::optional<bounds::Bound> bound;
    if (at) bound = section[*at].bound;
    const Spread* spread = spread_of(c.name);
    if (spread != nullptr && bound) {
      const double allocs_room = spread->allocs_max - spread->allocs_min;
      const double bytes_room = spread->bytes_max - spread->bytes_min;
      if (bound->tolerance < allocs_room || (bound->bytes_per_op && bound->bytes_tolerance < bytes_room)) {
        if (!allow_loosen) {
          refused.push_back("not recording " + describe(c.name, *spread) +
                            ", a range wider than its bound's tolerance (" + files::exact(bound->tolerance) +
                            " allocs/op, " + files::exact(bound->bytes_tolerance) +
                            " bytes/op): --allow-loosen widens it");
          continue;
        }
        if (bound->tolerance < allocs_room) {
          changes.push_back({index, BoundChange::Kind::widened, false, bound->tolerance, allocs_room});
          bound->tolerance = allocs_room;
        }
        if (bound->bytes_per_op && bound->bytes_tolerance < bytes_room) {
          changes.push_back({index, BoundChange::Kind::widened, true, bound->bytes_tolerance, bytes_room});
          bound->bytes_tolerance = bytes_room;
        }
        section.set(*at, *bound);
      }
    }
    if (spread == nullptr && (!bound || bound->tolerance == 0)) {
      if (const std::string why = flaky_figures(c); !why.empty()) {
        refused.push_back("not recording " + c.name + ": " + why +
                          "; make every iteration allocate the same, or give its bound a \"tolerance\"");
        continue;
      }
    }
    if (bound && c.sweep && !c.sweep->nondeterministic) {
      const std::vector<const SweepFindingResult*> found = new_findings(bound->sweep, *c.sweep);
      if (bound->sweep && !found.empty() && !allow_loosen) {
        refused.push_back("not recording " + c.name + ": " + new_findings_text(found) +
                          "; fix it, mark it \"on_purpose\" in the bounds file, or --allow-loosen records it");
        continue;
      }
      std::vector<bounds::KnownFinding> recorded = recorded_findings(bound->sweep, *c.sweep);
      if (!bound->sweep || !same_findings(*bound->sweep, recorded)) {
        changes.push_back({index, BoundChange::Kind::swept, false,
                           bound->sweep ? static_cast<double>(bound->sweep->size()) : -1.0,
                           static_cast<double>(recorded.size())});
        bound->sweep = std::move(recorded);
        section.set(*at, *bound);
      }
    }
    if (!bound) {
      added.push_back(index);
      added_changes.push_back(changes.size());
      changes.push_back({index, BoundChange::Kind::added, false, 0, c.allocs_per_op});
      if (c.sweep && !c.sweep->nondeterministic) {
        const double findings = static_cast<double>(recorded_findings(std::nullopt, *c.sweep).size());
        changes.push_back({index, BoundChange::Kind::swept, false, -1, findings});
      }
      continue;
    }
    bool moved = false;
    const auto move = [&](bool bytes, double& figure, double measured) {
      if (measured == figure || (measured > figure && !allow_loosen)) return;
      changes.push_back({index, measured < figure ? BoundChange::Kind::tightened : BoundChange::Kind::loosened, bytes,
                         figure, measured});
      figure = measured;
      moved = true;
    };
    move(false, bound->allocs_per_op, c.allocs_per_op);
    if (bound->bytes_per_op && c.bytes_per_op) move(true, *bound->bytes_per_op, *c.bytes_per_op);
    if (moved) section.set(*at, *bound);
  }
  for (std::size_t a = 0; a < added.size(); ++a) {
    const CaseResult c = report.cases[added[a]];
    bounds::Bound b;
    b.allocs_per_op = c.allocs_per_op;
    b.bytes_per_op = c.bytes_per_op;
    const Spread* spread = spread_of(c.name);
    const bool threaded = c.other_thread_allocs.value_or(0) > 0;
    if (spread != nullptr) {
      b.tolerance = spread->allocs_max - spread->allocs_min;
      if (b.bytes_per_op) b.bytes_tolerance = spread->bytes_max - spread->bytes_min;
      b.note = describe("it", *spread) + ": the bound is the most a run reached, its tolerance the range's width";
    }
    if (threaded) {
      // As many allocations more, of its mean size.
      const double margin = scheduling_margin(*c.other_thread_allocs);
      b.tolerance = std::max(b.tolerance, margin);
      if (b.bytes_per_op && c.allocs_per_op > 0) {
        b.bytes_tolerance = std::max(b.bytes_tolerance, std::ceil(margin * *b.bytes_per_op / c.allocs_per_op));
      }
      b.note += std::string(b.note.empty() ? "" : "; ") + "it allocates on other threads (" +
                files::exact(*c.other_thread_allocs) +
                " allocations), whose scheduling may move its figures: a tolerance of at least their square root";
    }
    changes[added_changes[a]].from = b.tolerance;
    if (c.sweep && !c.sweep->nondeterministic) b.sweep = recorded_findings(std::nullopt, *c.sweep);
    section.add(c.name, b);
  }
  // A report's names are unique (read_report refuses one twice), and only
  // names not in the section were added.
  if (const auto twice = section.sort()) throw std::logic_error("update_bounds: added " + *twice + " twice");
  return bounds;
}

void set_base_sites(GateResult& result, const Report& base) {
  const CaseIndex index(base);
  for (const GateRow& row : result.rows) {
    if (row.status != Status::regression || !row.measured || row.measured->sites.empty()) continue;
    std::optional<CaseResult> before = index.find(row.name);
    if (before && sites_measured(*before)) result.base_sites.emplace(row.name, std::move(before->sites));
  }
}

}  // namespace allocgate::reports
