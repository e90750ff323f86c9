// SPDX-License-Identifier: Apache-2.0
// `allocgate output CASE`: one operation's output bytes, as they are.
#include <iostream>
#include <memory>

#include "runner.h"
#include "subcommand.h"

namespace allocgate::command {

Subcommand add_output_command(CLI::App& app) {
  auto case_name = std::make_shared<std::string>();
  CLI::App* output = app.add_subcommand("output", "Write one operation's output bytes to stdout");
  output->add_option("case", *case_name, "workload/variant/size")->required();
  return {output, [case_name] {
            const std::string bytes = reports::case_output(*case_name);
            std::cout.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
            return kSuccess;
          }};
}

}  // namespace allocgate::command
