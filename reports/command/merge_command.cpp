// SPDX-License-Identifier: Apache-2.0
// `allocgate merge`: the shards' reports joined into one.
#include <iostream>
#include <memory>

#include "io.h"
#include "merge.h"
#include "subcommand.h"

namespace allocgate::command {

Subcommand add_merge_command(CLI::App& app) {
  struct Options {
    std::vector<std::string> inputs;
    std::string out;
    bool by_program = false;
  };
  auto o = std::make_shared<Options>();
  CLI::App* merge = app.add_subcommand("merge", "Join the reports of shards (run --shard I/N) into one");
  merge->add_option("reports", o->inputs, "The shards' reports, each shard once")->required();
  merge->add_option("--out", o->out, "Write the joined report here (atomically); - for stdout")->required();
  merge->add_flag("--by-program", o->by_program,
                  "Name each case PROGRAM/NAME by the executable its report names: the reports of several test "
                  "binaries that share test names");
  return {merge, [o] {
            std::vector<reports::NamedReport> shards;
            for (const std::string& file : o->inputs) shards.push_back({file, reports::read_report(file)});
            // Reports in Google Benchmark's layout (test binaries', counted
            // benchmarks') are joined as they are, every key kept; allocgate
            // run's through its own writer.
            const bool as_they_are = reports::all_in_benchmark_layout(shards);
            std::vector<std::string> order;
            const reports::Report merged = reports::merge_reports(std::move(shards), &order, o->by_program);
            if (as_they_are) {
              const nlohmann::json joined = reports::join_benchmark_layout(order, o->by_program);
              write_output(o->out, [&](std::ostream& out) {
                out << joined.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
              });
            } else {
              write_output(o->out, [&](std::ostream& out) { reports::print_report(out, merged); });
            }
            if (o->out != "-") {
              std::cerr << "allocgate: wrote " << o->out << " (" << merged.cases.size() << " cases from "
                        << o->inputs.size() << " reports)\n";
            }
            return kSuccess;
          }};
}

}  // namespace allocgate::command
