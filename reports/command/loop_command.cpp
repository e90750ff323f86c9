// SPDX-License-Identifier: Apache-2.0
// `allocgate loop CASE`: a case run over and over, for an external profiler.
#include <iostream>
#include <memory>

#include "escape.h"
#include "runner.h"
#include "subcommand.h"

namespace allocgate::command {

Subcommand add_loop_command(CLI::App& app) {
  struct Options {
    std::string case_name;
    long runs = 1000;
    bool sites = false;
  };
  auto o = std::make_shared<Options>();
  CLI::App* loop = app.add_subcommand("loop", "Run a case over and over, for an external profiler to watch");
  loop->add_option("case", o->case_name, "workload/variant/size")->required();
  loop->add_option("--runs", o->runs, "Operations after one warm-up")
      ->check(CLI::Range(0L, 1000000000L))
      ->capture_default_str();
  loop->add_flag("--sites", o->sites, "Capture the call sites of every run and print the top ones");
  return {loop, [o] {
            const SiteProfile sites = reports::loop_case(o->case_name, o->runs, o->sites);
            if (o->sites) {
              std::cout << files::terminal_text(o->case_name) << ": " << sites.allocations << " allocations, "
                        << sites.bytes << " bytes in " << o->runs << " operations (after a warm-up one)\n\nby count:\n"
                        << sites.top(10);
            }
            return kSuccess;
          }};
}

}  // namespace allocgate::command
