// SPDX-License-Identifier: Apache-2.0
// `allocgate run`: the cases timed and counted, the tables printed, the
// report written.
#include <iostream>
#include <memory>

#include "json_file.h"
#include "runner.h"
#include "subcommand.h"
#include "table.h"
#include "timing.h"

namespace allocgate::command {

Subcommand add_run_command(CLI::App& app) {
  struct Options {
    reports::RunOptions run;
    std::string out, shard;
    bool no_timing = false;
  };
  auto o = std::make_shared<Options>();
  CLI::App* run = app.add_subcommand("run", "Run the cases, print the tables, write the JSON report");
  run->add_option("--filter", o->run.filter, "Only cases whose name matches this RE2 regular expression");
  run->add_option("--out", o->out, "Write the JSON report here (atomically)");
  run->add_option("--repetitions", o->run.repetitions, "Timed repetitions per case")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  run->add_option("--min-time", o->run.min_time, "Seconds per timed repetition")
      ->check(CLI::Range(0.001, 60.0))
      ->capture_default_str();
  run->add_option("--counted-runs", o->run.counted_runs, "Operations counted per case after the warm-up")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  run->add_flag("--no-timing", o->no_timing, "Count allocations and hash outputs only");
  run->add_flag("--sites", o->run.sites, "Also record each case's top allocation sites (for diff and compare)");
  CLI::Option* shard =
      run->add_option("--shard", o->shard, "Only the I-th of N parts of the cases, e.g. 2/4 (join them with merge)");
  return {run, [o, shard] {
            if (shard->count() > 0) o->run.shard = reports::parse_shard(o->shard, "--shard");  // "" too: not I/N
            const bool untimed = !o->no_timing && !reports::timing_available();
            o->run.time = !o->no_timing && !untimed;
            const reports::Report report = reports::run_cases(o->run, std::cerr);
            if (untimed) {
              std::cerr << "allocgate: counted without timing: this allocgate was built without Google Benchmark\n";
            }
            reports::print_markdown_tables(std::cout, report);
            if (!o->out.empty()) {
              files::write_file_atomically(o->out, reports::report_text(report));
              std::cerr << "allocgate: wrote " << o->out << "\n";
            }
            return kSuccess;
          }};
}

}  // namespace allocgate::command
