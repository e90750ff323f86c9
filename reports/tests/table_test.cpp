// SPDX-License-Identifier: Apache-2.0
#include "table.h"
#include "text_table.h"

#include "page_text.h"

#include <gtest/gtest.h>

#include <regex>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

namespace {

using namespace allocgate::reports;

const std::string kFixtures = ALLOCGATE_FIXTURES;

TEST(Table, MarkdownHasTheCaseStudyTableAndTheScaling) {
  const Report r = read_report(kFixtures + "/report.json");
  std::ostringstream out;
  print_markdown_tables(out, r);
  const std::string md = out.str();
  EXPECT_NE(md.find("### log_report: "), std::string::npos) << md;
  EXPECT_NE(md.find("(2000 per op)"), std::string::npos);  // the case study's size
  EXPECT_NE(md.find("| variant | ns/op | B/op | allocs/op | speedup | output |"), std::string::npos);
  EXPECT_TRUE(std::regex_search(md, std::regex(R"(\| v1 \| \d+ \| 992596 \| 9646 \| 1\.00x \| reference \|)"))) << md;
  EXPECT_TRUE(std::regex_search(md, std::regex(R"(\| v4 \| \d+ \| 0 \| 0 \| \d+\.\d\dx \| equal \|)"))) << md;
  EXPECT_NE(md.find("| variant | 200 | 2000 |"), std::string::npos);
  EXPECT_NE(md.find("| v1 | 1096 | 9646 |"), std::string::npos);
  EXPECT_NE(md.find("| v4 | 0 | 0 |"), std::string::npos);
}

// A test binary's report is a table of its tests, untimed, with what each
// leaked and whether it failed: not of benchmarks.
TEST(Table, ATestReportIsATableOfTests) {
  const auto run = [](const char* name, int allocs, int leaked, bool failed) {
    nlohmann::json entry = {
        {"name", name},        {"run_name", name},       {"run_type", "iteration"},  {"iterations", 1},
        {"allocs/op", allocs}, {"bytes/op", 8 * allocs}, {"leaked_bytes/op", leaked}};
    if (failed) entry["allocgate_test_failed"] = true;
    return entry;
  };
  const Report r = report_from_json(nlohmann::json{{"context", {{"allocgate_tests", "doctest"}}},
                                                   {"benchmarks", {run("a", 2, 0, false), run("b", 1, 4, true)}}},
                                    "tests.json");
  std::ostringstream out;
  print_markdown_tables(out, r);
  EXPECT_EQ(out.str(),
            "| test | allocs | bytes | peak bytes | leaked bytes | failed |\n"
            "|---|---:|---:|---:|---:|---|\n"
            "| `a` | 2 | 16 | - | 0 |  |\n"
            "| `b` | 1 | 8 | - | 4 | yes |\n");
}

// 2,000 variants, each at a size of its own: a row per case, not a table of
// 2,000 x 2,000 cells that are nearly all "-". The output grows with the
// cases, and still gives each one's figure.
TEST(Table, ASparseScalingTableIsARowPerCase) {
  nlohmann::json benchmarks = nlohmann::json::array();
  constexpr int kCases = 2000;
  for (int i = 0; i < kCases; ++i) {
    // Appended: "v" + std::to_string(i) makes g++ 12 warn falsely (-Wrestrict).
    std::string variant = "v";
    variant += std::to_string(i);
    std::string name = "w/";
    name.append(variant).append("/").append(std::to_string(i + 1));
    benchmarks.push_back({{"name", name},
                          {"workload", "w"},
                          {"variant", variant},
                          {"size", i + 1},
                          {"allocs_per_op", i},
                          {"bytes_per_op", 8 * i}});
  }
  const Report r = report_from_json(
      nlohmann::json{{"context", {{"allocgate_schema_version", 1}}}, {"benchmarks", benchmarks}}, "sparse.json");
  std::ostringstream out;
  print_markdown_tables(out, r);
  const std::string md = out.str();
  EXPECT_NE(md.find("| variant | size | allocs/op |"), std::string::npos) << md.substr(0, 2000);
  EXPECT_NE(md.find("| v1234 | 1235 | 1234 |"), std::string::npos);
  EXPECT_LT(md.size(), 60u * kCases) << "the table grew faster than the cases";
  // A dense workload keeps its matrix (the fixture's: every variant at every size).
  std::ostringstream dense;
  print_markdown_tables(dense, read_report(kFixtures + "/report.json"));
  EXPECT_NE(dense.str().find("| variant | 200 | 2000 |"), std::string::npos);
}

using page_text::body_of;
using page_text::page_data;

// A user's benchmarks on the page: a table row per benchmark and its sites,
// not the markdown text in a <pre> with its newlines escaped; a ->Range
// family charted against its argument, each point's tooltip the table's text.
TEST(Table, AUsersBenchmarksAreAnHtmlTableWithTheirSites) {
  nlohmann::json benchmarks = nlohmann::json::array();
  for (const int n : {512, 8, 4096, 64}) {  // the order a user's JSON may have
    benchmarks.push_back({{"name", "BM_Copy/" + std::to_string(n)},
                          {"allocs_per_op", n == 8 ? 0 : 2},
                          {"bytes_per_op", 2 * n},
                          {"real_time", 25},
                          {"sites",
                           {{{"function", "copy"},
                             {"file", "bench.cpp"},
                             {"line", 7},
                             {"allocs_per_op", 2},
                             {"bytes_per_op", 2 * n}}}}});
  }
  const Report r = report_from_json(
      nlohmann::json{{"context", {{"allocgate_schema_version", 1}}}, {"benchmarks", benchmarks}}, "bench.json");
  std::ostringstream out;
  print_html(out, r);
  const std::string html = out.str();
  const std::string body = body_of(html);
  EXPECT_EQ(body.find("<pre>"), std::string::npos) << body;
  EXPECT_EQ(body.find("\\n"), std::string::npos) << body;
  EXPECT_NE(body.find("<tr><td>BM_Copy/64</td><td class=\"n\">25.0</td><td class=\"n\">128</td><td class=\"n\">2</td>"),
            std::string::npos)
      << body;
  EXPECT_LT(body.find("<td>BM_Copy/512<"), body.find("<td>BM_Copy/4096<"));  // Google Benchmark's order
  EXPECT_NE(body.find("copy (bench.cpp:7)"), std::string::npos) << body;

  const nlohmann::json data = page_data(html);
  ASSERT_EQ(data["charts"].size(), 3u) << data.dump(1);  // allocs/op, bytes/op, time/op
  for (const auto& chart : data["charts"]) {
    EXPECT_NE(body.find("id=\"" + chart["id"].get<std::string>() + "\""), std::string::npos);
    EXPECT_EQ(chart["x_title"], "argument");
    EXPECT_TRUE(chart["x_log"]);  // 8 to 4096
  }
  const nlohmann::json& allocs = data["charts"][0];
  EXPECT_EQ(allocs["title"], "allocs/op");
  EXPECT_FALSE(allocs["y_log"]);  // a 0 among the figures: a linear axis that draws it
  ASSERT_EQ(allocs["series"].size(), 1u);
  EXPECT_EQ(allocs["series"][0]["name"], "BM_Copy/x");
  EXPECT_EQ(allocs["series"][0]["points"],
            nlohmann::json::parse(R"([{"x": 8, "y": 0, "text": "0"}, {"x": 64, "y": 2, "text": "2"},
              {"x": 512, "y": 2, "text": "2"}, {"x": 4096, "y": 2, "text": "2"}])"));
  EXPECT_EQ(data["charts"][1]["series"][0]["points"][3]["text"], "8192");
  EXPECT_EQ(data["charts"][2]["series"][0]["points"][0]["text"], "25.0");  // as the table prints it
}

// A Catch2 or doctest report names each run by its path: a test case's runs
// make its section, whatever its name holds (a dot, which splits a
// GoogleTest name into suite and test).
TEST(Table, ACatch2OrDoctestReportHasASectionPerTestCase) {
  nlohmann::json benchmarks = nlohmann::json::array();
  for (const char* name : {"vectors grow/push_back", "vectors grow/reserve first", "version 1.2 parses"}) {
    benchmarks.push_back({{"name", name}, {"allocs/op", 1}, {"bytes/op", 8}, {"iterations", 1}});
  }
  const Report r = report_from_json(
      nlohmann::json{{"context", {{"allocgate_tests", "doctest"}}}, {"benchmarks", benchmarks}}, "tests.json");
  std::ostringstream out;
  print_html(out, r);
  const std::string body = page_text::body_of(out.str());
  EXPECT_NE(body.find("3 runs of 2 test cases"), std::string::npos) << body;
  EXPECT_NE(body.find("<h2 id=\"suite-vectors grow\">vectors grow</h2>"), std::string::npos) << body;
  EXPECT_NE(body.find("<h2 id=\"suite-version 1.2 parses\">version 1.2 parses</h2>"), std::string::npos) << body;
  EXPECT_NE(body.find("<a href=\"#suite-vectors grow\">vectors grow/push_back</a>"), std::string::npos) << body;
}

// A test report's page draws the suite at a glance: a graph of the run, its
// suites and their tests, each as wide as it allocates, a leaking one
// marked; a suite's tests past the graph's share are one node.
TEST(Table, ATestReportsPageDrawsTheSuiteAtAGlance) {
  nlohmann::json benchmarks = nlohmann::json::array();
  const auto add = [&](const std::string& name, int allocs, int leaked) {
    benchmarks.push_back({{"name", name},
                          {"allocs/op", allocs},
                          {"bytes/op", 8 * allocs},
                          {"leaked_bytes/op", leaked},
                          {"iterations", 1}});
  };
  add("Parse.Short", 3, 0);
  add("Parse.Long", 7, 16);
  for (int i = 0; i < 2100; ++i) add("Many.Test" + std::to_string(i), 1, 0);
  const Report r = report_from_json(
      nlohmann::json{{"context", {{"allocgate_tests", "googletest"}}}, {"benchmarks", benchmarks}}, "tests.json");
  std::ostringstream out;
  print_html(out, r);
  const std::string html = out.str();
  EXPECT_NE(page_text::body_of(html).find("<h2>The suite at a glance</h2>"), std::string::npos);
  const nlohmann::json data = page_data(html);
  ASSERT_FALSE(data["flames"].empty());
  const nlohmann::json& glance = data["flames"][0];
  EXPECT_EQ(glance["figures"], nlohmann::json({"allocs/op", "B/op", "leaked B"}));
  const nlohmann::json& run = glance["tree"];
  EXPECT_EQ(run["name"], "all 2102 tests");
  EXPECT_EQ(run["figures"], nlohmann::json({2110, 8 * 2110, 16}));
  EXPECT_FALSE(run["leaked"]);  // what leaks is red in it, not the whole run
  ASSERT_EQ(run["children"].size(), 2u);
  const nlohmann::json& parse = run["children"][0];  // the suite with a leaking test first
  EXPECT_EQ(parse["name"], "Parse");
  EXPECT_EQ(parse["figures"], nlohmann::json({10, 80, 16}));
  ASSERT_EQ(parse["children"].size(), 2u);
  EXPECT_EQ(parse["children"][0]["name"], "Long");
  EXPECT_EQ(parse["children"][0]["location"], "Parse.Long");
  EXPECT_TRUE(parse["children"][0]["leaked"]);
  EXPECT_FALSE(parse["children"][1]["leaked"]);
  // 2,000 tests' nodes shared by 2 suites: Many's first 1,000, then one for
  // the other 1,100, as wide as they are together.
  const nlohmann::json& many = run["children"][1]["children"];
  ASSERT_EQ(many.size(), 1001u);
  EXPECT_EQ(many[1000]["name"], "and 1100 more");
  EXPECT_EQ(many[1000]["figures"][0], 1100);
}

// Past 200 suites, the graph draws the first 200 in the page's order
// (leaking first, then by their heaviest test) and the rest as one node.
TEST(Table, TheSuiteAtAGlanceDrawsTwoHundredSuitesAndTheRestAsOne) {
  nlohmann::json benchmarks = nlohmann::json::array();
  for (int i = 0; i < 250; ++i) {
    std::string name = "S";  // built by appends: GCC 12 warns of operator+'s (-Wrestrict, a false alarm)
    name += std::to_string(i);
    name += ".T";
    benchmarks.push_back({{"name", name},
                          {"allocs/op", 1000 - i},
                          {"bytes/op", 1},
                          {"leaked_bytes/op", i == 240 ? 8 : 0},
                          {"iterations", 1}});
  }
  const Report r = report_from_json(
      nlohmann::json{{"context", {{"allocgate_tests", "googletest"}}}, {"benchmarks", benchmarks}}, "tests.json");
  std::ostringstream out;
  print_html(out, r);
  const nlohmann::json data = page_data(out.str());
  const nlohmann::json& suites = data["flames"][0]["tree"]["children"];
  ASSERT_EQ(suites.size(), 201u);
  EXPECT_EQ(suites[0]["name"], "S240");  // the leaking one
  EXPECT_EQ(suites[1]["name"], "S0");
  EXPECT_EQ(suites[199]["name"], "S198");
  EXPECT_EQ(suites[200]["name"], "and 50 more");
  double rest = 0;
  for (int i = 199; i < 250; ++i) rest += i == 240 ? 0 : 1000 - i;
  EXPECT_EQ(suites[200]["figures"][0], rest);
  EXPECT_FALSE(suites[200]["leaked"]);
}

TEST(Table, ADifferingOutputIsFlagged) {
  Report r = read_report(kFixtures + "/report.json");
  const std::size_t v4 = *CaseIndex(r).index_of("log_report/v4/2000");
  CaseResult c = r.cases[v4];
  c.equal_to_reference = false;
  r.cases.set(v4, c);
  std::ostringstream out;
  print_markdown_tables(out, r);
  EXPECT_NE(out.str().find("| DIFFERS |"), std::string::npos);
}

TEST(Table, HtmlIsOneSelfContainedPageWithTheCharts) {
  const Report r = read_report(kFixtures + "/report.json");
  std::ostringstream out;
  print_html(out, r);
  const std::string html = out.str();
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  // Nothing fetched: every script and style inlined.
  EXPECT_EQ(html.find("<script src"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_NE(html.find("Chart.js v3.9.1"), std::string::npos);  // the library, pinned by Debian
  EXPECT_NE(html.find("d3-flame-graph"), std::string::npos);
  const nlohmann::json data = page_data(html);
  // log_report has three sizes: allocs/op, bytes/op and time against size,
  // a line per variant; row_parse one: a bar per variant of each.
  ASSERT_EQ(data["charts"].size(), 6u) << data.dump(1);
  EXPECT_EQ(data["charts"][0]["x_title"], "input size");
  EXPECT_EQ(data["charts"][0]["series"].size(), 2u);
  EXPECT_EQ(data["charts"][3]["type"], "bar");
  // The time's series carries its fastest and slowest repetitions as a band.
  EXPECT_TRUE(data["charts"][2]["series"][0].contains("low"));
  // A flame graph per variant with stacks at the table's size; the first
  // is log_report/v1/2000's, its frames the workload's own, no runner's.
  ASSERT_FALSE(data["flames"].empty());
  const nlohmann::json& tree = data["flames"][0]["tree"];
  EXPECT_EQ(tree["name"], "log_report/v1/2000");
  EXPECT_NE(html.find("<details class=\"flame-case\" open><summary>log_report/v1/2000: allocation stacks"),
            std::string::npos);
  bool split = false;
  std::vector<const nlohmann::json*> nodes{&tree};
  while (!nodes.empty()) {
    const nlohmann::json& n = *nodes.back();
    nodes.pop_back();
    EXPECT_NE(n["name"], "main");
    split = split || n["name"] == "allocgate::workloads::log_report::(anonymous namespace)::split";
    // A frame is as wide as what its children allocate, at least.
    double children = 0;
    if (!n.contains("children")) continue;
    for (const auto& c : n["children"]) {
      children += c["figures"][0].get<double>();
      nodes.push_back(&c);
    }
    EXPECT_GE(n["figures"][0].get<double>() + 1e-9, children) << n["name"];
  }
  EXPECT_TRUE(split);
}

TEST(Table, AGoogleBenchmarkReportGetsOnePlainTable) {
  const Report r = read_report(kFixtures + "/google-benchmark.json");
  std::ostringstream out;
  print_markdown_tables(out, r);
  EXPECT_NE(out.str().find("| `row_parse/naive/100` |"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("| 346 |"), std::string::npos);
}

}  // namespace

namespace {

using allocgate::reports::TextTable;

// One printer behind every text and markdown table: the same rows, aligned
// for a terminal or as a pipe table with each column's alignment.
TEST(TextTable, PrintsTheSameRowsAsTextOrMarkdown) {
  TextTable table({{"case", TextTable::Align::left}, {"allocs/op", TextTable::Align::right}});
  table.add_row({"a/long/name", "3"});
  table.add_row({"b", "1234"});
  std::ostringstream text, markdown;
  table.print(text, false);
  table.print(markdown, true);
  EXPECT_EQ(text.str(),
            "case         allocs/op\n"
            "a/long/name          3\n"
            "b                 1234\n");
  EXPECT_EQ(markdown.str(),
            "| case | allocs/op |\n"
            "|---|---:|\n"
            "| a/long/name | 3 |\n"
            "| b | 1234 |\n");
}

}  // namespace

// A swept suite's page says how its sweep went and lists each finding with
// its line, those on purpose apart; names and lines escaped.
TEST(Table, ASweptSuitesPageListsEachFindingAtItsLine) {
  const auto swept = [](const std::string& name, const nlohmann::json& findings, bool nondeterministic) {
    return nlohmann::json{
        {"name", name},
        {"allocs/op", 3},
        {"iterations", 1},
        {"allocgate_sweep",
         {{"attempts", 3}, {"tried", 3}, {"nondeterministic", nondeterministic}, {"findings", findings}}}};
  };
  const nlohmann::json leak = {
      {"point", 2}, {"outcome", "leaked"}, {"line", "f<int> (a.cpp:32)"}, {"detail", "73 bytes in 2 blocks"}};
  nlohmann::json by_design = leak;
  by_design["outcome"] = "swallowed";
  by_design["on_purpose"] = true;
  const Report r = report_from_json(nlohmann::json{{"context", {{"allocgate_tests", "googletest"}}},
                                                   {"benchmarks",
                                                    {swept("W.Leaks", nlohmann::json::array({leak}), false),
                                                     swept("W.Cache", nlohmann::json::array({by_design}), false),
                                                     swept("W.Clean", nlohmann::json::array(), false),
                                                     swept("W.Clock", nlohmann::json::array(), true),
                                                     {{"name", "W.Unswept"}, {"allocs/op", 1}, {"iterations", 1}}}}},
                                    "tests.json");
  std::ostringstream out;
  print_html(out, r);
  const std::string body = page_text::body_of(out.str());
  EXPECT_NE(body.find("<h2>The failure sweep</h2>"), std::string::npos) << body;
  EXPECT_NE(body.find("4 tests swept under allocation failure, 12 failure points tried: 2 clean, 1 with findings, 1 "
                      "not trusted"),
            std::string::npos)
      << body;
  const std::size_t leak_row =
      body.find("<tr class=\"leaked\"><td>W.Leaks</td><td>leaked</td><td>f&lt;int&gt; (a.cpp:32)</td>");
  const std::size_t cache_row = body.find("<tr><td>W.Cache</td><td>swallowed (on purpose)</td>");
  EXPECT_NE(leak_row, std::string::npos) << body;
  EXPECT_NE(cache_row, std::string::npos) << body;
  EXPECT_LT(leak_row, cache_row);

  // Unswept, no section.
  const Report plain =
      report_from_json(nlohmann::json{{"context", {{"allocgate_tests", "googletest"}}},
                                      {"benchmarks", {{{"name", "W.Unswept"}, {"allocs/op", 1}, {"iterations", 1}}}}},
                       "tests.json");
  std::ostringstream unswept;
  print_html(unswept, plain);
  EXPECT_EQ(unswept.str().find("The failure sweep"), std::string::npos);
}
