// SPDX-License-Identifier: Apache-2.0
// Pages of reports too large to show whole (pages::Limits): each shows what
// a browser opens at once, cut where the limits say, and says on the page
// what it cut and how to see the rest. Whether the page then opens fast is
// measured in a browser (pages_browser_test.sh, page_browser_test.js --large).
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>

#include "compare.h"
#include "json_keys.h"
#include "page.h"
#include "page_text.h"
#include "table.h"

namespace {

using namespace allocgate::reports;
using page_text::body_of;
using page_text::page_data;
using pages::Limits;
namespace k = allocgate::reports::keys;

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

CaseResult case_of(const std::string& name, double allocs) {
  CaseResult c;
  c.name = name;
  c.allocs_per_op = allocs;
  c.bytes_per_op = allocs * 16;
  return c;
}

std::string html_of(const Report& r) {
  std::ostringstream out;
  print_html(out, r);
  return out.str();
}

TEST(Decimated, KeepsEveryPointUpToTheLimit) {
  const auto y = [](std::size_t i) { return static_cast<double>(i % 7); };
  const std::vector<std::size_t> all = pages::decimated(Limits::kPoints, y);
  ASSERT_EQ(all.size(), Limits::kPoints);
  for (std::size_t i = 0; i < all.size(); ++i) EXPECT_EQ(all[i], i);
}

// 100,000 points, a peak and a dip each on one point: both drawn, in order,
// within the limit.
TEST(Decimated, KeepsEachRunsLowestAndHighestBeyondIt) {
  constexpr std::size_t n = 100000, peak = 54321, dip = 7;
  const auto y = [&](std::size_t i) { return i == peak ? 1e9 : i == dip ? -1e9 : std::sin(i * 0.01); };
  const std::vector<std::size_t> kept = pages::decimated(n, y);
  EXPECT_LE(kept.size(), Limits::kPoints);
  EXPECT_GE(kept.size(), Limits::kPoints / 2);
  EXPECT_TRUE(std::is_sorted(kept.begin(), kept.end()));
  EXPECT_EQ(std::adjacent_find(kept.begin(), kept.end()), kept.end());
  EXPECT_NE(std::find(kept.begin(), kept.end(), peak), kept.end());
  EXPECT_NE(std::find(kept.begin(), kept.end(), dip), kept.end());
}

// One family of 100,000 cases (a ->Range over 1 to 100,000): its table shows
// kTableRows and says how many more; its charts draw every line decimated,
// and say so.
TEST(LargePage, AFamilyOf100000CasesShowsATableOfAThousandAndSaysWhatIsCut) {
  constexpr std::size_t kCases = 100000;
  Report r;
  for (std::size_t i = 1; i <= kCases; ++i) r.cases.push_back(case_of("BM_f/" + std::to_string(i), i % 13));
  const std::string html = html_of(r);
  const std::string body = body_of(html);
  EXPECT_EQ(occurrences(body, "<tr><td>BM_f/"), Limits::kTableRows);
  EXPECT_NE(body.find("<tr><td>BM_f/1000</td>"), std::string::npos);  // the first ones, in Google Benchmark's order
  EXPECT_EQ(body.find("<tr><td>BM_f/1001</td>"), std::string::npos);
  const std::string more = "and " + std::to_string(kCases - Limits::kTableRows) + " more, not on this page";
  EXPECT_NE(body.find(more), std::string::npos);
  const std::size_t note = body.find("<p class=\"cut\" id=\"cut\">");
  ASSERT_NE(note, std::string::npos);
  EXPECT_LT(note, body.find("<section"));  // on the first screen
  EXPECT_NE(body.find(std::to_string(kCases - Limits::kTableRows) + " cases of the workloads and families shown are "
                                                                    "not in them",
                      note),
            std::string::npos);
  const nlohmann::json data = page_data(html);
  ASSERT_EQ(data["charts"].size(), 2u);  // allocs/op, bytes/op: no time
  for (const nlohmann::json& chart : data["charts"]) {
    EXPECT_NE(chart["title"].get<std::string>().find("decimated"), std::string::npos) << chart["title"];
    EXPECT_LE(chart["series"][0]["points"].size(), Limits::kPoints);
    EXPECT_EQ(chart["series"][0]["points"][0]["x"], 1);  // the first point, and the last: the line's whole span
    EXPECT_EQ(chart["series"][0]["points"].back()["x"], kCases);
  }
  EXPECT_LT(html.size(), 2u << 20);
}

// A family whose cases have no argument: a bar per case, the first kBars,
// its title saying how many of how many.
TEST(LargePage, ABarChartOfManyCasesDrawsTheFirstAndSaysHowMany) {
  constexpr std::size_t kCases = 500;
  Report r;
  for (std::size_t i = 0; i < kCases; ++i) r.cases.push_back(case_of("BM_g/case" + std::to_string(i), 1));
  const nlohmann::json data = page_data(html_of(r));
  ASSERT_EQ(data["charts"].size(), 2u);
  EXPECT_EQ(data["charts"][0]["labels"].size(), Limits::kBars);
  EXPECT_EQ(data["charts"][0]["title"],
            "allocs/op (the first " + std::to_string(Limits::kBars) + " of " + std::to_string(kCases) + " cases)");
}

// More single-case families than kSections: the first kSections, and the
// number cut, said.
TEST(LargePage, MoreFamiliesThanTheLimitShowTheFirstAndSayHowMany) {
  constexpr std::size_t kFamilies = Limits::kSections + 2500;
  Report r;
  for (std::size_t i = 0; i < kFamilies; ++i) r.cases.push_back(case_of("BM_" + std::to_string(i), 2));
  const std::string body = body_of(html_of(r));
  EXPECT_EQ(occurrences(body, "<section class=\"family\">"), Limits::kSections);
  EXPECT_NE(body.find("it shows the first " + std::to_string(Limits::kSections) + " of " + std::to_string(kFamilies) +
                      " workloads and families (in the report's order)"),
            std::string::npos);
}

// 30,000 tests in suites of 10: every table of a suite shown is whole, and
// suites stop when the page's kRows are taken; the heaviest tests and the
// leaking one still head the page.
TEST(LargePage, ATestReportShowsWholeSuitesUpToThePagesRows) {
  constexpr std::size_t kTests = 30000, kPerSuite = 10;
  Report r;
  r.context = {{k::kTests, "googletest"}};
  for (std::size_t i = 0; i < kTests; ++i) {
    CaseResult c = case_of("Suite" + std::to_string(i / kPerSuite) + ".Case" + std::to_string(i % kPerSuite), i % 50);
    c.leaked_bytes_per_op = i == kTests - 1 ? 84 : 0;
    r.cases.push_back(c);
  }
  const std::string body = body_of(html_of(r));
  const std::size_t suites_shown = Limits::kRows / kPerSuite;
  EXPECT_EQ(occurrences(body, "<section class=\"suite\"><h2 id="), suites_shown);
  EXPECT_EQ(occurrences(body, "not on this page"), 0u);  // no table cut in the middle
  EXPECT_NE(body.find("it shows the first " + std::to_string(suites_shown) + " of " +
                      std::to_string(kTests / kPerSuite) + " test suites (those with a leaking test first"),
            std::string::npos);
  // The leaking test, the last in the report: in the first table and its suite's section first.
  const std::string leaking = "Suite" + std::to_string(kTests / kPerSuite - 1) + ".Case9";
  EXPECT_LT(body.find(leaking), body.find("<section class=\"suite\"><h2 id="));
  EXPECT_NE(body.find("<h2 id=\"suite-Suite" + std::to_string(kTests / kPerSuite - 1) + "\">"), std::string::npos);
}

// A compare where more cases changed than kSections: the first kSections
// get their section, regressions first, the count is said, and the
// unchanged list is cut too.
TEST(LargePage, ACompareOfMoreChangesThanTheLimitSaysHowMany) {
  constexpr std::size_t kChanged = Limits::kSections + 10, kSame = Limits::kTableRows + 5;
  Report base, head;
  for (std::size_t i = 0; i < kChanged + kSame; ++i) {
    const std::string name = "BM_" + std::to_string(i);
    base.cases.push_back(case_of(name, 2));
    // Improvements, then one regression: the regression comes first, so no cut loses it.
    head.cases.push_back(case_of(name, i + 1 < kChanged ? 1 : i + 1 == kChanged ? 3 : 2));
  }
  std::ostringstream out;
  print_compare_html(out, compare_reports(base, head), "base.json", "head.json");
  const std::string body = body_of(out.str());
  EXPECT_EQ(occurrences(body, "<section class=\"change\">"), Limits::kSections);
  const std::string regression = "id=\"case-BM_" + std::to_string(kChanged - 1) + "\"";
  EXPECT_LT(body.find(regression), body.find("<section class=\"change\"><h2 id=\"case-BM_0\""));
  EXPECT_NE(body.find(std::to_string(kChanged) + " cases' allocations changed; this page shows the first " +
                      std::to_string(Limits::kSections)),
            std::string::npos);
  EXPECT_NE(body.find(std::to_string(kSame) + " case(s) whose allocations did not change"), std::string::npos);
  EXPECT_NE(body.find("<li>and 5 more, not on this page</li>"), std::string::npos);
}

}  // namespace
