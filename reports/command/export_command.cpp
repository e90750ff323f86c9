// SPDX-License-Identifier: Apache-2.0
// `allocgate export REPORT --format FORMAT`: a report, or any Google Benchmark
// JSON with allocgate's counters, in a benchmark tracker's format.
#include <memory>

#include "export.h"
#include "io.h"
#include "subcommand.h"

namespace allocgate::command {

Subcommand add_export_command(CLI::App& app) {
  struct Options {
    std::string report, out, format;
  };
  auto o = std::make_shared<Options>();
  CLI::App* export_app = app.add_subcommand(
      "export", "Write a report's figures for a benchmark tracker (github-action-benchmark, Bencher)");
  export_app->add_option("report", o->report, "A report from allocgate run, or a Google Benchmark JSON")->required();
  export_app
      ->add_option("--format", o->format,
                   "github-action-benchmark (customSmallerIsBetter) or bmf (Bencher Metric Format)")
      ->required()
      ->check(CLI::IsMember({"github-action-benchmark", "bmf"}));
  export_app->add_option("--out", o->out, "Write here (atomically) instead of stdout");
  return {export_app, [o] {
            const reports::Report report = read_report_saying_source(o->report);
            const nlohmann::json json =
                o->format == "bmf" ? reports::bencher_metric_format(report) : reports::github_action_benchmark(report);
            write_output(o->out, json.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
            return kSuccess;
          }};
}

}  // namespace allocgate::command
