// SPDX-License-Identifier: Apache-2.0
// allocgate: run the workloads, write the report, gate it against recorded
// bounds, compare two reports, render tables. main() parses the command line
// and maps errors to exit codes; each subcommand is a file of its own
// (subcommand.h).

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>

#include <CLI/CLI.hpp>

#include "allocgate/toolchain.h"
#include "escape.h"
#include "help_text.h"
#include "input_error.h"
#include "subcommand.h"
#include "usage.h"

namespace {

using namespace allocgate::command;
namespace files = allocgate::files;

int run_command(int argc, char** argv) {
  // Named, so that --help says "allocgate diff", wherever the binary was run from.
  CLI::App app{"allocgate: heap allocations as a number you can test, gate in CI and explain", "allocgate"};
  // A usage error in one line, as every other error, naming the word not
  // understood and the subcommand's own --help.
  const std::vector<std::string> args(argv + std::min(argc, 1), argv + argc);
  app.failure_message([&app, &args](const CLI::App*, const CLI::Error& e) { return usage_error(app, args, e); });
  // The toolchain key too: the section of a bounds file this build's counts belong to.
  app.set_version_flag("--version", std::string("allocgate ") + ALLOCGATE_VERSION + " (" + allocgate::kToolchain + ")");
  app.require_subcommand(1);
  app.formatter(help_formatter());  // before the subcommands: each takes its parent's
  const std::vector<Subcommand> subcommands = add_subcommands(app);
  add_help_text(app);
  // --help says which subcommands are about allocgate's own workloads and
  // which read any report (a user's benchmark JSON among them).
  for (const Subcommand& sub : subcommands) {
    const std::string& name = sub.app->get_name();
    const bool workloads = name == "list" || name == "run" || name == "loop" || name == "output";
    sub.app->group(workloads ? "The built-in workloads (the case studies' jobs)"
                             : "Any report (allocgate run's, or Google Benchmark's JSON with allocgate's counters)");
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);  // prints help, version or the usage error
    return code == 0 ? kSuccess : kBadInput;
  }

  try {
    for (const Subcommand& sub : subcommands) {
      if (*sub.app) return sub.run();
    }
  } catch (const files::InputError& e) {
    // Messages quote the input: one line, nothing a terminal or a CI log acts on.
    std::cerr << "allocgate: " << files::terminal_text(e.what()) << "\n";
    return kBadInput;
  } catch (const std::filesystem::filesystem_error& e) {
    // A path the user named that cannot be searched, read or written.
    std::cerr << "allocgate: " << files::terminal_text(e.what()) << "\n";
    return kBadInput;
  } catch (const std::exception& e) {
    std::cerr << "allocgate: internal error: " << files::terminal_text(e.what()) << "\n";
    return kInternal;
  }
  return kBadInput;
}

}  // namespace

// What was printed reached its destination, or the exit code says it did not:
// a gate whose table was lost is not a pass (coreutils check the same).
int main(int argc, char** argv) {
  const int code = run_command(argc, argv);
  errno = 0;  // the flush's error, if any, is the one to name
  std::cout.flush();
  if (!std::cout || std::fflush(stdout) != 0 || std::ferror(stdout)) {
    const int error = errno;
    std::cerr << "allocgate: cannot write to standard output" << (error != 0 ? ": " : "")
              << (error != 0 ? std::strerror(error) : "") << "\n";
    return kOutputFailed;
  }
  return code;
}
