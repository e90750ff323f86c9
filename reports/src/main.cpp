// allocgate: run the workloads, write the report, gate it against recorded
// bounds, compare two reports, render tables.
//
// Exit codes: 0 success; 1 the gate found a regression; 2 bad input or usage;
// 3 a failure of allocgate itself (a workload that throws, a benchmark error);
// 4 its output could not be written (a full disk, a closed pipe, /dev/full).

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <CLI/CLI.hpp>

#include "allocgate/toolchain.h"
#include "bounds_file.h"
#include "compare.h"
#include "escape.h"
#include "gate.h"
#include "heaptrack.h"
#include "input_error.h"
#include "json_file.h"
#include "history.h"
#include "merge.h"
#include "registry/workload.h"
#include "report.h"
#include "runner.h"
#include "table.h"
#include "timing.h"

namespace {

using namespace allocgate::reports;
namespace bounds = allocgate::bounds;
namespace files = allocgate::files;

constexpr int kRegression = 1;
constexpr int kBadInput = 2;
constexpr int kInternal = 3;
constexpr int kOutputFailed = 4;

std::string report_toolchain(const Report& report, const std::string& override_key, const std::string& source) {
  if (!override_key.empty()) {
    // It becomes a key of the bounds file, which is JSON text.
    if (!files::valid_utf8(override_key)) throw files::InputError("--toolchain " + override_key + " is not valid UTF-8");
    return override_key;
  }
  const std::string key = report.toolchain();
  if (key.empty()) {
    throw files::InputError(source + " does not name its toolchain (allocgate_toolchain in its context): the program that "
                     "wrote it was not linked with allocgate::benchmark or allocgate::benchmark_main; link one, "
                     "or pass --toolchain");
  }
  return key;
}

// Says on stderr which runs of a Google Benchmark JSON the figures came from.
Report read_report_saying_source(const std::string& file) {
  Report report = read_report(file);
  if (!report.source_summary.empty()) {
    std::cerr << "allocgate: " << files::terminal_text(file) << ": " << report.source_summary << "\n";
  }
  return report;
}

int diff(const std::string& bounds_file, const std::string& report_file, const std::string& toolchain_override,
         bool markdown, bool strict, bool update, bool allow_loosen) {
  Report report = read_report_saying_source(report_file);
  const std::string toolchain = report_toolchain(report, toolchain_override, report_file);
  if (update) {
    std::vector<std::string> changes, refused;
    struct Refused {};
    try {
      bounds::update_bounds_file(bounds_file, [&](bounds::BoundsFile& bounds) {
        bounds = update_bounds(std::move(bounds), report, toolchain, allow_loosen, changes, refused);
        if (!refused.empty()) throw Refused{};  // before anything is written
      });
    } catch (const Refused&) {
      for (const std::string& line : refused) std::cerr << "allocgate: " << files::terminal_text(line) << "\n";
      std::cerr << "allocgate: " << files::terminal_text(bounds_file) << " left unchanged\n";
      return kBadInput;
    }
    for (const std::string& change : changes) std::cout << change << "\n";
    std::cout << bounds_file << ": " << changes.size() << " change(s) for " << toolchain << "\n";
    return 0;
  }
  const GateResult result = evaluate(std::move(report), bounds::read_bounds(bounds_file), toolchain, bounds_file);
  if (const char* gha = std::getenv("GITHUB_ACTIONS"); gha != nullptr && std::string(gha) == "true") {
    print_github_annotations(std::cout, result);
  }
  if (markdown) {
    print_markdown(std::cout, result);
  } else {
    print_text(std::cout, result);
  }
  return result.failed(strict) ? kRegression : 0;
}

int profile_command(const std::string& name, bool heaptrack, long runs, std::string out) {
  const allocgate::SiteProfile profile = profile_case(name);
  if (profile.lines_missing()) {
    std::cerr << "allocgate: the code that allocates has no line tables, so its sites name functions only: build "
                 "it with -g (CMake: -DCMAKE_BUILD_TYPE=RelWithDebInfo)\n";
  }
  std::cout << name << ": " << profile.allocations << " allocations, " << profile.bytes
            << " bytes in one operation (after a warm-up one)\n\nby count:\n"
            << profile.top(10) << "\nby bytes:\n" << profile.top(10, true);
  if (!heaptrack) return 0;
  if (out.empty()) {
    out = "heaptrack." + name;
    std::replace(out.begin(), out.end(), '/', '_');
  }
  const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  const HeaptrackSummary summary = run_under_heaptrack(self, name, runs, out);
  std::cout << "\nheaptrack: " << runs << " operations of " << name << " after a warm-up one\n"
            << "  data: " << summary.data_file << " (heaptrack_gui " << summary.data_file << ")\n"
            << "  calls to allocation functions: " << summary.calls
            << " (the whole process: startup, warm-up and C mallocs included)\n"
            << "  temporary allocations: " << summary.temporary << "\n"
            << "  peak heap memory: " << summary.peak << "\n  top allocators:\n";
  for (const HeaptrackAllocator& a : summary.top) {
    // Read from heaptrack_print's output: escaped like any text from a file.
    std::cout << "    " << a.calls << " calls: " << files::terminal_text(a.function)
              << (a.location.empty() ? "" : " (" + files::terminal_text(a.location) + ")") << "\n";
  }
  return 0;
}

void write_output(const std::string& file, const std::string& text) {
  if (file.empty() || file == "-") {
    std::cout << text;
  } else {
    files::write_file_atomically(file, text);
  }
}

}  // namespace

int run_command(int argc, char** argv) {
  CLI::App app{"allocgate: heap allocations as a number you can test, gate in CI and explain"};
  // A usage error in one line, as every other error.
  app.failure_message([](const CLI::App*, const CLI::Error& e) {
    return "allocgate: " + files::terminal_text(e.what()) + " (see allocgate --help)\n";
  });
  // The toolchain key too: the section of a bounds file this build's counts belong to.
  app.set_version_flag("--version", std::string("allocgate ") + ALLOCGATE_VERSION + " (" + allocgate::kToolchain + ")");
  app.require_subcommand(1);

  CLI::App* list = app.add_subcommand("list", "List every case: workload/variant/size");

  RunOptions run_options;
  std::string run_out;
  CLI::App* run = app.add_subcommand("run", "Run the cases, print the tables, write the JSON report");
  run->add_option("--filter", run_options.filter, "Only cases whose name matches this RE2 regular expression");
  run->add_option("--out", run_out, "Write the JSON report here (atomically)");
  run->add_option("--repetitions", run_options.repetitions, "Timed repetitions per case")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  run->add_option("--min-time", run_options.min_time, "Seconds per timed repetition")
      ->check(CLI::Range(0.001, 60.0))
      ->capture_default_str();
  run->add_option("--counted-runs", run_options.counted_runs, "Operations counted per case after the warm-up")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  bool no_timing = false;
  run->add_flag("--no-timing", no_timing, "Count allocations and hash outputs only");
  run->add_flag("--sites", run_options.sites, "Also record each case's top allocation sites (for diff and compare)");
  std::string shard;
  CLI::Option* shard_option =
      run->add_option("--shard", shard, "Only the I-th of N parts of the cases, e.g. 2/4 (join them with merge)");

  std::vector<std::string> merge_inputs;
  std::string merge_out;
  CLI::App* merge = app.add_subcommand("merge", "Join the reports of shards (run --shard I/N) into one");
  merge->add_option("reports", merge_inputs, "The shards' reports, each shard once")->required();
  merge->add_option("--out", merge_out, "Write the joined report here (atomically); - for stdout")->required();

  std::string history_db = "allocgate-history.db";
  CLI::App* history = app.add_subcommand("history", "Reports across commits, kept in an SQLite database");
  history->add_option("--db", history_db, "The history database")->capture_default_str();
  history->require_subcommand(1);
  std::vector<std::string> history_reports;
  RunKeyOverrides history_key;
  CLI::App* history_add = history->add_subcommand("add", "Record reports (adding one twice changes nothing)");
  history_add->add_option("reports", history_reports, "Reports of allocgate run, or Google Benchmark JSON")->required();
  history_add->add_option("--commit", history_key.commit, "The commit, instead of the report's git_commit");
  history_add->add_option("--date", history_key.date, "The date, instead of the report's");
  history_add->add_option("--branch", history_key.branch, "The branch");
  history_add->add_option("--toolchain", history_key.toolchain, "The toolchain, instead of the report's");
  history_add->add_option("--host", history_key.host, "The host, instead of the report's host_name");
  std::string history_filter;
  std::size_t history_last = 10;
  bool history_markdown = false;
  CLI::App* history_show = history->add_subcommand("show", "Cases by commits: allocs/op, bytes/op and time");
  history_show->add_option("--filter", history_filter, "Only cases whose name matches this RE2 regular expression");
  history_show->add_option("--last", history_last, "The last N runs (0: all)")
      ->check(CLI::Range(std::size_t{0}, std::size_t{1} << 40))
      ->capture_default_str();
  history_show->add_flag("--markdown", history_markdown, "Print markdown");

  std::string chart_out;
  CLI::App* history_chart = history->add_subcommand("chart", "An HTML page with a chart per case over the runs");
  bool chart_html = false;
  history_chart->add_flag("--html", chart_html, "The page is HTML (the one format)")->required();
  history_chart->add_option("--out", chart_out, "Write the page here (atomically); - for stdout")->required();
  history_chart->add_option("--filter", history_filter, "Only cases whose name matches this RE2 regular expression");
  history_chart->add_option("--last", history_last, "The last N runs (0: all)")
      ->check(CLI::Range(std::size_t{0}, std::size_t{1} << 40))
      ->capture_default_str();
  // Options of `history` after its subcommand too (`history add --db h.db`),
  // as git's and cargo's users type them.
  for (CLI::App* sub : {history_add, history_show, history_chart}) sub->fallthrough();

  std::string profile_case_name, heaptrack_out;
  bool heaptrack = false;
  long heaptrack_runs = 200;
  CLI::App* profile = app.add_subcommand("profile", "Which lines allocate: one operation's top sites");
  profile->add_option("case", profile_case_name, "workload/variant/size")->required();
  profile->add_flag("--heaptrack", heaptrack, "Also run the case in a loop under heaptrack and summarise it");
  profile->add_option("--runs", heaptrack_runs, "With --heaptrack: operations after the warm-up")
      ->check(CLI::Range(0L, 100000000L))
      ->capture_default_str();
  profile->add_option("--out", heaptrack_out, "With --heaptrack: the data file's name, before .zst");

  std::string loop_case_name;
  long loop_runs = 1000;
  CLI::App* loop = app.add_subcommand("loop", "Run a case over and over, for an external profiler to watch");
  loop->add_option("case", loop_case_name, "workload/variant/size")->required();
  loop->add_option("--runs", loop_runs, "Operations after one warm-up")->check(CLI::Range(0L, 1000000000L))
      ->capture_default_str();
  bool loop_sites = false;
  loop->add_flag("--sites", loop_sites, "Capture the call sites of every run and print the top ones");

  std::string output_case;
  CLI::App* output = app.add_subcommand("output", "Write one operation's output bytes to stdout");
  output->add_option("case", output_case, "workload/variant/size")->required();

  std::string bounds_file, diff_report, toolchain;
  bool markdown = false, strict = false, update = false, allow_loosen = false;
  CLI::App* diff_cmd = app.add_subcommand("diff", "Gate a report against recorded allocs/op bounds");
  diff_cmd->add_option("--bounds", bounds_file, "The bounds file, e.g. ci/alloc-bounds.json")->required();
  diff_cmd->add_option("report", diff_report, "A report from allocgate run, or a Google Benchmark JSON")->required();
  diff_cmd->add_option("--toolchain", toolchain, "Use these bounds instead of the report's toolchain");
  diff_cmd->add_flag("--markdown", markdown, "Print markdown, for a pull request comment or job summary");
  diff_cmd->add_flag("--strict", strict, "Also fail on a case without a bound or a bound without a case");
  diff_cmd->add_flag("--update", update, "Rewrite the bounds from the report (tightening only)");
  diff_cmd->add_flag("--allow-loosen", allow_loosen, "With --update: also raise bounds")->needs("--update");

  std::string base_file, head_file;
  bool compare_markdown = false;
  CLI::App* compare = app.add_subcommand("compare", "Compare two reports case by case");
  compare->add_option("base", base_file, "The report before the change")->required();
  compare->add_option("head", head_file, "The report after the change")->required();
  compare->add_flag("--markdown", compare_markdown, "Print a markdown table");

  std::string table_report, table_out;
  bool html = false;
  CLI::App* table = app.add_subcommand("table", "Render a report's case-study tables");
  table->add_option("report", table_report, "A report from allocgate run, or a Google Benchmark JSON")->required();
  table->add_flag("--html", html, "A self-contained HTML page with SVG charts");
  table->add_option("--out", table_out, "Write here instead of stdout (atomically)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);  // prints help, version or the usage error
    return code == 0 ? 0 : kBadInput;
  }

  try {
    if (*list) {
      for (const auto& c : allocgate::workloads::all_cases()) std::cout << c.name << "\n";
      return 0;
    }
    if (*run) {
      if (shard_option->count() > 0) run_options.shard = parse_shard(shard, "--shard");  // "" too: not I/N
      const bool untimed = !no_timing && !timing_available();
      run_options.time = !no_timing && !untimed;
      const Report report = run_cases(run_options, std::cerr);
      if (untimed) std::cerr << "allocgate: counted without timing: this allocgate was built without Google Benchmark\n";
      print_markdown_tables(std::cout, report);
      if (!run_out.empty()) {
        files::write_file_atomically(run_out, report_text(report));
        std::cerr << "allocgate: wrote " << run_out << "\n";
      }
      return 0;
    }
    if (*history) {
      History db(history_db, *history_add ? History::Access::write : History::Access::read);
      if (*history_add) {
        for (const std::string& file : history_reports) {
          const Report report = read_report_saying_source(file);
          const bool added = db.add(report, run_key(report, history_key, file));
          std::cout << files::terminal_text(file) << ": " << (added ? "added" : "recorded already, unchanged") << "\n";
        }
      } else if (*history_chart) {
        std::ostringstream page;
        print_history_chart(page, db.table(history_filter, history_last));
        write_output(chart_out, page.str());
      } else {
        print_history(std::cout, db.table(history_filter, history_last), history_markdown);
      }
      return 0;
    }
    if (*merge) {
      std::vector<NamedReport> reports;
      for (const std::string& file : merge_inputs) reports.push_back({file, read_report(file)});
      const Report merged = merge_reports(std::move(reports));
      write_output(merge_out, report_text(merged));
      if (merge_out != "-") {
        std::cerr << "allocgate: wrote " << merge_out << " (" << merged.cases.size() << " cases from "
                  << merge_inputs.size() << " reports)\n";
      }
      return 0;
    }
    if (*profile) return profile_command(profile_case_name, heaptrack, heaptrack_runs, heaptrack_out);
    if (*loop) {
      const allocgate::SiteProfile sites = loop_case(loop_case_name, loop_runs, loop_sites);
      if (loop_sites) {
        std::cout << loop_case_name << ": " << sites.allocations << " allocations, " << sites.bytes << " bytes in "
                  << loop_runs << " operations (after a warm-up one)\n\nby count:\n"
                  << sites.top(10);
      }
      return 0;
    }
    if (*output) {
      const std::string bytes = case_output(output_case);
      std::cout.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
      return 0;
    }
    if (*diff_cmd) return diff(bounds_file, diff_report, toolchain, markdown, strict, update, allow_loosen);
    if (*compare) {
      print_comparison(std::cout,
                       compare_reports(read_report_saying_source(base_file), read_report_saying_source(head_file)),
                       compare_markdown);
      return 0;
    }
    if (*table) {
      std::ostringstream text;
      const Report report = read_report_saying_source(table_report);
      if (html) {
        print_html(text, report);
      } else {
        print_markdown_tables(text, report);
      }
      write_output(table_out, text.str());
      return 0;
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
