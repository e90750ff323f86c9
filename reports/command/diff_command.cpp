// SPDX-License-Identifier: Apache-2.0
// `allocgate diff REPORT --bounds FILE [--update]`: the gate, or the bounds
// rewritten from a report.
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <vector>

#include "bounds_file.h"
#include "escape.h"
#include "filter.h"
#include "format.h"
#include "gate.h"
#include "input_error.h"
#include "io.h"
#include "junit.h"
#include "runs.h"
#include "subcommand.h"

namespace allocgate::command {
namespace {

struct Options {
  std::string bounds_file, report, toolchain, junit, base;
  std::vector<std::string> more_runs;  // with --update: further runs of the same suite
  bool markdown = false, strict = false, update = false, allow_loosen = false;
};

// The bounds' section the report's figures are gated against.
std::string report_toolchain(const reports::Report& report, const std::string& override_key,
                             const std::string& source) {
  if (!override_key.empty()) {
    // It becomes a key of the bounds file, which is JSON text.
    if (!files::valid_utf8(override_key))
      throw files::InputError("--toolchain " + override_key + " is not valid UTF-8");
    return override_key;
  }
  const std::string key = report.toolchain();
  if (key.empty()) {
    throw files::InputError(source +
                            " does not name its toolchain (allocgate_toolchain in its context): the program that "
                            "wrote it was not linked with allocgate::benchmark or allocgate::benchmark_main; link one, "
                            "or pass --toolchain");
  }
  return key;
}

int update(const Options& o, const reports::Report& report, const std::string& toolchain,
           const reports::Spreads& spreads) {
  std::vector<reports::BoundChange> changes;
  std::vector<std::string> refused;
  struct Refused {};
  try {
    bounds::update_bounds_file(o.bounds_file, [&](bounds::BoundsFile& recorded) {
      recorded =
          reports::update_bounds(std::move(recorded), report, toolchain, o.allow_loosen, changes, refused, &spreads);
      if (!refused.empty()) throw Refused{};  // before anything is written
    });
  } catch (const Refused&) {
    for (const std::string& line : refused) std::cerr << "allocgate: " << files::terminal_text(line) << "\n";
    std::cerr << "allocgate: " << files::terminal_text(o.bounds_file) << " left unchanged\n";
    return kBadInput;
  }
  std::size_t changed = 0;
  for (const reports::BoundChange& change : changes) {
    std::cout << files::terminal_text(reports::describe(change, report));
    if (change.kind == reports::BoundChange::Kind::added) {
      const std::string name(report.cases.name(change.case_index));
      if (const auto spread = spreads.find(name); spread != spreads.end()) {
        std::cout << ": " << files::terminal_text(reports::describe("it", spread->second));
      }
    }
    std::cout << "\n";
    if (change.kind != reports::BoundChange::Kind::failed_test) ++changed;
  }
  std::cout << files::terminal_text(o.bounds_file) << ": " << changed << " change(s) for "
            << files::terminal_text(toolchain) << "\n";
  return kSuccess;
}

int diff(const Options& o) {
  if (!o.more_runs.empty() && !o.update) {
    throw files::InputError(
        "several reports are read with --update only (runs of one suite, recorded as ranges); "
        "the gate reads one");
  }
  reports::Spreads spreads;
  reports::Report report;
  if (o.more_runs.empty()) {
    report = read_report_saying_source(o.report);
  } else {
    std::vector<reports::NamedReport> runs{{o.report, read_report_saying_source(o.report)}};
    for (const std::string& file : o.more_runs) runs.push_back({file, read_report_saying_source(file)});
    report = reports::fold_runs(std::move(runs), spreads);
  }
  const std::string toolchain = report_toolchain(report, o.toolchain, o.report);
  if (o.update) return update(o, report, toolchain, spreads);
  std::error_code error;
  if (!std::filesystem::exists(o.bounds_file, error) && !error) {
    // The first run of a new gate: say how to record the bounds from this report.
    throw files::InputError(o.bounds_file +
                            ": no such bounds file; record it from this report with: allocgate diff "
                            "--update --bounds " +
                            o.bounds_file + " " + o.report + " (then commit it)");
  }
  bounds::BoundsFile bounds = bounds::read_bounds(o.bounds_file);
  // Each limit's `cases`, an RE2 pattern the whole name matches.
  std::vector<std::shared_ptr<reports::NameFilter>> filters;
  std::vector<reports::LimitScope> scopes;
  for (const bounds::Limit& limit : bounds.limits) {
    if (limit.cases.empty()) {
      scopes.emplace_back([](std::string_view) { return true; });
      continue;
    }
    try {
      filters.push_back(std::make_shared<reports::NameFilter>("^(?:" + limit.cases + ")$"));
    } catch (const files::InputError& e) {
      throw files::InputError(o.bounds_file + ": limits: cases '" + files::terminal_text(limit.cases) +
                              "' is not an RE2 pattern (" + e.what() + ")");
    }
    scopes.emplace_back([f = filters.back()](std::string_view name) { return f->matches(name); });
  }
  reports::GateResult result =
      reports::evaluate(std::move(report), std::move(bounds), toolchain, o.bounds_file, scopes);
  if (!o.base.empty()) reports::set_base_sites(result, read_report_saying_source(o.base));
  if (const char* gha = std::getenv("GITHUB_ACTIONS"); gha != nullptr && std::string(gha) == "true") {
    reports::print_github_annotations(std::cout, result);
  }
  if (o.markdown) {
    reports::print_markdown(std::cout, result);
  } else {
    reports::print_text(std::cout, result);
  }
  if (!o.junit.empty()) write_output(o.junit, reports::junit_xml(result, o.strict));
  return result.failed(o.strict) ? kRegression : kSuccess;
}

}  // namespace

Subcommand add_diff_command(CLI::App& app) {
  auto o = std::make_shared<Options>();
  CLI::App* diff_app = app.add_subcommand("diff", "Gate a report against recorded allocs/op bounds");
  diff_app->add_option("--bounds", o->bounds_file, "The bounds file, e.g. ci/alloc-bounds.json")->required();
  diff_app->add_option("report", o->report, "A report from allocgate run, or a Google Benchmark JSON")->required();
  diff_app->add_option("runs", o->more_runs,
                       "With --update: more runs of the same suite; a case whose figures differ between them is "
                       "recorded as their range (a tolerance)");
  diff_app->add_option("--toolchain", o->toolchain, "Use these bounds instead of the report's toolchain");
  diff_app->add_option("--base", o->base,
                       "A report of the base commit with sites: name the lines whose allocations grew from it");
  diff_app->add_flag("--markdown", o->markdown, "Print markdown, for a pull request comment or job summary");
  diff_app->add_option("--junit", o->junit,
                       "Also write the result as JUnit XML here (atomically), for GitLab, Jenkins...");
  diff_app->add_flag("--strict", o->strict, "Also fail on a case without a bound or a bound without a case");
  diff_app->add_flag("--update", o->update, "Rewrite the bounds from the report (tightening only)");
  diff_app->add_flag("--allow-loosen", o->allow_loosen, "With --update: also raise bounds")->needs("--update");
  return {diff_app, [o] { return diff(*o); }};
}

}  // namespace allocgate::command
