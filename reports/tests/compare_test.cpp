// SPDX-License-Identifier: Apache-2.0
#include "compare.h"

#include "input_error.h"
#include "occurrences.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

namespace {

using namespace allocgate::reports;
using nlohmann::json;

json entry(const std::string& name, double allocs, double bytes, double median, double lo, double hi) {
  return {{"name", name},        {"allocs_per_op", allocs}, {"bytes_per_op", bytes},
          {"real_time", median}, {"ns_per_op_min", lo},     {"ns_per_op_max", hi}};
}

Report report_of(const json& benchmarks) {
  return report_from_json(json{{"context", {{"allocgate_schema_version", 1}}}, {"benchmarks", benchmarks}}, "r.json");
}

TEST(Compare, ChangedCasesComeFirstWithExactDeltasAndTheTimeSpread) {
  const Report base =
      report_of(json::array({entry("a/same/1", 5, 100, 100, 95, 105), entry("a/fewer/1", 1000, 9000, 200, 190, 210),
                             entry("a/slower/1", 0, 0, 100, 99, 101), entry("a/more/1", 2, 64, 50, 49, 51),
                             entry("a/gone/1", 0, 0, 10, 10, 10)}));
  const Report head =
      report_of(json::array({entry("a/same/1", 5, 100, 101, 96, 104), entry("a/fewer/1", 16, 512, 100, 98, 102),
                             entry("a/slower/1", 0, 0, 200, 198, 202), entry("a/more/1", 3, 96, 50, 49, 51),
                             entry("a/new/1", 0, 0, 10, 10, 10)}));
  const auto rows = compare_reports(base, head);
  std::vector<std::string> order;
  for (const auto& r : rows) order.push_back(r.name);
  EXPECT_EQ(order,
            (std::vector<std::string>{"a/fewer/1", "a/more/1", "a/slower/1", "a/same/1", "a/gone/1", "a/new/1"}));
  EXPECT_DOUBLE_EQ(*rows[0].time_ratio, 0.5);
  EXPECT_DOUBLE_EQ(*rows[0].ratio_low, 98.0 / 210);
  EXPECT_DOUBLE_EQ(*rows[0].ratio_high, 102.0 / 190);
  EXPECT_TRUE(rows[2].time_changed());
  EXPECT_FALSE(rows[3].time_changed());  // 101 vs 100 within the spread

  std::ostringstream text;
  print_comparison(text, rows, false);
  EXPECT_NE(text.str().find("1000 -> 16 (-984)"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("9000 -> 512 (-8488)"), std::string::npos) << text.str();
  // Both sides' times with their spread, and the change: the ranges do not overlap.
  EXPECT_NE(text.str().find("   200 ns \u00b1 5%   100 ns \u00b1 2%        -50.0%  allocations changed"),
            std::string::npos)
      << text.str();
  // 101 against 100, within both spreads: noise may explain it.
  EXPECT_NE(text.str().find("   100 ns \u00b1 5%   101 ns \u00b1 5%       ~ +1.0%\n"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("only in base"), std::string::npos);
  std::ostringstream markdown;
  print_comparison(markdown, rows, true);
  EXPECT_NE(markdown.str().find("| `a/more/1` | 2 -> 3 (+1) | 64 -> 96 (+32) | 50.0 ns \u00b1 2% | 50.0 ns \u00b1 2% | "
                                "~ +0.0% | allocations changed |"),
            std::string::npos)
      << markdown.str();
  EXPECT_NE(markdown.str().find("| `a/same/1` | 5 -> 5 | 100 -> 100 |"), std::string::npos) << markdown.str();
}

TEST(Compare, NamesTheSitesWhoseAllocationsChanged) {
  json base_entry = entry("x/optimized/10", 0, 0, 100, 99, 101);
  json head_entry = entry("x/optimized/10", 10, 300, 120, 119, 121);
  head_entry["sites"] = json::array({{{"function", "render"},
                                      {"file", "x.cpp"},
                                      {"line", 42},
                                      {"allocs_per_op", 10},
                                      {"bytes_per_op", 300},
                                      {"temporary_per_op", 4}}});
  const auto rows = compare_reports(report_of(json::array({base_entry})), report_of(json::array({head_entry})));
  ASSERT_EQ(rows.size(), 1u);
  const auto changes = site_changes(rows[0]);
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(to_string(changes[0].where), "render (x.cpp:42)");
  EXPECT_EQ(changes[0].change, 10);
  std::ostringstream text;
  print_comparison(text, rows, false);
  EXPECT_EQ(text.str().rfind("+10 allocs/op (4 temporary) at render (x.cpp:42) in x/optimized/10\n\n", 0), 0u)
      << text.str();
}

// Template instances of one line are one finding, as the gate says them, and
// the line keeps its fix hint.
TEST(Compare, InstancesOfOneLineAreOneFindingWithItsHint) {
  json base = json::array(), head = json::array();
  for (const std::string name : {"BM_Decode/1", "BM_Decode/2"}) {
    base.push_back(entry(name, 0, 0, 100, 99, 101));
    json h = entry(name, 3, 96, 100, 99, 101);
    h["sites"] = json::array();
    for (const std::string instance : {"Decode<A>", "Decode<B>", "Decode<C>"}) {
      h["sites"].push_back({{"function", "lib::" + instance},
                            {"file", "lib.cc"},
                            {"line", 1800},
                            {"allocs_per_op", 1},
                            {"bytes_per_op", 32},
                            {"hint", "reserve the buffer once"}});
    }
    head.push_back(h);
  }
  const auto rows = compare_reports(report_of(base), report_of(head));
  ASSERT_EQ(site_changes(rows[0]).size(), 1u);
  EXPECT_EQ(site_changes(rows[0])[0].change, 3);
  std::ostringstream text;
  print_comparison(text, rows, false);
  EXPECT_EQ(text.str().rfind("+3 allocs/op at lib::Decode<A> (lib.cc:1800) and 2 other instances of its line in 2 "
                             "benchmarks: BM_Decode/1, BM_Decode/2\n"
                             "  hint: reserve the buffer once\n\n",
                             0),
            0u)
      << text.str();
  EXPECT_EQ(allocgate::reports::test::occurrences(text.str(), "lib.cc:1800"), 1u) << text.str();
}

// One finding per line of code: a site that changed 7 cases is one line,
// with the cases, ahead of the table; a site of one case is a line of its own.
TEST(Compare, SaysASiteOnceWithTheCasesItReaches) {
  json base = json::array(), head = json::array();
  for (int i = 0; i < 7; ++i) {
    const std::string name = "BM_Lookup/" + std::to_string(i);
    base.push_back(entry(name, 0, 0, 100, 99, 101));
    json h = entry(name, 1 + (i == 6), 32, 100, 99, 101);
    h["sites"] = json::array({{{"function", "lookup"},
                               {"file", "src/x.cpp"},
                               {"line", 1800},
                               {"allocs_per_op", 1 + (i == 6)},
                               {"bytes_per_op", 32}}});
    head.push_back(h);
  }
  json other = entry("BM_Other", 5, 10, 100, 99, 101);
  other["sites"] = json::array(
      {{{"function", "other"}, {"file", "y.cpp"}, {"line", 3}, {"allocs_per_op", 5}, {"bytes_per_op", 10}}});
  base.push_back(entry("BM_Other", 0, 0, 100, 99, 101));
  head.push_back(other);
  std::ostringstream text;
  print_comparison(text, compare_reports(report_of(base), report_of(head)), false);
  // The cases in the table's order: the largest change first.
  EXPECT_EQ(text.str().rfind("+1 to +2 allocs/op at lookup (src/x.cpp:1800) in 7 benchmarks: BM_Lookup/6, BM_Lookup/0, "
                             "BM_Lookup/1, BM_Lookup/2, BM_Lookup/3 and 2 more\n"
                             "+5 allocs/op at other (y.cpp:3) in BM_Other\n\n",
                             0),
            0u)
      << text.str();
  EXPECT_EQ(allocgate::reports::test::occurrences(text.str(), "src/x.cpp:1800"), 1u) << text.str();
}

}  // namespace

namespace {

json timed(const std::string& name, const std::vector<double>& repetitions) {
  json e = entry(name, 0, 0, repetitions[repetitions.size() / 2], repetitions.front(), repetitions.back());
  e["ns_per_op_repetitions"] = repetitions;
  return e;
}

// Time changes that are real: Mann-Whitney U over the repetitions, "~" where
// noise may explain the change, the geometric mean over all cases, and a
// word when the repetitions are too few for any p below 0.05.
TEST(Compare, TimeChangesAreTestedOverTheRepetitions) {
  const Report base =
      report_of(json::array({timed("slower", {100, 101, 102, 103, 104}), timed("noise", {100, 110, 120, 130, 140}),
                             timed("same", {50, 51, 52, 53, 54})}));
  const Report head =
      report_of(json::array({timed("slower", {120, 121, 122, 123, 124}), timed("noise", {105, 115, 125, 135, 145}),
                             timed("same", {50, 51, 52, 53, 54})}));
  const auto rows = compare_reports(base, head);
  ASSERT_EQ(rows[0].name, "slower");  // the significant change first
  EXPECT_DOUBLE_EQ(*rows[0].time_p, 2.0 / 252);
  EXPECT_TRUE(rows[0].time_changed());
  const auto noise = std::find_if(rows.begin(), rows.end(), [](const CompareRow& r) { return r.name == "noise"; });
  ASSERT_NE(noise, rows.end());
  EXPECT_GT(*(*noise).time_p, 0.05);
  EXPECT_FALSE((*noise).time_changed());
  std::ostringstream text;
  print_comparison(text, rows, false);
  // 122 against 102, each spread over 2 around its median.
  EXPECT_NE(text.str().find("   102 ns \u00b1 2%   122 ns \u00b1 2%  +19.6% p=0.0079 n=5+5  slower"), std::string::npos)
      << text.str();
  EXPECT_NE(text.str().find("  120 ns \u00b1 17%  125 ns \u00b1 16%   ~ +4.2% p=0.69 n=5+5"), std::string::npos)
      << text.str();
  // (122/102 * 125/120 * 1) ^ (1/3)
  EXPECT_NE(text.str().find("time: geomean head/base 1.08x over 3 case(s); 1 changed (Mann-Whitney U, p < 0.05)"),
            std::string::npos)
      << text.str();
}

TEST(Compare, SaysWhenTheRepetitionsAreTooFewToTell) {
  const auto rows = compare_reports(report_of(json::array({timed("a", {100, 101, 102})})),
                                    report_of(json::array({timed("a", {200, 201, 202})})));
  EXPECT_TRUE(rows[0].too_few_repetitions);
  EXPECT_FALSE(rows[0].time_changed());  // p = 0.1 at best with 3 and 3
  std::ostringstream text;
  print_comparison(text, rows, false);
  EXPECT_NE(text.str().find("too few repetitions to tell a change from noise"), std::string::npos) << text.str();
}

TEST(Compare, TheRepetitionsRoundTripThroughTheReport) {
  const Report r = report_of(json::array({timed("a", {3, 1, 2})}));
  EXPECT_EQ(r.cases[0].ns_repetitions, (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(report_from_json(to_json(r), "again").cases[0].ns_repetitions, (std::vector<double>{1, 2, 3}));
  EXPECT_THROW(report_of(json::array({{{"name", "b"}, {"allocs_per_op", 0}, {"ns_per_op_repetitions", {1, -2}}}})),
               allocgate::files::InputError);
}

// A site's change is told only where both sides have sites (or allocate
// nothing): a base profiled without them changes no line.
TEST(Compare, TellsNoSiteChangeWhereASideHasNoSites) {
  json base_entry = entry("x/optimized/10", 10, 300, 100, 99, 101);  // allocates, no sites
  json head_entry = entry("x/optimized/10", 11, 332, 120, 119, 121);
  head_entry["sites"] = json::array(
      {{{"function", "render"}, {"file", "x.cpp"}, {"line", 42}, {"allocs_per_op", 11}, {"bytes_per_op", 332}}});
  const auto rows = compare_reports(report_of(json::array({base_entry})), report_of(json::array({head_entry})));
  EXPECT_TRUE(site_changes(rows[0]).empty());
  std::ostringstream text;
  print_comparison(text, rows, false);
  EXPECT_EQ(text.str().find("allocs/op at render"), std::string::npos) << text.str();
}

}  // namespace
