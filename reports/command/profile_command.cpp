// SPDX-License-Identifier: Apache-2.0
// `allocgate profile CASE [--heaptrack]`: which lines allocate in one
// operation of a built-in case, and optionally heaptrack's view of a loop of
// them. `allocgate profile REPORT CASE`: the same from the sites a report
// holds (a user's benchmark run with --allocgate_sites, `run --sites`).
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <vector>

#include "escape.h"
#include "format.h"
#include "heaptrack.h"
#include "input_error.h"
#include "report.h"
#include "runner.h"
#include "subcommand.h"
#include "usage.h"

namespace allocgate::command {
namespace {

struct Options {
  std::string case_name, out;
  std::string second;  // with a report: the case, and case_name is the report
  bool heaptrack = false;
  long runs = 200;
};

// "2 allocs/op (67%), 64 B/op (40%): f (x.cpp:12)": a site with its share of
// the case's allocs/op and bytes/op, and its fix on the next line.
void print_sites(std::ostream& out, std::vector<reports::SiteSummary> sites, const reports::CaseResult& c,
                 bool by_bytes) {
  std::stable_sort(sites.begin(), sites.end(), [by_bytes](const auto& a, const auto& b) {
    return by_bytes ? a.bytes_per_op > b.bytes_per_op : a.allocs_per_op > b.allocs_per_op;
  });
  const auto share = [](double part, double whole) {
    return whole > 0 ? " (" + files::percent(part / whole) + ")" : std::string();
  };
  constexpr std::size_t kShown = 10;
  for (std::size_t i = 0; i < sites.size() && i < kShown; ++i) {
    const reports::SiteSummary& s = sites[i];
    out << "  " << files::readable(s.allocs_per_op) << " allocs/op" << share(s.allocs_per_op, c.allocs_per_op);
    if (s.temporary_per_op > 0) out << ", " << files::readable(s.temporary_per_op) << " temporary";
    out << ", " << files::readable(s.bytes_per_op) << " B/op";
    if (c.bytes_per_op) out << share(s.bytes_per_op, *c.bytes_per_op);
    out << ": " << files::terminal_text(to_string(s.where())) << "\n";
    if (!s.hint.empty()) out << "      hint: " << files::terminal_text(s.hint) << "\n";
  }
  if (sites.size() > kShown) out << "  ... " << sites.size() - kShown << " more site(s)\n";
}

int profile_report(const Options& o) {
  const std::string& file = o.case_name;
  const std::string& name = o.second;
  if (o.heaptrack) throw files::InputError("--heaptrack runs a built-in case (allocgate profile CASE --heaptrack)");
  const reports::Report report = reports::read_report(file);
  const std::optional<reports::CaseResult> c = reports::CaseIndex(report).find(name);
  if (!c) {
    std::vector<std::string> names;
    for (const reports::CaseResult& each : report.cases) names.push_back(each.name);
    const std::string near = nearest(name, names);
    throw files::InputError(file + ": no case named '" + name + "'" +
                            (near.empty() ? "" : "; did you mean " + near + "?"));
  }
  if (c->sites.empty()) {
    throw files::InputError(file + ": " + name +
                            " has no sites: run the benchmark with --allocgate_sites (or ALLOCGATE_SITES=1), or "
                            "allocgate run with --sites");
  }
  std::cout << files::terminal_text(name) << " (" << files::terminal_text(file)
            << "): " << files::readable(c->allocs_per_op) << " allocs/op";
  if (c->bytes_per_op) std::cout << ", " << files::readable(*c->bytes_per_op) << " B/op";
  std::cout << "\n\nby count (each site's share of the case's allocs/op and B/op):\n";
  print_sites(std::cout, c->sites, *c, false);
  std::cout << "\nby bytes:\n";
  print_sites(std::cout, c->sites, *c, true);
  double listed = 0;
  for (const reports::SiteSummary& s : c->sites) listed += s.allocs_per_op;
  if (listed < c->allocs_per_op) {
    std::cout << "\nthe report keeps the top sites: " << files::readable(c->allocs_per_op - listed)
              << " allocs/op are at sites not listed\n";
  }
  return kSuccess;
}

int profile(Options o) {
  if (!o.second.empty()) return profile_report(o);
  if (std::filesystem::is_regular_file(o.case_name)) {
    throw files::InputError("'" + o.case_name + "' is a file: name the case in it too (allocgate profile " +
                            o.case_name + " CASE)");
  }
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
  CLI::App* profile_app = app.add_subcommand(
      "profile", "Which lines allocate: a built-in case's top sites, or a case's in a report that holds sites");
  profile_app->add_option("case", o->case_name, "A built-in case (workload/variant/size), or a report")->required();
  profile_app->add_option("report_case", o->second,
                          "With a report first: the case in it (a benchmark run with --allocgate_sites: "
                          "allocgate profile bench.json BM_Copy)");
  profile_app->add_flag("--heaptrack", o->heaptrack, "Also run the case in a loop under heaptrack and summarise it");
  profile_app->add_option("--runs", o->runs, "With --heaptrack: operations after the warm-up")
      ->check(CLI::Range(0L, 100000000L))
      ->capture_default_str();
  profile_app->add_option("--out", o->out, "With --heaptrack: the data file's name, before .zst");
  return {profile_app, [o] { return profile(*o); }};
}

}  // namespace allocgate::command
