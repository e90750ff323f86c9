// SPDX-License-Identifier: Apache-2.0
// `allocgate compare BASE HEAD`: two reports case by case.
#include <iostream>
#include <memory>

#include "compare.h"
#include "io.h"
#include "subcommand.h"

namespace allocgate::command {

Subcommand add_compare_command(CLI::App& app) {
  struct Options {
    std::string base, head;
    bool markdown = false;
  };
  auto o = std::make_shared<Options>();
  CLI::App* compare = app.add_subcommand("compare", "Compare two reports case by case");
  compare->add_option("base", o->base, "The report before the change")->required();
  compare->add_option("head", o->head, "The report after the change")->required();
  compare->add_flag("--markdown", o->markdown, "Print a markdown table");
  return {compare, [o] {
            reports::print_comparison(
                std::cout,
                reports::compare_reports(read_report_saying_source(o->base), read_report_saying_source(o->head)),
                o->markdown);
            return kSuccess;
          }};
}

}  // namespace allocgate::command
