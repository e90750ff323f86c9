// SPDX-License-Identifier: Apache-2.0
// `allocgate export REPORT --format FORMAT`: a report, or any Google Benchmark
// JSON with allocgate's counters, in a benchmark tracker's format.
#include <unistd.h>

#include <memory>

#include <iostream>

#include "export.h"
#include "input_error.h"
#include "io.h"
#include "pprof_export.h"
#include "subcommand.h"

namespace allocgate::command {

Subcommand add_export_command(CLI::App& app) {
  struct Options {
    std::string report, out, format;
  };
  auto o = std::make_shared<Options>();
  CLI::App* export_app = app.add_subcommand(
      "export",
      "Write a report's figures for a benchmark tracker (github-action-benchmark, Bencher), or its sites and stacks "
      "for a profile viewer (pprof, flame graphs)");
  export_app->add_option("report", o->report, "A report from allocgate run, or a Google Benchmark JSON")->required();
  export_app
      ->add_option("--format", o->format,
                   "github-action-benchmark (customSmallerIsBetter), bmf (Bencher Metric Format), pprof (the sites "
                   "as a gzipped profile.proto for go tool pprof, each sample labelled with its case) or collapsed "
                   "(the stacks folded, a line each, for flamegraph.pl, inferno and speedscope)")
      ->required()
      ->check(CLI::IsMember({"github-action-benchmark", "bmf", "pprof", "collapsed"}));
  export_app->add_option("--out", o->out, "Write here (atomically) instead of stdout");
  return {export_app, [o] {
            if (o->format == "pprof" && o->out.empty() && ::isatty(STDOUT_FILENO)) {
              throw files::InputError("a pprof profile is binary: write it to a file with --out FILE");
            }
            const reports::Report report = read_report_saying_source(o->report);
            if (o->format == "pprof") {
              write_output(o->out, reports::pprof_profile(report, o->report));
            } else if (o->format == "collapsed") {
              if (!reports::has_stacks(report)) {
                throw files::InputError(o->report +
                                        ": no case has stacks: write the report with --allocgate_sites (a benchmark "
                                        "or test binary) or `allocgate run --sites`");
              }
              reports::FoldedScale scale;
              write_output(o->out, [&](std::ostream& out) { scale = reports::print_collapsed_stacks(out, report); });
              if (scale.operations_per_count != 1 || scale.rounded) {
                std::cerr << "allocgate: the counts are allocations per "
                          << (scale.operations_per_count == 1
                                  ? std::string("operation")
                                  : std::to_string(scale.operations_per_count) + " operations")
                          << (scale.rounded ? ", rounded to whole numbers"
                                            : ": the smallest such scale at which every count is whole")
                          << '\n';
              }
            } else if (o->format == "bmf") {
              write_output(o->out, [&](std::ostream& out) { reports::print_bencher_metric_format(out, report); });
            } else {
              write_output(o->out, [&](std::ostream& out) { reports::print_github_action_benchmark(out, report); });
            }
            return kSuccess;
          }};
}

}  // namespace allocgate::command
