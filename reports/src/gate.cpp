#include "gate.h"

#include <algorithm>
#include <iomanip>
#include <ostream>
#include <set>

#include "escape.h"
#include "format.h"
#include "input_error.h"

namespace allocgate::reports {
namespace {

const char* label(Status status) {
  switch (status) {
    case Status::regression: return "REGRESSION";
    case Status::errored: return "ERROR";
    case Status::unmeasured: return "unmeasured";
    case Status::unbounded: return "no bound";
    case Status::missing: return "no case";
    case Status::skipped: return "skipped";
    case Status::improved: return "improved";
    case Status::ok: return "ok";
  }
  return "";
}

GateRow judge(const Bound& bound, CaseResult&& case_result) {
  GateRow row{case_result.name, Status::ok, bound, std::move(case_result), {}};
  const CaseResult& measured = *row.measured;
  const double allocs_limit = bound.allocs_per_op + bound.tolerance;
  if (measured.allocs_per_op > allocs_limit) {
    row.status = Status::regression;
    row.detail = "allocs/op " + exact(measured.allocs_per_op) + " > bound " + exact(bound.allocs_per_op) +
                 (bound.tolerance > 0 ? " + " + exact(bound.tolerance) : std::string()) + " (" +
                 signed_exact(measured.allocs_per_op - bound.allocs_per_op) + ")";
    return row;
  }
  if (bound.bytes_per_op) {
    if (!measured.bytes_per_op) {
      row.status = Status::unmeasured;
      row.detail = "bytes/op is bounded (" + exact(*bound.bytes_per_op) + ") but the report has no bytes figure";
      return row;
    }
    if (*measured.bytes_per_op > *bound.bytes_per_op + bound.bytes_tolerance) {
      row.status = Status::regression;
      row.detail = "bytes/op " + exact(*measured.bytes_per_op) + " > bound " + exact(*bound.bytes_per_op) + " (" +
                   signed_exact(*measured.bytes_per_op - *bound.bytes_per_op) + ")";
      return row;
    }
  }
  if (measured.allocs_per_op < bound.allocs_per_op) {
    row.status = Status::improved;
    row.detail = "allocs/op " + exact(measured.allocs_per_op) + " < bound " + exact(bound.allocs_per_op) + " (" +
                 signed_exact(measured.allocs_per_op - bound.allocs_per_op) + "): tighten with --update";
  }
  return row;
}

std::string cell(const std::optional<double>& value) { return value ? exact(*value) : "-"; }

// A row's bound, measured allocs/op, delta and bytes/op as printed; "-" where absent.
struct RowCells {
  std::string bound, measured, delta, bytes;
};

RowCells cells_of(const GateRow& row) {
  RowCells c{"-", "-", "-", "-"};
  if (row.bound) c.bound = exact(row.bound->allocs_per_op);
  if (row.measured) {
    c.measured = exact(row.measured->allocs_per_op);
    c.bytes = cell(row.measured->bytes_per_op);
  }
  if (row.bound && row.measured) c.delta = signed_exact(row.measured->allocs_per_op - row.bound->allocs_per_op);
  return c;
}

}  // namespace

std::size_t GateResult::count(Status status) const {
  return static_cast<std::size_t>(
      std::count_if(rows.begin(), rows.end(), [status](const GateRow& r) { return r.status == status; }));
}

bool GateResult::failed(bool strict) const {
  if (count(Status::regression) + count(Status::errored) > 0) return true;
  return strict &&
         (count(Status::unmeasured) + count(Status::unbounded) + count(Status::missing) + count(Status::skipped)) > 0;
}

GateResult evaluate(Report report, const BoundsFile& bounds, const std::string& toolchain,
                    const std::string& bounds_source) {
  const auto section = bounds.toolchains.find(toolchain);
  if (section == bounds.toolchains.end()) {
    std::string known;
    for (const auto& [key, cases] : bounds.toolchains) known += (known.empty() ? "" : ", ") + key;
    throw InputError(bounds_source + " has no bounds for toolchain " + toolchain + " (it has: " +
                     (known.empty() ? "none" : known) + "); record them with: allocgate diff --update --bounds " +
                     bounds_source + " REPORT");
  }
  const ToolchainBounds& bounded = section->second;
  GateResult result;
  result.toolchain = toolchain;
  result.rows.reserve(report.cases.size() + report.not_run.size());

  // The cases and not-run benchmarks by name, walked beside the bounds (a
  // map, sorted by name): one pass matches them, and the rows come out in
  // name order, which the sort by status below keeps.
  struct Named {
    std::string_view name;  // into the report, read before its case moves into a row
    std::size_t index;
    bool not_run;
  };
  std::vector<Named> named;
  named.reserve(report.cases.size() + report.not_run.size());
  for (std::size_t i = 0; i < report.cases.size(); ++i) named.push_back({report.cases[i].name, i, false});
  for (std::size_t i = 0; i < report.not_run.size(); ++i) named.push_back({report.not_run[i].name, i, true});
  std::sort(named.begin(), named.end(), [](const Named& a, const Named& b) { return a.name < b.name; });

  auto bound = bounded.begin();
  for (auto entry = named.begin(); entry != named.end();) {
    while (bound != bounded.end() && bound->first < entry->name) {
      result.rows.push_back({bound->first, Status::missing, bound->second, std::nullopt, "bounded, but not in the report"});
      ++bound;
    }
    const bool has_bound = bound != bounded.end() && bound->first == entry->name;
    // Every entry of this name (a case and a not-run benchmark may share one) meets the bound.
    const auto next = std::find_if(entry, named.end(), [&](const Named& e) { return e.name != entry->name; });
    for (; entry != next; ++entry) {
      if (entry->not_run) {
        const NotRun& n = report.not_run[entry->index];
        GateRow row{n.name, n.errored ? Status::errored : Status::skipped, std::nullopt, std::nullopt,
                    std::string(n.errored ? "the benchmark reported an error" : "the benchmark was skipped") +
                        (n.message.empty() ? "" : ": " + n.message)};
        if (has_bound) row.bound = bound->second;
        result.rows.push_back(std::move(row));
      } else if (has_bound) {
        result.rows.push_back(judge(bound->second, std::move(report.cases[entry->index])));
      } else {
        CaseResult& c = report.cases[entry->index];
        std::string name = c.name;
        result.rows.push_back({std::move(name), Status::unbounded, std::nullopt, std::move(c), "no bound recorded for this case"});
      }
    }
    if (has_bound) ++bound;
  }
  for (; bound != bounded.end(); ++bound) {
    result.rows.push_back({bound->first, Status::missing, bound->second, std::nullopt, "bounded, but not in the report"});
  }

  // Sorted by status, names in order within each, then moved once: rows are
  // large (each holds its case).
  std::vector<std::size_t> order(result.rows.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return result.rows[a].status < result.rows[b].status; });
  // Row i takes row order[i]: each cycle of the permutation rotated by swaps,
  // in place (a sorted copy would hold every row twice).
  for (std::size_t start = 0; start < order.size(); ++start) {
    for (std::size_t i = start;;) {
      const std::size_t from = order[i];
      order[i] = i;
      if (from == start) break;
      std::swap(result.rows[i], result.rows[from]);
      i = from;
    }
  }
  return result;
}

namespace {

// The toolchain comes from the report: the caller escapes it for its medium.
void print_summary(std::ostream& out, const GateResult& r, const std::string& toolchain_shown) {
  out << r.count(Status::regression) << " regression(s), ";
  if (r.count(Status::errored) > 0) out << r.count(Status::errored) << " errored, ";
  out << r.count(Status::improved) << " improved, "
      << r.count(Status::ok) << " ok; " << r.count(Status::unbounded) << " case(s) without a bound, "
      << r.count(Status::missing) << " bound(s) without a case";
  if (r.count(Status::unmeasured) > 0) out << ", " << r.count(Status::unmeasured) << " unmeasured";
  if (r.count(Status::skipped) > 0) out << ", " << r.count(Status::skipped) << " skipped";
  out << " [" << toolchain_shown << "]\n";
}

}  // namespace

namespace {

// Where a regressed case's allocations come from, when the report has sites.
constexpr std::size_t kSitesShown = 3;

// Rows that fail the gate whatever --strict says, printed ahead of the table.
bool fails(const GateRow& row) { return row.status == Status::regression || row.status == Status::errored; }

// Unescaped: each printer escapes it for its medium.
std::string site_line(const SiteSummary& site) {
  return exact(site.allocs_per_op) + " allocs/op from " + to_string(site.where);
}

}  // namespace

void print_text(std::ostream& out, const GateResult& result) {
  for (const GateRow& row : result.rows) {
    if (!fails(row)) continue;
    out << label(row.status) << " " << terminal_text(row.name) << ": " << terminal_text(row.detail) << "\n";
    for (std::size_t i = 0; row.measured && i < row.measured->sites.size() && i < kSitesShown; ++i) {
      out << "    " << terminal_text(site_line(row.measured->sites[i])) << "\n";
    }
  }
  std::vector<std::string> names;  // as a terminal shows them
  names.reserve(result.rows.size());
  std::size_t width = 4;
  for (const GateRow& row : result.rows) width = std::max(width, names.emplace_back(terminal_text(row.name)).size());
  out << std::left << std::setw(static_cast<int>(width)) << "case" << std::right << std::setw(12) << "bound"
      << std::setw(12) << "allocs/op" << std::setw(10) << "delta" << std::setw(12) << "bytes/op"
      << "  status\n";
  for (std::size_t i = 0; i < result.rows.size(); ++i) {
    const GateRow& row = result.rows[i];
    const RowCells c = cells_of(row);
    out << std::left << std::setw(static_cast<int>(width)) << names[i] << std::right << std::setw(12) << c.bound
        << std::setw(12) << c.measured << std::setw(10) << c.delta << std::setw(12) << c.bytes << "  "
        << label(row.status) << "\n";
  }
  print_summary(out, result, terminal_text(result.toolchain));
}

void print_markdown(std::ostream& out, const GateResult& result) {
  const bool failed = result.failed(false);
  out << "### allocgate: " << (failed ? "allocation regression" : "allocation bounds hold") << "\n\n";
  for (const GateRow& row : result.rows) {
    if (!fails(row)) continue;
    out << "- **" << markdown_text(row.name) << "**: " << markdown_text(row.detail) << "\n";
    for (std::size_t i = 0; row.measured && i < row.measured->sites.size() && i < kSitesShown; ++i) {
      out << "  - " << markdown_text(site_line(row.measured->sites[i])) << "\n";
    }
  }
  if (failed) out << "\n";
  out << "| case | bound | allocs/op | delta | bytes/op | status |\n|---|---:|---:|---:|---:|---|\n";
  for (const GateRow& row : result.rows) {
    const RowCells c = cells_of(row);
    out << "| " << markdown_code(row.name) << " | " << c.bound << " | " << c.measured << " | " << c.delta << " | " << c.bytes
        << " | " << (fails(row) ? "**" + std::string(label(row.status)) + "**" : label(row.status)) << " |\n";
  }
  out << "\n";
  print_summary(out, result, markdown_text(result.toolchain));
}

void print_github_annotations(std::ostream& out, const GateResult& result) {
  for (const GateRow& row : result.rows) {
    if (!fails(row)) continue;
    out << "::error ";
    // Point the annotation at the line that allocates most, when known.
    const bool has_site = row.measured && !row.measured->sites.empty();
    if (has_site && !row.measured->sites[0].where.file.empty()) {
      const SiteFrame& where = row.measured->sites[0].where;
      out << "file=" << workflow_property(where.file) << ",line=" << where.line << ",";
    }
    std::string message = row.name + ": " + row.detail;
    if (has_site) message += "; top site: " + site_line(row.measured->sites[0]);
    out << "title=" << (row.status == Status::errored ? "benchmark error" : "allocation regression") << "::"
        << workflow_data(message) << "\n";
  }
}

BoundsFile update_bounds(BoundsFile bounds, const Report& report, const std::string& toolchain,
                         bool allow_loosen, std::vector<std::string>& changes) {
  ToolchainBounds& section = bounds.toolchains[toolchain];
  for (const CaseResult& c : report.cases) {
    const auto it = section.find(c.name);
    if (it == section.end()) {
      Bound b;
      b.allocs_per_op = c.allocs_per_op;
      b.bytes_per_op = c.bytes_per_op;
      section.emplace(c.name, b);
      changes.push_back("added " + c.name + ": allocs/op " + exact(c.allocs_per_op));
      continue;
    }
    Bound& b = it->second;
    const auto move = [&](const char* what, double& bound, double measured) {
      if (measured == bound || (measured > bound && !allow_loosen)) return;
      changes.push_back(std::string(measured < bound ? "tightened " : "loosened ") + c.name + ": " + what + " " +
                        exact(bound) + " -> " + exact(measured));
      bound = measured;
    };
    move("allocs/op", b.allocs_per_op, c.allocs_per_op);
    if (b.bytes_per_op && c.bytes_per_op) move("bytes/op", *b.bytes_per_op, *c.bytes_per_op);
  }
  return bounds;
}

}  // namespace allocgate::reports
