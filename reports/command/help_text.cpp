// SPDX-License-Identifier: Apache-2.0
#include "help_text.h"

#include <map>
#include <string>
#include <vector>

namespace allocgate::command {
namespace {

// Option values named for what they hold; an option not listed keeps the
// type CLI11 gives it (TEXT, INT), without its range.
const std::map<std::string, std::string>& value_names() {
  static const std::map<std::string, std::string> names{
      {"--out", "FILE"},      {"--bounds", "FILE"},      {"--junit", "FILE"},     {"--db", "FILE"},
      {"--filter", "RE2"},    {"--repetitions", "N"},    {"--counted-runs", "N"}, {"--runs", "N"},
      {"--last", "N"},        {"--min-time", "SECONDS"}, {"--shard", "I/N"},      {"--toolchain", "NAME"},
      {"--format", "FORMAT"}, {"--commit", "SHA"},       {"--date", "DATE"},      {"--branch", "NAME"},
      {"--host", "NAME"},
  };
  return names;
}

class HelpFormatter : public CLI::Formatter {
 public:
  // "--runs N", "--out FILE REQUIRED": the value's name, nothing of the
  // parser's checks or of the options it needs (the description says those).
  std::string make_option_opts(const CLI::Option* opt) const override {
    if (opt->get_type_size() == 0) return opt->get_required() ? " REQUIRED" : "";
    std::string type = opt->get_type_name();
    type = type.substr(0, type.find(':'));
    const auto named = value_names().find(opt->get_name());
    std::string text = " " + (named != value_names().end() ? named->second : type);
    if (opt->get_expected_max() == CLI::detail::expected_max_vector_size) text += " ...";
    if (opt->get_required()) text += " REQUIRED";
    return text;
  }

  // The description, then the default in words.
  std::string make_option_desc(const CLI::Option* opt) const override {
    std::string text = opt->get_description();
    if (opt->get_type_size() != 0 && !opt->get_default_str().empty()) {
      text += " (default " + opt->get_default_str() + ")";
    }
    return text;
  }
};

// Every subcommand exits with one of these (subcommand.h); diff alone has 1.
std::string exit_status(bool gate) {
  std::string text = "Exit status:\n  0  success\n";
  if (gate)
    text += "  1  a regression: a case over its bound (with --strict, also a case or bound without the other)\n";
  text +=
      "  2  bad input or usage: a missing or malformed file, an unknown option; one line says which\n"
      "  3  a failure of allocgate itself\n"
      "  4  the output could not be written (a full disk, a closed pipe)\n";
  return text;
}

struct Page {
  std::vector<std::string> examples;  // "command  # what it does"
  std::vector<std::string> see_also;  // subcommands, by name
  bool gate = false;
};

const std::map<std::string, Page>& pages() {
  static const std::map<std::string, Page> by_name{
      {"",
       {{"allocgate run --sites --out report.json    # every workload case, counted and timed",
         "allocgate diff --bounds ci/alloc-bounds.json report.json    # the gate",
         "allocgate diff --bounds alloc-bounds.json bench.json    # a Google Benchmark suite's JSON",
         "allocgate compare base.json head.json    # what a change did"},
        {"run", "diff", "compare", "profile", "table", "history"}}},
      {"list", {{"allocgate list", "allocgate list | grep naive"}, {"run", "profile"}}},
      {"run",
       {{"allocgate run    # every case: the tables, no report",
         "allocgate run --sites --out report.json    # the report the gate reads, with each case's sites",
         "allocgate run --no-timing --filter 'xml_listing/.*/1000$'    # counts only, a few cases",
         "allocgate run --shard 2/4 --out shard2.json    # a quarter of the cases (join them with merge)"},
        {"list", "diff", "merge", "table"}}},
      {"merge",
       {{"allocgate merge --out report.json shard1.json shard2.json shard3.json shard4.json"}, {"run", "diff"}}},
      {"history",
       {{"allocgate history add report.json    # filed under its git_commit",
         "allocgate history show --last 20 --filter timestamp", "allocgate history chart --html --out history.html"},
        {"run", "diff"}}},
      {"history add",
       {{"allocgate history add report.json", "allocgate history add --commit $(git rev-parse HEAD) bench.json"},
        {"history-show", "history-chart"}}},
      {"history show",
       {{"allocgate history show", "allocgate history show --markdown --last 5"}, {"history-add", "history-chart"}}},
      {"history chart", {{"allocgate history chart --html --out history.html"}, {"history-add", "history-show"}}},
      {"profile",
       {{"allocgate profile xml_listing/naive/1000    # a built-in case's top sites",
         "allocgate profile bench.json BM_Copy    # a benchmark run with --allocgate_sites",
         "allocgate profile timestamp/naive/100 --heaptrack    # and heaptrack's view of a loop of it"},
        {"loop", "diff", "compare"}}},
      {"loop",
       {{"allocgate loop timestamp/naive/100 --sites    # every run's sites, counted",
         "heaptrack allocgate loop xml_listing/naive/1000 --runs 100    # for an external profiler"},
        {"profile"}}},
      {"output", {{"allocgate output xml_listing/optimized/10 | sha256sum"}, {"list", "run"}}},
      {"diff",
       {{"allocgate diff --bounds ci/alloc-bounds.json report.json",
         "allocgate diff --update --bounds alloc-bounds.json bench.json    # record the bounds (tightening only)",
         "allocgate diff --strict --junit gate.xml --bounds alloc-bounds.json report.json",
         "allocgate diff --markdown --bounds alloc-bounds.json report.json >> \"$GITHUB_STEP_SUMMARY\""},
        {"run", "compare", "profile"},
        true}},
      {"compare",
       {{"allocgate compare base.json head.json", "allocgate compare --markdown base.json head.json"},
        {"diff", "table"}}},
      {"table",
       {{"allocgate table report.json", "allocgate table report.json --html --out page.html",
         "allocgate table tests.json --html --filter '^Parser' --out parser.html   # part of a report too large for a "
         "page"},
        {"run", "compare", "export"}}},
      {"export",
       {{"allocgate export report.json --format github-action-benchmark --out bench-output.json",
         "allocgate export report.json --format bmf --out results.json    # Bencher Metric Format",
         "allocgate export bench.json --format pprof --out allocs.pb.gz && go tool pprof -top allocs.pb.gz",
         "allocgate export bench.json --format collapsed --out allocs.folded    # flamegraph.pl, speedscope"},
        {"table", "history", "profile"}}},
  };
  return by_name;
}

std::string footer_of(const Page& page) {
  std::string text = "Examples:\n";
  for (const std::string& example : page.examples) text += "  " + example + "\n";
  text += "\n" + exit_status(page.gate) + "\nSee also:\n ";
  for (std::size_t i = 0; i < page.see_also.size(); ++i) {
    text += (i > 0 ? ", allocgate-" : " allocgate-") + page.see_also[i] + "(1)";
  }
  return text + "; docs/command.md\n";
}

void add_footer(CLI::App& app, const std::string& path) {
  if (const auto it = pages().find(path); it != pages().end()) app.footer(footer_of(it->second));
  for (CLI::App* sub : app.get_subcommands({})) {
    add_footer(*sub, path.empty() ? sub->get_name() : path + " " + sub->get_name());
  }
}

}  // namespace

std::shared_ptr<CLI::Formatter> help_formatter() { return std::make_shared<HelpFormatter>(); }

void add_help_text(CLI::App& app) { add_footer(app, ""); }

}  // namespace allocgate::command
