// SPDX-License-Identifier: Apache-2.0
// `allocgate profile CASE [--heaptrack]`: which lines allocate in one
// operation, and optionally heaptrack's view of a loop of them.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>

#include "escape.h"
#include "heaptrack.h"
#include "runner.h"
#include "subcommand.h"

namespace allocgate::command {
namespace {

struct Options {
  std::string case_name, out;
  bool heaptrack = false;
  long runs = 200;
};

int profile(Options o) {
  const SiteProfile profile = reports::profile_case(o.case_name);
  if (profile.lines_missing()) {
    std::cerr << "allocgate: the code that allocates has no line tables, so its sites name functions only: build "
                 "it with -g (CMake: -DCMAKE_BUILD_TYPE=RelWithDebInfo), or for a packaged allocgate install "
                 "allocgate-dbg\n";
  }
  std::cout << files::terminal_text(o.case_name) << ": " << profile.allocations << " allocations, " << profile.bytes
            << " bytes in one operation (after a warm-up one)\n\nby count:\n"
            << profile.top(10) << "\nby bytes:\n"
            << profile.top(10, true);
  if (!o.heaptrack) return kSuccess;
  if (o.out.empty()) {
    o.out = "heaptrack." + o.case_name;
    std::replace(o.out.begin(), o.out.end(), '/', '_');
  }
  const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  const reports::HeaptrackSummary summary = reports::run_under_heaptrack(self, o.case_name, o.runs, o.out);
  std::cout << "\nheaptrack: " << o.runs << " operations of " << files::terminal_text(o.case_name)
            << " after a warm-up one\n"
            << "  data: " << summary.data_file << " (heaptrack_gui " << summary.data_file << ")\n"
            << "  calls to allocation functions: " << summary.calls
            << " (the whole process: startup, warm-up and C mallocs included)\n"
            << "  temporary allocations: " << summary.temporary << "\n"
            << "  peak heap memory: " << summary.peak << "\n  top allocators:\n";
  for (const reports::HeaptrackAllocator& a : summary.top) {
    // Read from heaptrack_print's output: escaped like any text from a file.
    std::cout << "    " << a.calls << " calls: " << files::terminal_text(a.function)
              << (a.location.empty() ? "" : " (" + files::terminal_text(a.location) + ")") << "\n";
  }
  return kSuccess;
}

}  // namespace

Subcommand add_profile_command(CLI::App& app) {
  auto o = std::make_shared<Options>();
  CLI::App* profile_app = app.add_subcommand("profile", "Which lines allocate: one operation's top sites");
  profile_app->add_option("case", o->case_name, "workload/variant/size")->required();
  profile_app->add_flag("--heaptrack", o->heaptrack, "Also run the case in a loop under heaptrack and summarise it");
  profile_app->add_option("--runs", o->runs, "With --heaptrack: operations after the warm-up")
      ->check(CLI::Range(0L, 100000000L))
      ->capture_default_str();
  profile_app->add_option("--out", o->out, "With --heaptrack: the data file's name, before .zst");
  return {profile_app, [o] { return profile(*o); }};
}

}  // namespace allocgate::command
