// SPDX-License-Identifier: Apache-2.0
// The allocgate command fed what an adversary would hand a CI job: documents
// that nest deep enough to overflow a recursive reader, duplicate keys that
// would override a bound, numbers no integer holds, wrong types, and names
// built to inject workflow commands, terminal escapes and markup. Bad input
// gets one line and exit 2; names are printed harmlessly.

#include <gtest/gtest.h>
#include <libxml/parser.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "command.h"

namespace {

namespace fs = std::filesystem;
using allocgate::reports::testing::Result;
using allocgate::reports::testing::run;

const std::string kAllocgate = ALLOCGATE_BIN;

std::string nested(int depth) { return std::string(depth, '[') + std::string(depth, ']'); }

// A report of allocgate's own shape with one case, its parts replaceable.
std::string report(const std::string& case_fields, const std::string& context_fields = "") {
  return R"({"context": {"allocgate_schema_version": 1, "allocgate_toolchain": "tc")" + context_fields +
         R"(}, "benchmarks": [{"name": "w/v/1", "workload": "w", "variant": "v", "allocs_per_op": 2)" + case_fields +
         "}]}";
}

// A Google Benchmark JSON whose benchmark has these repetitions.
std::string google_benchmark(int repetitions, const std::string& iterations) {
  std::string entries;
  for (int i = 0; i < repetitions; ++i) {
    entries += std::string(i ? "," : "") + R"({"name": "BM_X", "run_name": "BM_X", "run_type": "iteration",
      "iterations": )" +
               iterations + R"(, "real_time": 1, "cpu_time": 1, "time_unit": "ns", "allocs/op": 1})";
  }
  return R"({"context": {"date": "x"}, "benchmarks": [)" + entries + "]}";
}

const std::string kBounds = R"({"allocgate_bounds_version": 1, "toolchains": {"tc": {"w/v/1": {"allocs_per_op": 2}}}})";

class HostileInput : public allocgate::reports::testing::ScratchDirTest {
 protected:
  void SetUp() override {
    ScratchDirTest::SetUp();
    bounds_ = write("bounds.json", kBounds);
    report_ = write("report.json", report(""));
  }

  // Every way the command reads a report: gate, compare, both tables.
  std::vector<std::string> readers_of(const std::string& file) const {
    return {"diff --bounds " + bounds_ + " " + file, "compare " + report_ + " " + file, "table " + file,
            "table --html " + file};
  }

  // Runs each command; each must fail with exit 2 and one line naming the problem.
  void expect_bad_input(const std::vector<std::string>& commands, const std::string& message) {
    for (const std::string& args : commands) {
      const Result r = run(kAllocgate + " " + args);
      EXPECT_EQ(r.code, 2) << args.substr(0, 200) << "\n" << r.output.substr(0, 500);
      EXPECT_EQ(r.output.rfind("allocgate: ", 0), 0u) << r.output.substr(0, 500);
      EXPECT_NE(r.output.find(message), std::string::npos) << args.substr(0, 200) << "\n" << r.output.substr(0, 500);
      EXPECT_EQ(r.output.find('\n'), r.output.size() - 1) << "one line: " << r.output.substr(0, 500);
      ++tried_;
    }
  }

  std::string bounds_, report_;
  int tried_ = 0;
};

TEST_F(HostileInput, DeepNestingIsRefusedBeforeAnythingRecurses) {
  // Each used to overflow the stack (SIGSEGV) in nlohmann's dump() or a copy.
  const std::string bounds =
      write("deep-bounds.json", R"({"allocgate_bounds_version": )" + nested(100000) + R"(, "toolchains": {}})");
  expect_bad_input({"diff --bounds " + bounds + " " + report_, "diff --update --bounds " + bounds + " " + report_},
                   "nested deeper than 64 levels");
  const std::string version = write(
      "deep-version.json", R"({"context": {"allocgate_schema_version": )" + nested(150000) + R"(}, "benchmarks": []})");
  expect_bad_input(readers_of(version), "nested deeper than 64 levels");
  const std::string extra = write("deep-extra.json", report("", R"(, "extra": )" + nested(200000)));
  expect_bad_input(readers_of(extra), "nested deeper than 64 levels");
  const std::string case_field = write("deep-case.json", report(R"(, "x": )" + nested(65)));
  expect_bad_input(readers_of(case_field), "nested deeper than 64 levels");
  // A stack of 100,000 frames is flat JSON, but the flame graph recursed through it.
  std::string frames = "\"f\"";
  for (int i = 1; i < 100000; ++i) frames += ",\"f\"";
  const std::string tall =
      write("tall-stack.json", report(R"(, "stacks": [{"frames": [)" + frames + R"(], "allocs_per_op": 2}])"));
  expect_bad_input(readers_of(tall), "a stack of 100000 frames (at most 256)");
  EXPECT_EQ(tried_, 18);
}

TEST_F(HostileInput, ADuplicateKeyIsRefusedNeverLastWins) {
  // The later entry used to win: a 1000-allocation regression read as improved.
  const std::string bounds =
      write("dup-bounds.json", R"({"allocgate_bounds_version": 1, "toolchains": {"tc": {"w/v/1": {"allocs_per_op": 0},
         "w/v/1": {"allocs_per_op": 1000000}}}})");
  expect_bad_input({"diff --bounds " + bounds + " " + report_}, "the key \"w/v/1\" appears twice");
  const std::string sections =
      write("dup-sections.json", R"({"allocgate_bounds_version": 1, "toolchains": {"tc": {}, "tc": {}}})");
  expect_bad_input({"diff --bounds " + sections + " " + report_}, "the key \"tc\" appears twice");
  const std::string field = write("dup-field.json", report(R"(, "allocs_per_op": 0)"));
  expect_bad_input(readers_of(field), "the key \"allocs_per_op\" appears twice");
  const std::string top = write("dup-top.json", R"({"benchmarks": [], "context": {}, "benchmarks": []})");
  expect_bad_input(readers_of(top), "the key \"benchmarks\" appears twice");
  EXPECT_EQ(tried_, 10);
}

TEST_F(HostileInput, BytesAfterANulAreNotIgnored) {
  const std::string bounds = write("nul-bounds.json", kBounds + std::string(1, '\0') + "garbage");
  expect_bad_input({"diff --bounds " + bounds + " " + report_}, "(a NUL byte)");
  const std::string nul = write("nul-report.json", report("") + std::string(1, '\0') + "{");
  expect_bad_input(readers_of(nul), "(a NUL byte)");
  EXPECT_EQ(tried_, 5);
}

TEST_F(HostileInput, NumbersNoIntegerHoldsAreBadInputNotUndefinedBehaviour) {
  const std::pair<std::string, std::string> fields[] = {
      {R"(, "size": 1e300)", "size is not a whole number up to 2^53"},
      {R"(, "size": 1.5)", "size is not a whole number up to 2^53"},
      {R"(, "iterations": 1e300)", "iterations is not a whole number up to 2^53"},
      {R"(, "iterations": 18446744073709551615)", "iterations is not a whole number up to 2^53"},
      {R"(, "sites": [{"function": "f", "file": "f.cpp", "line": 1e300, "allocs_per_op": 1}])", "a site's line"},
      {R"(, "sites": [{"function": "f", "file": "f.cpp", "line": 4294967296, "allocs_per_op": 1}])", "a site's line"},
      {R"(, "sites": [{"function": "f", "file": "f.cpp", "line": 2.5, "allocs_per_op": 1}])", "a site's line"},
      {R"(, "sites": [{"function": "f", "file": "f.cpp", "line": -1, "allocs_per_op": 1}])", "a site's line"},
      {R"(, "bytes_per_op": 1e999)", "malformed JSON"},
  };
  for (const auto& [field, message] : fields) {
    expect_bad_input(readers_of(write("huge.json", report(field))), message);
  }
  // Each repetition's count fits; their sum does not fit an int64.
  const std::string summed = write("summed.json", google_benchmark(1100, "9007199254740992"));
  expect_bad_input(readers_of(summed), "iterations add up to more than 2^63");
  // Versions are compared as numbers: 4294967297 is not 1 (get<int> wrapped it).
  const std::string version = write(
      "version.json",
      R"({"context": {"allocgate_schema_version": 4294967297}, "benchmarks": [{"name": "x", "allocs_per_op": 1}]})");
  expect_bad_input(readers_of(version), "report schema version 4294967297 is not supported");
  const std::string bounds_version =
      write("bounds-version.json", R"({"allocgate_bounds_version": 4294967297, "toolchains": {}})");
  expect_bad_input({"diff --bounds " + bounds_version + " " + report_}, "bounds version 4294967297 is not supported");
  EXPECT_EQ(tried_, 4 * 9 + 4 + 4 + 1);
}

// A Google Benchmark JSON of one benchmark with these fields.
std::string google_benchmark_with(const std::string& fields) {
  return R"({"context": {"date": "x", "allocgate_toolchain": "tc"}, "benchmarks": [{"name": "BM_X",
    "run_name": "BM_X", "run_type": "iteration", "iterations": 10)" +
         fields + "}]}";
}

// Above 2^53 a double no longer holds every whole number: 2^53 + 1 would read
// as 2^53 and pass a bound of 2^53. A time whose unit makes it infinite
// would print as inf and export as null.
TEST_F(HostileInput, FiguresPastWhatADoubleHoldsExactlyAreBadInput) {
  const std::string ours = write("ours.json", R"({"context": {"allocgate_schema_version": 1,
    "allocgate_toolchain": "tc"}, "benchmarks": [{"name": "w/v/1", "allocs_per_op": 9007199254740993}]})");
  expect_bad_input(readers_of(ours), "allocs_per_op is above 2^53, beyond what can be counted exactly");
  const std::string theirs = write("theirs.json", google_benchmark_with(R"(, "allocs/op": 9007199254740993)"));
  expect_bad_input(readers_of(theirs), "allocs/op is above 2^53");
  const std::string bytes = write("bytes.json", google_benchmark_with(R"(, "allocs/op": 1, "bytes/op": 1e17)"));
  expect_bad_input(readers_of(bytes), "bytes/op is above 2^53");
  const std::string eternal =
      write("eternal.json",
            google_benchmark_with(R"(, "allocs/op": 1, "real_time": 1e300, "cpu_time": 1, "time_unit": "s")"));
  expect_bad_input(readers_of(eternal), "real_time 1e+300 s is more nanoseconds than a double holds");
  EXPECT_EQ(tried_, 16);
}

// A time of 10^48 ns is finite; every table prints it as a number (it printed
// as 47 NUL bytes when the digits overflowed the buffer).
TEST_F(HostileInput, HugeTimesPrintAsNumbersInEveryTable) {
  const std::string slow =
      write("slow.json", google_benchmark_with(R"(, "allocs/op": 1, "real_time": 1e48, "cpu_time": 1e48)"));
  const std::string fast =
      write("fast.json", google_benchmark_with(R"(, "allocs/op": 1, "real_time": 1e-3, "cpu_time": 1e-3)"));
  // Slow to fast is "0.00x"; the other two print the time and the ratio in scientific notation.
  for (const std::string& args : {"table " + slow, "compare " + fast + " " + slow}) {
    const Result r = run(kAllocgate + " " + args);
    EXPECT_EQ(r.code, 0) << args << "\n" << r.output;
    EXPECT_EQ(r.output.find('\0'), std::string::npos) << args;
    EXPECT_EQ(r.output.find("inf"), std::string::npos) << args << "\n" << r.output;
    EXPECT_EQ(r.output.find("nan"), std::string::npos) << args << "\n" << r.output;
    EXPECT_NE(r.output.find("e+"), std::string::npos) << args << "\n" << r.output;
  }
}

// A benchmark that reports no time (a counter-only entry) is exported
// without one, not as 0 ns.
TEST_F(HostileInput, ABenchmarkWithoutATimeIsExportedWithoutOne) {
  const std::string untimed = write("untimed.json", google_benchmark_with(R"(, "allocs/op": 1)"));
  const std::string timed =
      write("timed.json", google_benchmark_with(R"(, "allocs/op": 1, "real_time": 5, "cpu_time": 5)"));
  const auto units = [](const std::string& text) {
    std::size_t n = 0;
    for (std::size_t at = text.find("\"unit\""); at != std::string::npos; at = text.find("\"unit\"", at + 1)) ++n;
    return n;
  };
  const Result without = run(kAllocgate + " export --format github-action-benchmark " + untimed);
  const Result with = run(kAllocgate + " export --format github-action-benchmark " + timed);
  EXPECT_EQ(without.code, 0) << without.output;
  EXPECT_EQ(units(with.output), units(without.output) + 1) << with.output << without.output;
  EXPECT_EQ(without.output.find("ns/op"), std::string::npos) << without.output;
}

// Google Benchmark's CSV given for its JSON: say which flag writes the JSON.
TEST_F(HostileInput, ACsvReportSaysToWriteJson) {
  const std::string csv = write("bench.csv",
                                "name,iterations,real_time,cpu_time,time_unit,bytes_per_second,"
                                "items_per_second,label,error_occurred,error_message\n"
                                "\"BM_X\",100,5,5,ns,,,,,\n");
  expect_bad_input(readers_of(csv),
                   "bench.csv: is Google Benchmark's CSV output, not a JSON report; write the JSON "
                   "with --benchmark_out=FILE --benchmark_out_format=json");
  EXPECT_EQ(tried_, 4);
}

// The commit comes from the environment into a JSON report: bytes that are
// not UTF-8 are one line naming the variable, and no report is written.
TEST_F(HostileInput, ACommitThatIsNotUtf8IsBadInputNotAnInternalError) {
  const std::string out = path("r.json");
  const Result r = run("ALLOCGATE_GIT_COMMIT=\"$(printf 'ab\\377')\" " + kAllocgate +
                       " run --filter 'timestamp/naive/1$' --no-timing --out " + out);
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_EQ(r.output.rfind("allocgate: ALLOCGATE_GIT_COMMIT is not valid UTF-8: ab\\xff\n", 0), 0u) << r.output;
  EXPECT_FALSE(fs::exists(out));
}

TEST_F(HostileInput, AWrongTypeAnywhereIsBadInputNotAnInternalError) {
  const std::pair<std::string, std::string> contexts[] = {
      {R"(, "allocgate_workloads": [1, 2])", "context.allocgate_workloads is not an object"},
      {R"(, "allocgate_workloads": {"w": 3})", "context.allocgate_workloads.w is not an object"},
      {R"(, "allocgate_workloads": {"w": {"summary": 3}})", "allocgate_workloads.w.summary is not a string"},
      {R"(, "allocgate_workloads": {"w": {"case_study_size": -1}})", "case_study_size is not a whole number"},
      {R"(, "allocgate_workloads": {"w": {"reference_variant": []}})", "reference_variant is not a string"},
  };
  for (const auto& [field, message] : contexts) {
    expect_bad_input(readers_of(write("types.json", report("", field))), message);
  }
  // The toolchain's own key: "tc" is in the report; a number is not a key.
  const std::string toolchain = R"({"context": {"allocgate_schema_version": 1, "allocgate_toolchain": 7},
      "benchmarks": [{"name": "x", "allocs_per_op": 1}]})";
  expect_bad_input({"diff --bounds " + bounds_ + " " + write("toolchain.json", toolchain)},
                   "context.allocgate_toolchain is not a string");
  std::string many_sites = R"(, "sites": [)";
  for (int i = 0; i < 1001; ++i) many_sites += std::string(i ? "," : "") + R"({"allocs_per_op": 1})";
  expect_bad_input(readers_of(write("sites.json", report(many_sites + "]"))), "1001 sites (at most 1000)");
  EXPECT_EQ(tried_, 5 * 4 + 1 + 4);
}

TEST_F(HostileInput, PathsAndArgumentsThatCannotBeUsedAreBadInput) {
  // --toolchain becomes a key of the bounds file, which is JSON text.
  expect_bad_input({"diff --update --toolchain \"$(printf '\\377\\376')\" --bounds " + bounds_ + " " + report_},
                   "is not valid UTF-8");
  fs::create_symlink("loop-b.json", dir_ / "loop-a.json");
  fs::create_symlink("loop-a.json", dir_ / "loop-b.json");
  expect_bad_input({"diff --update --bounds " + (dir_ / "loop-a.json").string() + " " + report_},
                   "Too many levels of symbolic links");
  // A path through a regular file, as if it were a directory.
  expect_bad_input({"diff --update --bounds " + report_ + "/bounds.json " + report_}, "bounds.json");
  fs::create_hard_link(bounds_, dir_ / "second-name.json");
  expect_bad_input({"diff --update --bounds " + bounds_ + " " + report_}, "has 2 hard links");
  EXPECT_EQ(tried_, 4);
}

// Names, sites and messages from a report reach a CI log, a terminal, a pull
// request comment and a web page. None of them may act there.
TEST_F(HostileInput, NamesCannotInjectWorkflowCommandsEscapesOrMarkup) {
  const std::string evil_name = R"(w/v/1\n::add-mask::secret\n::error::forged\u001b[2J<script>x</script>|`)";
  const std::string evil =
      write("evil.json", R"({"context": {"allocgate_schema_version": 1, "allocgate_toolchain": "tc"},
    "benchmarks": [{"name": ")" +
                             evil_name + R"(", "allocs_per_op": 5,
      "sites": [{"function": "f\n::warning::x", "file": "a.cpp,line=1::x", "line": 3, "allocs_per_op": 5}]}]})");
  const std::string bounds = write("evil-bounds.json", R"({"allocgate_bounds_version": 1, "toolchains": {"tc": {")" +
                                                           evil_name + R"(": {"allocs_per_op": 0}}}})");
  const auto lines_of = [](const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
  };
  const Result annotated = run("GITHUB_ACTIONS=true " + kAllocgate + " diff --bounds " + bounds + " " + evil);
  EXPECT_EQ(annotated.code, 1) << annotated.output;
  int commands = 0;
  for (const std::string& line : lines_of(annotated.output)) {
    if (line.rfind("::", 0) != 0) continue;
    ++commands;
    // The one command is ours, its properties intact and the file's "," and ":" encoded.
    EXPECT_EQ(line.rfind("::error file=a.cpp%2Cline=1%3A%3Ax,line=3,title=allocation regression::", 0), 0u) << line;
  }
  EXPECT_EQ(commands, 1) << annotated.output;
  EXPECT_EQ(annotated.output.find('\x1b'), std::string::npos);
  EXPECT_NE(annotated.output.find(R"(w/v/1\n::add-mask::secret\n::error::forged\x1b[2J)"), std::string::npos)
      << annotated.output;

  const Result markdown = run(kAllocgate + " diff --markdown --bounds " + bounds + " " + evil);
  for (const std::string& line : lines_of(markdown.output)) {
    EXPECT_NE(line.rfind("::", 0), 0u) << line;
    // A table row keeps its seven "|" (six cells); the name's own is escaped.
    if (line.rfind("| `", 0) == 0 || line.rfind("| ``", 0) == 0) {
      std::size_t bars = 0;
      for (std::size_t i = 0; i < line.size(); ++i) bars += line[i] == '|' && (i == 0 || line[i - 1] != '\\');
      EXPECT_EQ(bars, 7u) << line;
    }
  }
  // Outside code spans (the list of regressions) every "<" is escaped:
  // markdown renders none of it as HTML.
  for (const std::string& line : lines_of(markdown.output)) {
    if (line.rfind("- ", 0) != 0 && line.rfind("  - ", 0) != 0) continue;
    // A code span renders what it holds as text: the pointer to the
    // compare page names the case in one.
    const std::size_t span = line.find("flame graph of the change: ");
    const std::string prose = span == std::string::npos ? line : line.substr(0, span);
    for (std::size_t at = prose.find('<'); at != std::string::npos; at = prose.find('<', at + 1)) {
      EXPECT_EQ(prose[at - 1], '\\') << line;
    }
  }

  const Result html = run(kAllocgate + " table --html " + evil);
  EXPECT_EQ(html.code, 0) << html.output;
  // The name is text in the tables and \u003c-escaped in the page's data:
  // it never opens or closes an element of its own.
  EXPECT_EQ(html.output.find("<script>x"), std::string::npos);
  EXPECT_EQ(html.output.find("x</script>"), std::string::npos);
  EXPECT_NE(html.output.find("&lt;script&gt;x&lt;/script&gt;"), std::string::npos);

  const Result compare = run(kAllocgate + " compare " + evil + " " + evil);
  for (const std::string& line : lines_of(compare.output)) EXPECT_NE(line.rfind("::", 0), 0u) << line;
  EXPECT_EQ(compare.output.find('\x1b'), std::string::npos);
}

// A name may be one of the page's own ids (its data's script element, a
// chart's or a flame graph's div): a heading's id is the name behind a
// prefix of its kind, and every id on the page is one element's. Nor do two
// names share one: a newline and a backslash followed by n (in JSON).
TEST_F(HostileInput, NoNameTakesTheIdOfAPartOfThePage) {
  std::string benchmarks;
  for (const char* name : {"allocgate-data", "chart1", "chart1/2", "flame1", "flame2", R"(esc\nx)", R"(esc\\nx)"}) {
    if (!benchmarks.empty()) benchmarks += ", ";
    benchmarks += std::string(R"({"name": ")") + name +
                  R"(", "allocs_per_op": 1, "stacks": [{"frames": ["main", "f"], "allocs_per_op": 1}]})";
  }
  const std::string report = write("ids.json", R"({"context": {"allocgate_schema_version": 1,
    "allocgate_toolchain": "tc"}, "benchmarks": [)" +
                                                   benchmarks + "]}");
  const Result html = run(kAllocgate + " table --html " + report);
  ASSERT_EQ(html.code, 0) << html.output;
  std::map<std::string, int> ids;
  const std::regex id(R"re( id="([^"]*)")re");
  for (auto it = std::sregex_iterator(html.output.begin(), html.output.end(), id); it != std::sregex_iterator(); ++it) {
    ++ids[(*it)[1].str()];
  }
  for (const auto& [name, count] : ids) EXPECT_EQ(count, 1) << name;
  EXPECT_EQ(ids.count("allocgate-data"), 1u);
  EXPECT_EQ(ids.count("family-allocgate-data"), 1u);
  EXPECT_EQ(ids.count("family-chart1"), 1u);
  EXPECT_EQ(ids.count(R"(family-esc\nx)"), 1u);
  EXPECT_EQ(ids.count(R"(family-esc\\nx)"), 1u);
}

}  // namespace

namespace {

// A report whose one case has this name.
std::string report_named(const std::string& name) {
  return R"({"context": {"allocgate_schema_version": 1, "allocgate_toolchain": "tc"}, "benchmarks": [{"name": ")" +
         name + R"(", "workload": "w", "variant": "v", "allocs_per_op": 2}]})";
}

// A regular expression from the user runs in linear time (RE2): a name of any
// length, which a shared history may hold, cannot overflow a stack, and a
// pattern that backtracks exponentially in a backtracking engine returns at once.
TEST_F(HostileInput, FiltersRunInLinearTimeOnNamesOfAnyLength) {
  const std::string db = path("history.db");
  const std::string long_name = "log_report/" + std::string(200000, 'a');
  const Result added = run(kAllocgate + " history --db " + db + " add --commit c1 --date 2026-01-01 " +
                           write("long.json", report_named(long_name)));
  ASSERT_EQ(added.code, 0) << added.output.substr(0, 300);
  for (const char* filter : {"log_report/.*", "(a+)+$", "^(a|aa)*b$"}) {
    const Result show = run("timeout 60 " + kAllocgate + " history --db " + db + " show --filter '" + filter + "'");
    EXPECT_EQ(show.code, 0) << filter << "\n" << show.output.substr(0, 300);
  }
  const Result shown = run("timeout 60 " + kAllocgate + " history --db " + db + " show --filter 'log_report/a{100}'");
  EXPECT_NE(shown.output.find("log_report/aaaa"), std::string::npos) << shown.output.substr(0, 300);
  const Result none = run("timeout 60 " + kAllocgate + " run --no-timing --filter '(x+x+)+y'");
  EXPECT_EQ(none.code, 2) << none.output;
  EXPECT_NE(none.output.find("matches no case"), std::string::npos) << none.output;
  expect_bad_input({"run --no-timing --filter '('"},
                   "--filter '(' is not a regular expression (RE2 syntax): missing ) or unexpected )");
}

}  // namespace

namespace {

// A disk that fills during `history add` (here: a file size limit, its signal
// ignored, so writes fail as on a full disk): one line, exit 2, and the
// database as it was.
TEST_F(HostileInput, AFullDiskDuringHistoryAddIsOneLineAndLosesNothing) {
  const std::string db = path("history.db");
  ASSERT_EQ(run(kAllocgate + " history --db " + db + " add --commit c0 --date d " + report_).code, 0);
  std::string cases;
  for (int i = 0; i < 3000; ++i) {
    cases += std::string(i ? "," : "") + R"({"name": "w/v/)" + std::to_string(i) + R"(", "allocs_per_op": 1})";
  }
  const std::string big = write("big.json", R"({"context": {"allocgate_schema_version": 1, "allocgate_toolchain": "tc"},
    "benchmarks": [)" + cases + "]}");
  const Result full = run("bash -c 'trap \"\" XFSZ; ulimit -f 64; exec " + kAllocgate + " history --db " + db +
                          " add --commit c1 --date d " + big + "'");
  EXPECT_EQ(full.code, 2) << full.output;
  EXPECT_NE(full.output.find(": cannot write: "), std::string::npos) << full.output;
  EXPECT_NE(full.output.find("nothing of this run was recorded"), std::string::npos) << full.output;
  EXPECT_EQ(full.output.find('\n'), full.output.size() - 1) << full.output;
  const Result show = run(kAllocgate + " history --db " + db + " show");
  EXPECT_EQ(show.code, 0) << show.output;
  EXPECT_NE(show.output.find("c0"), std::string::npos) << show.output;
  EXPECT_EQ(show.output.find("c1"), std::string::npos) << show.output;
}

}  // namespace

namespace {

// --out onto what is not a file: /dev/null or a pipe is written into, never
// renamed over (as root, renaming over /dev/null would replace the system's);
// a directory or a block device is refused with one line.
TEST_F(HostileInput, OutputOntoADeviceOrAPipeWritesIntoItAndNeverReplacesIt) {
  const std::string fifo = path("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const Result piped = run("cat " + fifo + " > " + path("read.txt") + " & " + kAllocgate + " table --out " + fifo +
                           " " + report_ + "; wait");
  EXPECT_EQ(piped.code, 0) << piped.output;
  EXPECT_TRUE(fs::is_fifo(fifo));
  std::ifstream read(path("read.txt"));
  const std::string text((std::istreambuf_iterator<char>(read)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("| v | - | - | 2 |"), std::string::npos) << text;

  if (::geteuid() == 0) {  // a character device of one's own, like /dev/null (1, 3)
    const std::string null = path("null");
    ASSERT_EQ(::mknod(null.c_str(), S_IFCHR | 0666, ::makedev(1, 3)), 0);
    EXPECT_EQ(run(kAllocgate + " table --html --out " + null + " " + report_).code, 0);
    EXPECT_TRUE(fs::is_character_file(null));
    // A block device no disk answers to: refused before it is opened.
    const std::string block = path("block");
    ASSERT_EQ(::mknod(block.c_str(), S_IFBLK | 0600, ::makedev(259, 999)), 0);
    expect_bad_input({"table --out " + block + " " + report_}, ": is a block device, which allocgate does not write");
    EXPECT_TRUE(fs::is_block_file(block));
  }
  fs::create_directory(path("a-directory"));
  expect_bad_input({"table --out " + path("a-directory") + " " + report_}, "a-directory: is a directory");
}

}  // namespace

namespace {

// Inputs that are not a JSON file: a directory, an input that never ends,
// one too large. One line each, exit 2, and memory bounded.
TEST_F(HostileInput, ADirectoryOrAnEndlessInputIsOneLineNotAnInternalError) {
  fs::create_directory(path("a-directory"));
  expect_bad_input(readers_of(path("a-directory")), "a-directory: is a directory, not a JSON file");
  expect_bad_input({"diff --bounds " + path("a-directory") + " " + report_,
                    "merge " + report_ + " " + path("a-directory") + " --out -"},
                   "a-directory: is a directory, not a JSON file");
  // /dev/zero reads forever: a report or bounds file is refused at its first
  // byte, a NUL, read with memory bounded (3 GiB of address space; not under
  // AddressSanitizer, whose shadow memory alone needs more).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  const std::string limit;
#else
  const std::string limit = "ulimit -v 3145728; ";
#endif
  for (const std::string& command : {std::string("table /dev/zero"), "diff --bounds /dev/zero " + report_}) {
    const Result endless = run("bash -c '" + limit + "exec " + kAllocgate + " " + command + "'");
    EXPECT_EQ(endless.code, 2) << endless.output.substr(0, 300);
    EXPECT_NE(endless.output.find("/dev/zero: malformed JSON at byte 1 (a NUL byte)"), std::string::npos)
        << endless.output.substr(0, 300);
  }
}

// RFC 8259 lets a reader ignore a byte order mark; editors on some systems
// write one.
TEST_F(HostileInput, AByteOrderMarkIsIgnored) {
  const std::string marked = write("marked.json", "\xEF\xBB\xBF" + report(""));
  const Result gate = run(kAllocgate + " diff --bounds " + bounds_ + " " + marked);
  EXPECT_EQ(gate.code, 0) << gate.output;
  const std::string marked_bounds = write("marked-bounds.json", "\xEF\xBB\xBF" + kBounds);
  EXPECT_EQ(run(kAllocgate + " diff --bounds " + marked_bounds + " " + report_).code, 0);
}

}  // namespace

namespace {

// A report in allocgate's shape that is shard `shard` of a run of `commit`.
std::string shard_report(const std::string& shard, const std::string& commit, const std::string& name) {
  return R"({"context": {"allocgate_schema_version": 1, "allocgate_toolchain": "tc", "allocgate_shard": ")" + shard +
         R"(", "git_commit": ")" + commit + R"(", "executable": "/bin/allocgate"}, "benchmarks": [{"name": ")" + name +
         R"(", "allocs_per_op": 1}]})";
}

// The command line: usage errors in one line, counts that cannot be, shards
// that are not one run's, and a parent's options after its subcommand.
TEST_F(HostileInput, ArgumentsThatCannotBeMeantAreOneLineAndExit2) {
  expect_bad_input({"history --db " + path("h.db") + " show --last -1",
                    "history --db " + path("h.db") + " show --last 99999999999999999999999"},
                   "--last: Value");
  expect_bad_input({"run --no-timing --shard ''"}, "--shard '' is not I/N");
  expect_bad_input({"diff --no-such-flag " + report_},
                   "unknown option '--no-such-flag' for allocgate diff (see allocgate diff --help)");
  expect_bad_input({"no-such-command"}, "unknown subcommand 'no-such-command' for allocgate (see allocgate --help)");
  // A shard count read from a file is checked before anything its size is made.
  const std::string huge = write("huge.json", shard_report("1/2147483647", "c1", "a/x/1"));
  const std::string huge2 = write("huge2.json", shard_report("2/2147483647", "c1", "b/x/1"));
  expect_bad_input({"merge " + huge + " " + huge2 + " --out -"}, "shard 3/2147483647 is missing");
  const std::string one = write("one.json", shard_report("1/2", "c1", "a/x/1"));
  const std::string other = write("other.json", shard_report("2/2", "c2", "b/x/1"));
  expect_bad_input({"merge " + one + " " + other + " --out -"}, "other.json has git_commit c2, ");
  const std::string two = write("two.json", shard_report("2/2", "c1", "b/x/1"));
  EXPECT_EQ(run(kAllocgate + " merge " + one + " " + two + " --out " + path("merged.json")).code, 0);

  // `history add --db FILE`, as git's and cargo's users type it.
  const Result added = run(kAllocgate + " history add --db " + path("h.db") + " --commit c1 --date d " + report_);
  EXPECT_EQ(added.code, 0) << added.output;
  EXPECT_TRUE(fs::exists(path("h.db")));
}

// Output that cannot be written is an error, as coreutils make it: a gate
// whose table was lost is not a pass.
TEST_F(HostileInput, AFullStandardOutputIsExit4) {
  ASSERT_EQ(run(kAllocgate + " history --db " + path("h.db") + " add --commit c1 --date d " + report_).code, 0);
  for (const std::string& args : {std::string("list"), "table " + report_, "diff --bounds " + bounds_ + " " + report_,
                                  "compare " + report_ + " " + report_, "history --db " + path("h.db") + " show",
                                  "merge " + report_ + " --out -"}) {
    const Result full = run("(" + kAllocgate + " " + args + " > /dev/full)");  // stderr still to the test
    EXPECT_EQ(full.code, 4) << args << "\n" << full.output;
    EXPECT_NE(full.output.find("allocgate: cannot write to standard output: No space left on device"),
              std::string::npos)
        << args << "\n"
        << full.output;
  }
}

}  // namespace

namespace {

using allocgate::reports::testing::Result;
using allocgate::reports::testing::run;

class JunitOfHostileNames : public allocgate::reports::testing::ScratchDirTest {};

// XML 1.0 allows neither U+FFFE nor U+FFFF anywhere in a document: a case
// name, the toolchain or an error message holding one must still give a
// report that parses.
TEST_F(JunitOfHostileNames, NoncharactersStillGiveWellFormedXml) {
  const std::string nonchars = "\xef\xbf\xbe|\xef\xbf\xbf";  // U+FFFE, U+FFFF as UTF-8
  const std::string file = write("r.json", R"({"context": {"allocgate_toolchain": "tc)" + nonchars + R"("},
    "benchmarks": [{"name": "a)" + nonchars + R"(", "run_type": "iteration", "iterations": 1, "real_time": 1,
      "cpu_time": 1, "time_unit": "ns", "allocs/op": 2},
    {"name": "b", "run_type": "iteration", "error_occurred": true, "error_message": "failed )" +
                                               nonchars + R"("}]})");
  const std::string bounds =
      write("b.json", R"({"allocgate_bounds_version": 1, "toolchains": {"tc)" + nonchars + R"(": {"a)" + nonchars +
                          R"(": {"allocs_per_op": 1}, "b": {"allocs_per_op": 1}}}})");
  const std::string junit = path("junit.xml");
  const Result r = run(std::string(ALLOCGATE_BIN) + " diff --bounds " + bounds + " --junit " + junit + " " + file);
  EXPECT_EQ(r.code, 1) << r.output;
  xmlDocPtr doc = xmlReadFile(junit.c_str(), nullptr, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  EXPECT_NE(doc, nullptr) << "not well-formed XML";
  if (doc != nullptr) xmlFreeDoc(doc);
  std::ifstream in(junit);
  const std::string xml((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(xml.find(R"(a\ufffe|\uffff)"), std::string::npos) << xml;
  EXPECT_NE(xml.find(R"(failed \ufffe|\uffff)"), std::string::npos) << xml;
}

}  // namespace
