// SPDX-License-Identifier: Apache-2.0
// A subcommand of the allocgate command. Each is a file of its own,
// NAME_command.cpp, defining add_NAME_command(): it declares the subcommand
// and its options on the app and returns what runs it once parsed. main()
// knows none of them: the list is ALLOCGATE_SUBCOMMANDS in
// reports/CMakeLists.txt, from which subcommands.cpp.in is generated. Adding
// a subcommand is one file and one word in that list.
#pragma once

#include <functional>
#include <vector>

#include <CLI/CLI.hpp>

namespace allocgate::command {

// Exit codes: the same for every subcommand.
inline constexpr int kSuccess = 0;
inline constexpr int kRegression = 1;    ///< the gate found one
inline constexpr int kBadInput = 2;      ///< bad input or usage: one line says which
inline constexpr int kInternal = 3;      ///< a failure of allocgate itself
inline constexpr int kOutputFailed = 4;  ///< its output could not be written

struct Subcommand {
  CLI::App* app;             ///< true (*app) when the command line named it
  std::function<int()> run;  ///< runs it, after parsing; its exit code
};

/// Every subcommand, declared on app, in the order --help lists them.
std::vector<Subcommand> add_subcommands(CLI::App& app);

}  // namespace allocgate::command
