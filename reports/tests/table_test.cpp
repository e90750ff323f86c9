// SPDX-License-Identifier: Apache-2.0
#include "table.h"
#include "text_table.h"

#include <gtest/gtest.h>

#include <regex>
#include <sstream>

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

// A user's benchmarks on the page: a table row per benchmark and its sites,
// not the markdown text in a <pre> with its newlines escaped.
TEST(Table, AUsersBenchmarksAreAnHtmlTableWithTheirSites) {
  const nlohmann::json benchmarks = nlohmann::json::array(
      {{{"name", "BM_Copy/64"},
        {"allocs_per_op", 2},
        {"bytes_per_op", 128},
        {"real_time", 25},
        {"sites",
         {{{"function", "copy"}, {"file", "bench.cpp"}, {"line", 7}, {"allocs_per_op", 2}, {"bytes_per_op", 128}}}}}});
  const Report r = report_from_json(
      nlohmann::json{{"context", {{"allocgate_schema_version", 1}}}, {"benchmarks", benchmarks}}, "bench.json");
  std::ostringstream out;
  print_html(out, r);
  const std::string html = out.str();
  EXPECT_EQ(html.find("<pre>"), std::string::npos) << html;
  EXPECT_EQ(html.find("\\n"), std::string::npos) << html;
  EXPECT_NE(html.find("<tr><td>BM_Copy/64</td><td class=\"n\">25.0</td><td class=\"n\">128</td><td class=\"n\">2</td>"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("copy (bench.cpp:7)"), std::string::npos) << html;
}

TEST(Table, ADifferingOutputIsFlagged) {
  Report r = read_report(kFixtures + "/report.json");
  for (auto& c : r.cases) {
    if (c.name == "log_report/v4/2000") c.equal_to_reference = false;
  }
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
  EXPECT_EQ(html.find("http://", html.find("<body>")),
            html.find("http://www.w3.org/2000/svg"));  // no external resource
  EXPECT_EQ(html.find("<script"), std::string::npos);
  // Two workloads, each with an allocs/op chart, a time chart and a scaling chart.
  std::size_t charts = 0;
  for (std::size_t at = html.find("<svg class=\"chart "); at != std::string::npos;
       at = html.find("<svg class=\"chart ", at + 1)) {
    ++charts;
  }
  EXPECT_EQ(charts, 8u);  // and a flame graph per workload
  EXPECT_NE(html.find("<svg class=\"chart scaling\""), std::string::npos);
  EXPECT_NE(html.find("class=\"series\""), std::string::npos);
  // The reference variant's stacks as a flame graph, its top frame the split.
  EXPECT_NE(html.find("<svg class=\"chart flame\""), std::string::npos);
  EXPECT_NE(html.find("log_report/v1/2000: allocation stacks"), std::string::npos);
  EXPECT_NE(html.find("<title>allocgate::workloads::log_report::(anonymous namespace)::split: "), std::string::npos);
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
