// SPDX-License-Identifier: Apache-2.0
// `allocgate list`: every case's name.
#include <iostream>

#include "registry/workload.h"
#include "subcommand.h"

namespace allocgate::command {

Subcommand add_list_command(CLI::App& app) {
  CLI::App* list = app.add_subcommand("list", "List every case: workload/variant/size");
  return {list, [] {
            for (const auto& c : allocgate::workloads::all_cases()) std::cout << c.name << "\n";
            return kSuccess;
          }};
}

}  // namespace allocgate::command
