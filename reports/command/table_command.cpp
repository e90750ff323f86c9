// SPDX-License-Identifier: Apache-2.0
// `allocgate table REPORT [--html]`: a report's case-study tables.
#include <memory>
#include <ostream>

#include "filter.h"
#include "io.h"
#include "subcommand.h"
#include "table.h"

namespace allocgate::command {
namespace {

// The report with only the cases (and not-run benchmarks) whose names the
// filter matches: a page of part of a report too large for one.
reports::Report only_matching(const reports::Report& report, const std::string& pattern) {
  const reports::NameFilter filter(pattern);
  reports::Report kept;
  kept.context = report.context;
  kept.source_summary = report.source_summary;
  for (std::size_t i = 0; i < report.cases.size(); ++i) {
    if (filter.matches(report.cases.name(i))) kept.cases.push_back(report.cases[i]);
  }
  for (const reports::NotRun& n : report.not_run) {
    if (filter.matches(n.name)) kept.not_run.push_back(n);
  }
  return kept;
}

}  // namespace

Subcommand add_table_command(CLI::App& app) {
  struct Options {
    std::string report, out, filter;
    bool html = false;
  };
  auto o = std::make_shared<Options>();
  CLI::App* table = app.add_subcommand("table", "Render a report's case-study tables");
  table->add_option("report", o->report, "A report from allocgate run, or a Google Benchmark JSON")->required();
  table->add_flag("--html", o->html, "One self-contained page: tables, charts and flame graphs");
  table->add_option("--out", o->out, "Write here instead of stdout (atomically)");
  table->add_option("--filter", o->filter, "Only the cases whose names this RE2 regular expression matches");
  return {table, [o] {
            reports::Report report = read_report_saying_source(o->report);
            if (!o->filter.empty()) report = only_matching(report, o->filter);
            write_output(o->out, [&](std::ostream& out) {
              if (o->html) {
                reports::print_html(out, report);
              } else {
                reports::print_markdown_tables(out, report);
              }
            });
            return kSuccess;
          }};
}

}  // namespace allocgate::command
