// SPDX-License-Identifier: Apache-2.0
#include "table.h"

#include <algorithm>
#include <ostream>

#include "escape.h"
#include "format.h"
#include "json_keys.h"
#include "text_table.h"
#include "workload_view.h"

namespace allocgate::reports {
namespace {

// A test binary's report (allocgate::gtest, catch2, doctest): its tests, untimed,
// with what each left.
void print_tests_markdown(std::ostream& out, const Report& report) {
  using Align = TextTable::Align;
  TextTable table({{"test", Align::left},
                   {"allocs", Align::right},
                   {"bytes", Align::right},
                   {"peak bytes", Align::right},
                   {"leaked bytes", Align::right},
                   {"failed", Align::left}});
  for (const CaseResult& c : report.cases) {
    table.add_row({files::markdown_code(c.name), files::readable(c.allocs_per_op), optional_cell(c.bytes_per_op),
                   optional_cell(c.peak_bytes), optional_cell(c.leaked_bytes_per_op), c.test_failed ? "yes" : ""});
  }
  table.print_markdown(out);
}

void print_plain_markdown(std::ostream& out, const Report& report) {
  if (!report.context_text(allocgate::keys::kTests).empty()) {
    print_tests_markdown(out, report);
    return;
  }
  using Align = TextTable::Align;
  TextTable table({{"benchmark", Align::left},
                   {"ns/op", Align::right},
                   {"B/op", Align::right},
                   {"allocs/op", Align::right},
                   {"peak bytes", Align::right}});
  for (const CaseResult& c : report.cases) {
    if (!c.workload.empty()) continue;
    table.add_row({files::markdown_code(c.name), time_cell(c), optional_cell(c.bytes_per_op),
                   files::readable(c.allocs_per_op), optional_cell(c.peak_bytes)});
  }
  table.print_markdown(out);
}

}  // namespace

void print_markdown_tables(std::ostream& out, const Report& report) {
  using Align = TextTable::Align;
  const std::vector<WorkloadView> views = arrange(report);
  for (const WorkloadView& v : views) {
    out << "### " << files::markdown_text(v.name);
    if (!v.summary.empty()) out << ": " << files::markdown_text(v.summary);
    out << " (" << v.table_size << " per op)\n\n";
    TextTable variants({{"variant", Align::left},
                        {"ns/op", Align::right},
                        {"B/op", Align::right},
                        {"allocs/op", Align::right},
                        {"speedup", Align::right},
                        {"output", Align::left}});
    const CaseResult* reference = v.at(v.variants.front(), v.table_size);
    for (const std::string& variant : v.variants) {
      const CaseResult* c = v.at(variant, v.table_size);
      if (!c) continue;
      variants.add_row({files::markdown_text(variant), time_cell(*c), optional_cell(c->bytes_per_op),
                        files::readable(c->allocs_per_op), speedup(*c, reference), equality(*c, c == reference)});
    }
    variants.print_markdown(out);
    out << "\nallocs/op by input size:\n\n";
    // A variant per row and a size per column, when most cells hold a case;
    // else a row per case, so the table stays as long as the cases are many
    // (2,000 variants each at a size of its own would be 4,000,000 cells).
    if (v.variants.size() * v.sizes.size() > 2 * v.cases.size()) {
      TextTable by_case({{"variant", Align::left}, {"size", Align::right}, {"allocs/op", Align::right}});
      for (const std::string& variant : v.variants) {
        for (auto it = v.cases.lower_bound({variant, 0}); it != v.cases.end() && it->first.first == variant; ++it) {
          by_case.add_row({files::markdown_text(variant), std::to_string(it->first.second),
                           files::readable(it->second->allocs_per_op)});
        }
      }
      by_case.print_markdown(out);
      out << "\n";
      continue;
    }
    std::vector<TextTable::Column> columns{{"variant", Align::left}};
    for (const auto size : v.sizes) columns.push_back({std::to_string(size), Align::right});
    TextTable by_size(std::move(columns));
    for (const std::string& variant : v.variants) {
      std::vector<std::string> row{files::markdown_text(variant)};
      for (const auto size : v.sizes) {
        const CaseResult* c = v.at(variant, size);
        row.push_back(c ? files::readable(c->allocs_per_op) : "-");
      }
      by_size.add_row(std::move(row));
    }
    by_size.print_markdown(out);
    out << "\n";
  }
  if (std::any_of(report.cases.begin(), report.cases.end(), [](const CaseResult& c) { return c.workload.empty(); })) {
    print_plain_markdown(out, report);
  }
}

}  // namespace allocgate::reports
