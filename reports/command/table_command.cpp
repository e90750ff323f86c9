// SPDX-License-Identifier: Apache-2.0
// `allocgate table REPORT [--html]`: a report's case-study tables.
#include <memory>
#include <ostream>

#include "io.h"
#include "subcommand.h"
#include "table.h"

namespace allocgate::command {

Subcommand add_table_command(CLI::App& app) {
  struct Options {
    std::string report, out;
    bool html = false;
  };
  auto o = std::make_shared<Options>();
  CLI::App* table = app.add_subcommand("table", "Render a report's case-study tables");
  table->add_option("report", o->report, "A report from allocgate run, or a Google Benchmark JSON")->required();
  table->add_flag("--html", o->html, "One self-contained page: tables, charts and flame graphs");
  table->add_option("--out", o->out, "Write here instead of stdout (atomically)");
  return {table, [o] {
            const reports::Report report = read_report_saying_source(o->report);
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
