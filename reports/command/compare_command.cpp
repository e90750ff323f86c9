// SPDX-License-Identifier: Apache-2.0
// `allocgate compare BASE HEAD`: two reports case by case.
#include <iostream>
#include <memory>
#include <sstream>

#include "compare.h"
#include "io.h"
#include "subcommand.h"

namespace allocgate::command {

Subcommand add_compare_command(CLI::App& app) {
  struct Options {
    std::string base, head, out;
    bool markdown = false, html = false;
  };
  auto o = std::make_shared<Options>();
  CLI::App* compare = app.add_subcommand("compare", "Compare two reports case by case");
  compare->add_option("base", o->base, "The report before the change")->required();
  compare->add_option("head", o->head, "The report after the change")->required();
  compare->add_flag("--markdown", o->markdown, "Print a markdown table");
  compare
      ->add_flag("--html", o->html,
                 "A page: each changed case with a differential flame graph of its stacks (reports made with --sites)")
      ->excludes("--markdown");
  compare->add_option("--out", o->out, "Write here instead of stdout (atomically)");
  return {compare, [o] {
            const auto rows =
                reports::compare_reports(read_report_saying_source(o->base), read_report_saying_source(o->head));
            write_output(o->out, [&](std::ostream& out) {
              if (o->html) {
                reports::print_compare_html(out, rows, o->base, o->head);
              } else {
                reports::print_comparison(out, rows, o->markdown);
              }
            });
            return kSuccess;
          }};
}

}  // namespace allocgate::command
