// SPDX-License-Identifier: Apache-2.0
// `allocgate history add|show|chart`: reports across commits.
#include <iostream>
#include <memory>
#include <sstream>

#include "escape.h"
#include "history.h"
#include "io.h"
#include "subcommand.h"

namespace allocgate::command {

Subcommand add_history_command(CLI::App& app) {
  struct Options {
    std::string db = "allocgate-history.db";
    std::vector<std::string> reports;
    reports::RunKeyOverrides key;
    std::string filter, chart_out;
    std::size_t last = 10;
    bool markdown = false, html = false;
  };
  auto o = std::make_shared<Options>();
  CLI::App* history = app.add_subcommand("history", "Reports across commits, kept in an SQLite database");
  history->add_option("--db", o->db, "The history database")->capture_default_str();
  history->require_subcommand(1);

  CLI::App* add = history->add_subcommand("add", "Record reports (adding one twice changes nothing)");
  add->add_option("reports", o->reports, "Reports of allocgate run, or Google Benchmark JSON")->required();
  add->add_option("--commit", o->key.commit, "The commit, instead of the report's git_commit");
  add->add_option("--date", o->key.date, "The date, instead of the report's");
  add->add_option("--branch", o->key.branch, "The branch");
  add->add_option("--toolchain", o->key.toolchain, "The toolchain, instead of the report's");
  add->add_option("--host", o->key.host, "The host, instead of the report's host_name");

  const auto add_selection = [&](CLI::App* sub) {
    sub->add_option("--filter", o->filter, "Only cases whose name matches this RE2 regular expression");
    sub->add_option("--last", o->last, "The last N runs (0: all)")
        ->check(CLI::Range(std::size_t{0}, std::size_t{1} << 40))
        ->capture_default_str();
  };
  CLI::App* show = history->add_subcommand("show", "Cases by commits: allocs/op, bytes/op and time");
  add_selection(show);
  show->add_flag("--markdown", o->markdown, "Print markdown");

  CLI::App* chart = history->add_subcommand("chart", "An HTML page with a chart per case over the runs");
  chart->add_flag("--html", o->html, "The page is HTML (the one format)")->required();
  chart->add_option("--out", o->chart_out, "Write the page here (atomically); - for stdout")->required();
  add_selection(chart);
  // Options of `history` after its subcommand too (`history add --db h.db`),
  // as git's and cargo's users type them.
  for (CLI::App* sub : {add, show, chart}) sub->fallthrough();

  return {history, [o, add, chart] {
            using reports::History;
            History db(o->db, *add ? History::Access::write : History::Access::read);
            if (*add) {
              for (const std::string& file : o->reports) {
                const reports::Report report = read_report_saying_source(file);
                const bool added = db.add(report, reports::run_key(report, o->key, file));
                std::cout << files::terminal_text(file) << ": " << (added ? "added" : "recorded already, unchanged")
                          << "\n";
              }
            } else if (*chart) {
              std::ostringstream page;
              reports::print_history_chart(page, db.table(o->filter, o->last));
              write_output(o->chart_out, page.str());
            } else {
              reports::print_history(std::cout, db.table(o->filter, o->last), o->markdown);
            }
            return kSuccess;
          }};
}

}  // namespace allocgate::command
