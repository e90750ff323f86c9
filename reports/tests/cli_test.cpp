// SPDX-License-Identifier: Apache-2.0
// The allocgate binary end to end: exit codes (0 pass, 1 regression, 2 bad
// input), one-line errors, a workload added by one line of CMake, and the gate
// catching a regression in it.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "allocgate/toolchain.h"
#include "command.h"
#include "standard_library.h"

namespace {

namespace fs = std::filesystem;

const std::string kAllocgate = ALLOCGATE_BIN;
const std::string kWithCanary = ALLOCGATE_WITH_CANARY_BIN;  // the workloads plus canary
const std::string kRegressed = ALLOCGATE_REGRESSED_BIN;     // ... with canary/optimized regressed
const std::string kFixtures = ALLOCGATE_FIXTURES;
const std::string kBounds = ALLOCGATE_BOUNDS;

using allocgate::reports::testing::Result;
using allocgate::reports::testing::run;

class Cli : public allocgate::reports::testing::ScratchDirTest {
 protected:
  // Bounds recorded from the canary build's counts, as a user records theirs.
  std::string record_canary_bounds() {
    const std::string report = path("canary.json"), bounds = path("canary-bounds.json");
    EXPECT_EQ(run(kWithCanary + " run --no-timing --filter '^canary/' --out " + report).code, 0);
    EXPECT_EQ(run(kWithCanary + " diff --update --bounds " + bounds + " " + report).code, 0);
    return bounds;
  }
};

TEST_F(Cli, VersionAndHelp) {
  EXPECT_EQ(run(kAllocgate + " --version").output, std::string("allocgate 0.1.0 (") + allocgate::kToolchain + ")\n");
  const Result help = run(kAllocgate + " --help");
  EXPECT_EQ(help.code, 0);
  for (const char* sub : {"run", "diff", "compare", "table", "output", "list", "profile", "loop", "merge", "history"}) {
    EXPECT_NE(help.output.find(sub), std::string::npos) << sub;
  }
  EXPECT_EQ(run(kAllocgate + " no-such-command").code, 2);
  EXPECT_EQ(run(kAllocgate + " diff").code, 2);  // --bounds and the report are required
}

// Every --help (and so every man page, made from it) gives examples, the
// exit status and related pages, says which subcommands are about the
// built-in workloads, and shows no parser notation: values are named, their
// defaults said in words.
TEST_F(Cli, EveryHelpHasExamplesExitStatusAndSeeAlsoAndNoParserNotation) {
  const std::string top = run(kAllocgate + " --help").output;
  EXPECT_NE(top.find("\nThe built-in workloads (the case studies' jobs):\n  list "), std::string::npos) << top;
  EXPECT_NE(top.find("\nAny report (allocgate run's, or Google Benchmark's JSON"), std::string::npos) << top;
  for (const char* sub : {"", "list", "run", "merge", "history", "history add", "history show", "history chart",
                          "profile", "loop", "output", "diff", "compare", "table", "export"}) {
    const Result help = run(kAllocgate + " " + sub + " --help");
    EXPECT_EQ(help.code, 0) << sub;
    const std::string usage = std::string("Usage: allocgate ") + sub;
    EXPECT_NE(help.output.find(usage), std::string::npos) << sub << "\n" << help.output;
    EXPECT_NE(help.output.find("\nExamples:\n  allocgate " + std::string(sub)), std::string::npos) << sub << "\n"
                                                                                                   << help.output;
    EXPECT_NE(help.output.find("\nExit status:\n  0  success\n"), std::string::npos) << sub;
    EXPECT_NE(help.output.find("  2  bad input or usage"), std::string::npos) << sub;
    EXPECT_EQ(help.output.find("  1  a regression") != std::string::npos, std::string(sub) == "diff") << sub;
    EXPECT_NE(help.output.find("\nSee also:\n  allocgate-"), std::string::npos) << sub;
    for (const char* notation : {"Needs:", "Excludes:", " in [", "INT:", "UINT", "FLOAT:", "TEXT:{", "=10", "=200"}) {
      EXPECT_EQ(help.output.find(notation), std::string::npos) << sub << ": " << notation << "\n" << help.output;
    }
  }
  const std::string loop = run(kAllocgate + " loop --help").output;
  EXPECT_NE(loop.find("  --runs N                    Operations after one warm-up (default 1000)\n"), std::string::npos)
      << loop;
}

// The usual slips name the word not understood, the nearest that would have
// been, and the subcommand's own --help.
TEST_F(Cli, UsageErrorsNameTheWordAndTheNearestOne) {
  const std::string report = kFixtures + "/report.json";
  const std::pair<std::string, std::string> slips[] = {
      {"dif", "unknown subcommand 'dif' for allocgate; did you mean diff? (see allocgate --help)"},
      {"histroy show", "unknown subcommand 'histroy' for allocgate; did you mean history? (see allocgate --help)"},
      {"history shwo",
       "unknown subcommand 'shwo' for allocgate history; did you mean show? (see allocgate history --help)"},
      {"diff --bound b.json " + report,
       "unknown option '--bound' for allocgate diff; did you mean --bounds? (see allocgate diff --help)"},
      {"run --filer x",
       "unknown option '--filer' for allocgate run; did you mean --filter? (see allocgate run --help)"},
      {"compare --markdwon a b",
       "unknown option '--markdwon' for allocgate compare; did you mean --markdown? (see allocgate compare --help)"},
      {"diff --zzz " + report, "unknown option '--zzz' for allocgate diff (see allocgate diff --help)"},
      {"diff " + report, "--bounds is required (see allocgate diff --help)"},
  };
  for (const auto& [args, message] : slips) {
    const Result r = run(kAllocgate + " " + args);
    EXPECT_EQ(r.code, 2) << args;
    EXPECT_EQ(r.output, "allocgate: " + message + "\n") << args;
  }
}

// The gate's first run, before anything was recorded: the command that records it.
TEST_F(Cli, ADiffBeforeAnythingWasRecordedSaysHowToRecordIt) {
  const std::string report = kFixtures + "/report.json", bounds = path("alloc-bounds.json");
  const Result r = run(kAllocgate + " diff --bounds " + bounds + " " + report);
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.output, "allocgate: " + bounds +
                          ": no such bounds file; record it from this report with: allocgate diff --update --bounds " +
                          bounds + " " + report + " (then commit it)\n");
  // The command it names works, and the gate then passes.
  EXPECT_EQ(run(kAllocgate + " diff --update --bounds " + bounds + " " + report).code, 0);
  EXPECT_EQ(run(kAllocgate + " diff --bounds " + bounds + " " + report).code, 0);
}

TEST_F(Cli, TheRecordedBoundsHoldForTheFixture) {
  const Result r = run(kAllocgate + " diff --bounds " + kBounds + " " + kFixtures + "/report.json");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("0 regression(s)"), std::string::npos);
  // Under --strict, the bounds the fixture does not cover fail the gate.
  EXPECT_EQ(run(kAllocgate + " diff --strict --bounds " + kBounds + " " + kFixtures + "/report.json").code, 1);
}

// Every case of this build, counted, against the bounds recorded for its
// toolchain (g++ and clang each have theirs): --strict, so that neither a case
// without a bound nor a bound without a case passes.
TEST_F(Cli, TheRecordedBoundsHoldForThisBuildsToolchain) {
  const std::string report = path("report.json");
  ASSERT_EQ(run(kAllocgate + " run --no-timing --counted-runs 1 --out " + report).code, 0);
  const Result r = run(kAllocgate + " diff --strict --bounds " + kBounds + " " + report);
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("0 regression(s), 0 improved, "), std::string::npos) << r.output;
}

// A CI matrix: each job runs one shard, one job merges and gates them.
TEST_F(Cli, ShardsRunApartMergeIntoTheWholeRunAndPassTheGate) {
  std::string shards;
  for (const char* shard : {"3/3", "1/3", "2/3"}) {
    const std::string file = path(std::string("shard-") + shard[0] + ".json");
    ASSERT_EQ(run(kAllocgate + " run --no-timing --counted-runs 1 --shard " + shard + " --out " + file).code, 0);
    shards += " " + file;
  }
  const std::string merged = path("merged.json");
  const Result m = run(kAllocgate + " merge" + shards + " --out " + merged);
  ASSERT_EQ(m.code, 0) << m.output;
  const std::string listed = run(kAllocgate + " list").output;
  const std::string cases = std::to_string(std::count(listed.begin(), listed.end(), '\n'));
  EXPECT_NE(m.output.find("(" + cases + " cases from 3 reports)"), std::string::npos) << m.output;
  const Result r = run(kAllocgate + " diff --strict --bounds " + kBounds + " " + merged);
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("0 regression(s), 0 improved, " + cases + " ok"), std::string::npos) << r.output;
  // Two shards of three: one line, exit 2, nothing written.
  const Result partial = run(kAllocgate + " merge " + path("shard-1.json") + " " + path("shard-2.json") + " --out " +
                             path("partial.json"));
  EXPECT_EQ(partial.code, 2);
  EXPECT_EQ(partial.output, "allocgate: shard 3/3 is missing: the merged report would not be whole\n");
  EXPECT_FALSE(fs::exists(path("partial.json")));
}

TEST_F(Cli, HistoryRecordsEachRunOnceShowsItAndRefusesAForeignFile) {
  const std::string report = path("r.json"), db = path("h.db");
  ASSERT_EQ(run(kAllocgate + " run --no-timing --counted-runs 1 --filter '^row_parse/' --out " + report).code, 0);
  const std::string add = kAllocgate + " history --db " + db + " add --commit c1 --branch main " + report;
  EXPECT_EQ(run(add).output, report + ": added\n");
  EXPECT_EQ(run(add).output, report + ": recorded already, unchanged\n");
  const Result show = run(kAllocgate + " history --db " + db + " show --filter 'naive/1$'");
  EXPECT_EQ(show.code, 0) << show.output;
  // Columns as wide as their widest cell: here bytes/op's three digits.
  EXPECT_EQ(show.output.rfind("case               figure      c1\nrow_parse/naive/1  allocs/op    3\n", 0), 0u)
      << show.output;
  std::ofstream(path("notes.db")) << "not a database\n";
  const Result foreign = run(kAllocgate + " history --db " + path("notes.db") + " show");
  EXPECT_EQ(foreign.code, 2);
  EXPECT_EQ(foreign.output,
            "allocgate: " + path("notes.db") + ": not a usable history database (file is not a database)\n");
  // A Google Benchmark JSON has no commit of its own: the flag gives it.
  const Result anonymous = run(kAllocgate + " history --db " + db + " add " + kFixtures + "/google-benchmark.json");
  EXPECT_EQ(anonymous.code, 2);
  EXPECT_NE(anonymous.output.find("no git_commit in its context; pass --commit"), std::string::npos)
      << anonymous.output;
}

TEST_F(Cli, ReadsAGoogleBenchmarkBinarysJson) {
  const Result r = run(kAllocgate + " diff --bounds " + kBounds + " " + kFixtures + "/google-benchmark.json");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("row_parse/naive/100"), std::string::npos);
  EXPECT_NE(r.output.find("order_format/pooled_contended/1/threads:2"), std::string::npos);  // listed, unbounded
}

TEST_F(Cli, BadInputIsOneLineAndExitTwo) {
  const std::pair<std::string, std::string> cases[] = {
      {"diff --bounds " + kBounds + " " + kFixtures + "/missing.json", "missing.json: cannot read"},
      {"diff --bounds " + kBounds + " " + kFixtures + "/malformed.json", "malformed.json: malformed JSON"},
      {"diff --bounds " + kBounds + " " + kFixtures + "/wrong-schema.json", "schema version 99"},
      {"diff --bounds " + kBounds + " " + kFixtures + "/negative.json", "allocs_per_op is negative"},
      {"diff --bounds " + kBounds + " " + kFixtures + "/not-a-number.json", "allocs_per_op is not a number"},
      {"diff --bounds " + kBounds + " " + kFixtures + "/nan.json", "allocs_per_op is null or NaN"},
      {"diff --bounds " + kBounds + " " + kFixtures + "/duplicate.json", "appears twice"},
      {"diff --bounds " + kBounds + " " + kFixtures + "/empty.json", "the report has no cases"},
      {"diff --bounds " + kFixtures + "/bounds-other-toolchain.json " + kFixtures + "/report.json",
       "has no bounds for toolchain gcc-12-libstdc++-12 (it has: clang-99-libc++-99000)"},
      {"diff --bounds " + kFixtures + "/bounds-unknown-field.json " + kFixtures + "/report.json",
       "unknown field 'tolerence'"},
      {"table " + kFixtures + "/malformed.json", "malformed JSON"},
      {"compare " + kFixtures + "/report.json " + kFixtures + "/empty.json", "no cases"},
      {"output no/such/case", "no case named 'no/such/case'"},
      {"run --filter '('", "is not a regular expression"},
  };
  for (const auto& [args, message] : cases) {
    const Result r = run(kAllocgate + " " + args);
    EXPECT_EQ(r.code, 2) << args << "\n" << r.output;
    EXPECT_EQ(r.output.rfind("allocgate: ", 0), 0u) << r.output;
    EXPECT_NE(r.output.find(message), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find('\n'), r.output.size() - 1) << "one line: " << r.output;
  }
}

// A workload named once, in a CMake list (reports/tests/CMakeLists.txt), is in
// list, run, the report, the tables and the gate.
TEST_F(Cli, AWorkloadAddedByOneLineIsListedRunReportedAndGated) {
  const Result list = run(kWithCanary + " list");
  EXPECT_NE(list.output.find("canary/naive/10\ncanary/naive/100\ncanary/naive/1000\n"
                             "canary/optimized/10\ncanary/optimized/100\ncanary/optimized/1000\n"),
            std::string::npos)
      << list.output;
  EXPECT_EQ(run(kAllocgate + " list").output.find("canary/"), std::string::npos);

  const std::string report = path("report.json");
  const Result ran = run(kWithCanary + " run --no-timing --filter '^canary/' --out " + report);
  ASSERT_EQ(ran.code, 0) << ran.output;
  EXPECT_NE(ran.output.find("### canary"), std::string::npos) << ran.output;
  std::ifstream in(report);
  std::stringstream json;
  json << in.rdbuf();
  EXPECT_NE(json.str().find("\"name\": \"canary/optimized/1000\""), std::string::npos);
  EXPECT_NE(json.str().find("\"canary\": {"), std::string::npos);  // its summary, for the tables

  const std::string bounds = record_canary_bounds();
  const Result gate = run(kAllocgate + " diff --strict --bounds " + bounds + " " + report);
  EXPECT_EQ(gate.code, 0) << gate.output;
  EXPECT_NE(gate.output.find("0 regression(s), 0 improved, 6 ok"), std::string::npos) << gate.output;
}

// The point of the gate: a build that adds one allocation per key to
// canary/optimized fails it, naming the case and the delta.
TEST_F(Cli, TheGateCatchesAnInjectedRegression) {
  const std::string bounds = record_canary_bounds();
  const std::string report = path("regressed.json");
  const Result ran = run(kRegressed + " run --no-timing --filter 'canary/optimized/(10|1000)$' --out " + report);
  ASSERT_EQ(ran.code, 0) << ran.output;
  const Result gate = run(kAllocgate + " diff --bounds " + bounds + " " + report);
  EXPECT_EQ(gate.code, 1) << gate.output;
  EXPECT_EQ(gate.output.rfind("REGRESSION canary/optimized/10", 0), 0u) << gate.output;
  EXPECT_NE(gate.output.find("REGRESSION canary/optimized/10: allocs/op 10 > bound 0 (+10)"), std::string::npos);
  EXPECT_NE(gate.output.find("REGRESSION canary/optimized/1000: allocs/op 1000 > bound 0 (+1000)"), std::string::npos);
  const Result annotated =
      run("GITHUB_ACTIONS=true " + kAllocgate + " diff --markdown --bounds " + bounds + " " + report);
  EXPECT_EQ(annotated.code, 1);
  EXPECT_EQ(annotated.output.rfind("::error title=allocation regression::canary/optimized/10", 0), 0u)
      << annotated.output;
  EXPECT_NE(annotated.output.find("### allocgate: allocation regression"), std::string::npos);

  // The same cases from the build without the regression pass.
  const std::string clean = path("clean.json");
  ASSERT_EQ(run(kWithCanary + " run --no-timing --filter 'canary/optimized/(10|1000)$' --out " + clean).code, 0);
  EXPECT_EQ(run(kAllocgate + " diff --bounds " + bounds + " " + clean).code, 0);
}

// The line of the injected regression, found the way a developer would: by
// its text.
unsigned regression_line() {
  return allocgate::reports::testing::line_of(ALLOCGATE_CANARY_SOURCE, "// CANARY-REGRESSION");
}

// Done when: from `allocgate diff` alone, the case, the delta and the line.
TEST_F(Cli, TheGatePointsAtTheLineThatAllocates) {
  const std::string bounds = record_canary_bounds();
  const std::string report = path("regressed.json");
  ASSERT_EQ(run(kRegressed + " run --no-timing --sites --filter 'canary/optimized/1000$' --out " + report).code, 0);
  const Result gate = run(kAllocgate + " diff --bounds " + bounds + " " + report);
  EXPECT_EQ(gate.code, 1);
  const std::string site =
      "allocgate::canary::render_regressed (reports/tests/canary/canary.cpp:" + std::to_string(regression_line()) + ")";
  const std::string expected =
      "REGRESSION canary/optimized/1000: allocs/op 1000 > bound 0 (+1000)\n    1000 allocs/op (1000 temporary) from " +
      site + "\n";
  EXPECT_EQ(gate.output.rfind(expected, 0), 0u) << gate.output;

  // compare names the new site too, as the gate does.
  const std::string clean = path("clean.json");
  ASSERT_EQ(run(kWithCanary + " run --no-timing --sites --filter 'canary/optimized/1000$' --out " + clean).code, 0);
  const Result cmp = run(kAllocgate + " compare " + clean + " " + report);
  EXPECT_EQ(cmp.output.rfind("+1000 allocs/op (1000 temporary) at " + site + " in canary/optimized/1000\n", 0), 0u)
      << cmp.output;
}

TEST_F(Cli, ProfileListsTheTopSitesOfOneOperation) {
  const Result r = run(kAllocgate + " profile log_report/v3/2000");
  EXPECT_EQ(r.code, 0) << r.output;
  // The 40 map nodes and the keys too long for the short-string buffer (30
  // with libstdc++, none with libc++) at one line, then the bucket array, the
  // key order and the output (log_report_test.cpp derives them).
  const std::uint64_t nodes_and_keys = 40 + (16 > allocgate::test::kShortStringCapacity ? 30 : 0);
  EXPECT_EQ(r.output.rfind("log_report/v3/2000: " + std::to_string(nodes_and_keys + 3) + " allocations, ", 0), 0u)
      << r.output;
  EXPECT_NE(r.output.find("by count:\n  " + std::to_string(nodes_and_keys) + " allocs, "), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("workloads/log_report/log_report.cpp:"), std::string::npos);
  EXPECT_NE(r.output.find("by bytes:\n"), std::string::npos);
}

// Code built without line tables: its sites name its functions (not the C
// library's start of the program, which has lines), and profile says how to
// get the lines. A build with them says nothing of the kind.
TEST_F(Cli, ProfileOfCodeWithoutLineTablesSaysSoAndNamesItsFunctions) {
  const Result r = run(std::string(ALLOCGATE_WITHOUT_LINES_BIN) + " profile canary/naive/10");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(r.output.rfind("allocgate: the code that allocates has no line tables, so its sites name functions only: "
                           "build it with -g (CMake: -DCMAKE_BUILD_TYPE=RelWithDebInfo), or for a packaged "
                           "allocgate install allocgate-dbg\n",
                           0),
            0u)
      << r.output;
  const auto top = r.output.find("by count:\n  ");
  ASSERT_NE(top, std::string::npos) << r.output;
  EXPECT_EQ(r.output.substr(r.output.find(" B: ", top), 36), " B: allocgate::canary::render_naive\n") << r.output;
  EXPECT_EQ(r.output.find("__libc_start"), std::string::npos) << r.output;
  const Result with_lines = run(kWithCanary + " profile canary/naive/10");
  EXPECT_EQ(with_lines.output.find("no line tables"), std::string::npos) << with_lines.output;
  EXPECT_NE(with_lines.output.find("allocgate::canary::render_naive (reports/tests/canary/canary.cpp:"),
            std::string::npos)
      << with_lines.output;
}

// loop --sites: every run's allocations, at the same sites as one operation's.
TEST_F(Cli, LoopWithSitesCountsEveryRunsAllocations) {
  const std::uint64_t nodes_and_keys = 40 + (16 > allocgate::test::kShortStringCapacity ? 30 : 0);
  const Result r = run(kAllocgate + " loop log_report/v3/2000 --runs 7 --sites");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(r.output.rfind("log_report/v3/2000: " + std::to_string(7 * (nodes_and_keys + 3)) + " allocations, ", 0), 0u)
      << r.output;
  EXPECT_NE(r.output.find("in 7 operations (after a warm-up one)"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("by count:\n  " + std::to_string(7 * nodes_and_keys) + " allocs, "), std::string::npos)
      << r.output;
  EXPECT_EQ(run(kAllocgate + " loop log_report/v3/2000 --runs 7").output, "");  // without --sites: silent
}

// An independent counter agrees: heaptrack's count of allocation calls for K
// operations, less its count for none (startup, the warm-up operation,
// heaptrack's own and C mallocs), is allocgate's allocs/op times K.
TEST_F(Cli, HeaptracksCountAgreesWithAllocgates) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "heaptrack's preload library cannot run beside a sanitizer runtime";
#endif
  if (run("command -v heaptrack").code != 0) GTEST_SKIP() << "heaptrack is not installed (apt-get install heaptrack)";
  const std::string name = "xml_listing/naive/10";
  const std::string report = path("counted.json");
  ASSERT_EQ(run(kAllocgate + " run --no-timing --filter '^" + name + "$' --out " + report).code, 0);
  std::ifstream in(report);
  std::stringstream json;
  json << in.rdbuf();
  const auto at = json.str().find("\"allocs_per_op\": ");
  ASSERT_NE(at, std::string::npos);
  const long allocs_per_op = std::stol(json.str().substr(at + 17));
#if !defined(_LIBCPP_VERSION)
  EXPECT_EQ(allocs_per_op, 165);  // libstdc++'s figure; libc++'s is gated in its bounds section
#endif

  const auto heaptrack_calls = [&](long runs) {
    const Result r = run(kAllocgate + " profile " + name + " --heaptrack --runs " + std::to_string(runs) + " --out " +
                         path("heaptrack." + std::to_string(runs)));
    EXPECT_EQ(r.code, 0) << r.output;
    const auto line = r.output.find("calls to allocation functions: ");
    return line == std::string::npos ? -1L : std::stol(r.output.substr(line + 31));
  };
  constexpr long kRuns = 40;
  const long none = heaptrack_calls(0);
  const long some = heaptrack_calls(kRuns);
  ASSERT_GT(none, 0);
  EXPECT_EQ(some - none, allocs_per_op * kRuns)
      << "heaptrack: " << none << " calls for 0 runs, " << some << " for " << kRuns;
  EXPECT_TRUE(fs::exists(path("heaptrack.40.zst")));  // kept for heaptrack_gui
}

TEST_F(Cli, WithoutHeaptrackProfileSaysHowToInstallIt) {
  const Result r = run("PATH=/nonexistent " + kAllocgate + " profile timestamp/naive/1 --heaptrack");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("allocgate: heaptrack is not installed: apt-get install heaptrack\n"), std::string::npos)
      << r.output;
}

TEST_F(Cli, UpdateRewritesTheBoundsAtomicallyAndOnlyTightens) {
  const std::string bounds = record_canary_bounds();
  {
    // A note of the user's own, which a rewrite must keep.
    std::ifstream in(bounds);
    std::stringstream text;
    text << in.rdbuf();
    std::string json = text.str();
    const std::string entry = "\"canary/optimized/10\": {";
    json.insert(json.find(entry) + entry.size(), "\"note\": \"one pass into a reused buffer\", ");
    std::ofstream(bounds) << json;
  }
  const std::string report = path("regressed.json");
  ASSERT_EQ(run(kRegressed + " run --no-timing --filter 'canary/optimized/10$' --out " + report).code, 0);
  const Result kept = run(kAllocgate + " diff --update --bounds " + bounds + " " + report);
  EXPECT_EQ(kept.code, 0) << kept.output;
  EXPECT_NE(kept.output.find("0 change(s)"), std::string::npos) << kept.output;  // a regression is not recorded
  EXPECT_EQ(run(kAllocgate + " diff --bounds " + bounds + " " + report).code, 1);
  const Result loosened = run(kAllocgate + " diff --update --allow-loosen --bounds " + bounds + " " + report);
  EXPECT_NE(loosened.output.find("loosened canary/optimized/10: allocs/op 0 -> 10"), std::string::npos)
      << loosened.output;
  EXPECT_EQ(run(kAllocgate + " diff --bounds " + bounds + " " + report).code, 0);
  std::ifstream in(bounds);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_NE(text.str().find("one pass into a reused buffer"), std::string::npos);                 // notes survive
  EXPECT_EQ(run(kAllocgate + " diff --allow-loosen --bounds " + bounds + " " + report).code, 2);  // needs --update
}

TEST_F(Cli, OutputTableAndCompare) {
  const Result out = run(kAllocgate + " output timestamp/optimized/1");
  EXPECT_EQ(out.code, 0);
  EXPECT_EQ(out.output, "2026-11-30T09:51:58Z 2026-11-30T09:51:58.123Z\n");
  EXPECT_EQ(run(kAllocgate + " output xml_listing/naive/10").output,
            run(kAllocgate + " output xml_listing/optimized/10").output);
  const Result table = run(kAllocgate + " table " + kFixtures + "/report.json");
  EXPECT_EQ(table.code, 0);
  EXPECT_NE(table.output.find("### log_report"), std::string::npos);
  const std::string page = path("report.html");
  EXPECT_EQ(run(kAllocgate + " table --html --out " + page + " " + kFixtures + "/report.json").code, 0);
  EXPECT_TRUE(fs::file_size(page) > 2000);
  // --filter: a page (or the text) of the cases it matches only.
  const Result some = run(kAllocgate + " table --filter '^log_report/v4/' " + kFixtures + "/report.json");
  EXPECT_EQ(some.code, 0);
  EXPECT_NE(some.output.find("| v4 |"), std::string::npos) << some.output;
  EXPECT_EQ(some.output.find("| v1 |"), std::string::npos) << some.output;
  EXPECT_EQ(some.output.find("row_parse"), std::string::npos) << some.output;
  EXPECT_EQ(run(kAllocgate + " table --filter '(' " + kFixtures + "/report.json").code, 2);
  const Result cmp = run(kAllocgate + " compare " + kFixtures + "/report.json " + kFixtures + "/report.json");
  EXPECT_EQ(cmp.code, 0);
  EXPECT_NE(cmp.output.find("1096 -> 1096"), std::string::npos) << cmp.output;
}

TEST_F(Cli, ListNamesEveryCase) {
  const Result r = run(kAllocgate + " list");
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.output.find("xml_listing/optimized/1000\n"), std::string::npos);
  EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 42);
}

}  // namespace
