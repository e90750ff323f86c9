// SPDX-License-Identifier: Apache-2.0
// The gate: exact comparison, tolerances, byte bounds, unmatched cases,
// toolchain sections, the three output forms, and --update.

#include "gate.h"
#include "runs.h"

#include <gtest/gtest.h>
#include <algorithm>

#include <random>
#include <sstream>

#include "input_error.h"
#include "occurrences.h"

namespace {

using namespace allocgate::reports;
using namespace allocgate::files;
using namespace allocgate::bounds;
using nlohmann::json;

Report report_of(const json& benchmarks) {
  return report_from_json(
      json{{"context", {{"allocgate_schema_version", 1}, {"allocgate_toolchain", "tc"}}}, {"benchmarks", benchmarks}},
      "report.json");
}

BoundsFile bounds_of(const json& cases) {
  return bounds_from_json(json{{"allocgate_bounds_version", 1}, {"toolchains", {{"tc", cases}}}}, "bounds.json");
}

std::vector<std::string> lines(const std::vector<BoundChange>& changes, const Report& report) {
  std::vector<std::string> lines;
  for (const BoundChange& change : changes) lines.push_back(describe(change, report));
  return lines;
}

GateRow row(const GateResult& r, const std::string& name) {
  for (GateRow row : r.rows) {
    if (row.name == name) return row;
  }
  throw std::runtime_error("no row " + name);
}

TEST(Gate, ExactByDefault) {
  const Report report = report_of(json::array({{{"name", "a/x/1"}, {"allocs_per_op", 16}},
                                               {{"name", "a/y/1"}, {"allocs_per_op", 0}},
                                               {{"name", "a/z/1"}, {"allocs_per_op", 1016}}}));
  const BoundsFile bounds = bounds_of(
      {{"a/x/1", {{"allocs_per_op", 16}}}, {"a/y/1", {{"allocs_per_op", 1}}}, {"a/z/1", {{"allocs_per_op", 16}}}});
  const GateResult r = evaluate(report, bounds, "tc", "bounds.json");
  EXPECT_EQ(row(r, "a/x/1").status, Status::ok);
  EXPECT_EQ(row(r, "a/y/1").status, Status::improved);
  EXPECT_EQ(row(r, "a/z/1").status, Status::regression);
  EXPECT_EQ(row(r, "a/z/1").detail, "allocs/op 1016 > bound 16 (+1000)");
  EXPECT_EQ(r.rows[0].name, "a/z/1");  // regressions first
  EXPECT_TRUE(r.failed(false));
}

TEST(Gate, ToleranceAllowsThatMuchAndNoMore) {
  const BoundsFile bounds = bounds_of({{"a/x/1", {{"allocs_per_op", 10}, {"tolerance", 2}}}});
  EXPECT_FALSE(
      evaluate(report_of(json::array({{{"name", "a/x/1"}, {"allocs_per_op", 12}}})), bounds, "tc", "b").failed(false));
  const GateResult over =
      evaluate(report_of(json::array({{{"name", "a/x/1"}, {"allocs_per_op", 12.5}}})), bounds, "tc", "b");
  EXPECT_TRUE(over.failed(false));
  EXPECT_EQ(over.rows[0].detail, "allocs/op 12.5 > bound 10 + 2 (+2.5)");
}

TEST(Gate, BytesAreCheckedWhereBounded) {
  const BoundsFile bounds = bounds_of({{"a/x/1", {{"allocs_per_op", 1}, {"bytes_per_op", 32}}},
                                       {"a/y/1", {{"allocs_per_op", 1}, {"bytes_per_op", 32}}}});
  const Report report = report_of(json::array(
      {{{"name", "a/x/1"}, {"allocs_per_op", 1}, {"bytes_per_op", 40}}, {{"name", "a/y/1"}, {"allocs_per_op", 1}}}));
  const GateResult r = evaluate(report, bounds, "tc", "b");
  EXPECT_EQ(row(r, "a/x/1").status, Status::regression);
  EXPECT_EQ(row(r, "a/x/1").detail, "bytes/op 40 > bound 32 (+8)");
  EXPECT_EQ(row(r, "a/y/1").status, Status::unmeasured);
}

TEST(Gate, UnmatchedCasesAndBoundsAreListedAndFailOnlyUnderStrict) {
  const GateResult r = evaluate(report_of(json::array({{{"name", "a/new/1"}, {"allocs_per_op", 3}}})),
                                bounds_of({{"a/gone/1", {{"allocs_per_op", 0}}}}), "tc", "b");
  EXPECT_EQ(row(r, "a/new/1").status, Status::unbounded);
  EXPECT_EQ(row(r, "a/gone/1").status, Status::missing);
  EXPECT_FALSE(r.failed(false));
  EXPECT_TRUE(r.failed(true));
}

TEST(Gate, AReportWhoseToolchainHasNoSectionIsBadInput) {
  try {
    evaluate(report_of(json::array({{{"name", "a/x/1"}, {"allocs_per_op", 1}}})), bounds_of(json::object()), "gcc-99",
             "ci/alloc-bounds.json");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "ci/alloc-bounds.json has no bounds for toolchain gcc-99 (it has: tc); record them with: "
                 "allocgate diff --update --bounds ci/alloc-bounds.json REPORT");
  }
}

TEST(Gate, PrintsRegressionsFirstThenTheTable) {
  const GateResult r = evaluate(
      report_of(
          json::array({{{"name", "a/fine/1"}, {"allocs_per_op", 0}}, {{"name", "a/bad/1"}, {"allocs_per_op", 5}}})),
      bounds_of({{"a/fine/1", {{"allocs_per_op", 0}}}, {"a/bad/1", {{"allocs_per_op", 4}}}}), "tc", "b");
  std::ostringstream text, markdown, annotations;
  print_text(text, r);
  print_markdown(markdown, r);
  print_github_annotations(annotations, r);
  EXPECT_EQ(text.str().rfind("REGRESSION a/bad/1: allocs/op 5 > bound 4 (+1)\n", 0), 0u) << text.str();
  EXPECT_NE(
      text.str().find("1 regression(s), 0 improved, 1 ok; 0 case(s) without a bound, 0 bound(s) without a case [tc]"),
      std::string::npos);
  EXPECT_NE(markdown.str().find("### allocgate: allocation regression"), std::string::npos);
  EXPECT_NE(markdown.str().find("| `a/bad/1` | 4 | 5 | +1 | - | **REGRESSION** |"), std::string::npos)
      << markdown.str();
  // Each regression points to its section of the compare page, and the
  // summary says how to make that page; a case that holds has no pointer.
  EXPECT_NE(markdown.str().find("- **a/bad/1**: allocs/op 5 > bound 4 (+1)\n"
                                "  - flame graph of the change: `compare.html#case-a/bad/1`\n"),
            std::string::npos)
      << markdown.str();
  EXPECT_EQ(markdown.str().find("case-a/fine/1"), std::string::npos);
  EXPECT_NE(markdown.str().find("`allocgate compare BASE.json HEAD.json --html --out compare.html`"),
            std::string::npos);
  EXPECT_EQ(annotations.str(), "::error title=allocation regression::a/bad/1: allocs/op 5 > bound 4 (+1)\n");
}

TEST(GateUpdate, TightensAddsAndKeepsNotesButLoosensOnlyWhenAllowed) {
  BoundsFile bounds = bounds_of({{"a/better/1", {{"allocs_per_op", 10}, {"note", "why"}, {"tolerance", 1}}},
                                 {"a/worse/1", {{"allocs_per_op", 2}, {"bytes_per_op", 64}}},
                                 {"a/untouched/1", {{"allocs_per_op", 7}}}});
  const Report report = report_of(json::array({{{"name", "a/better/1"}, {"allocs_per_op", 4}},
                                               {{"name", "a/worse/1"}, {"allocs_per_op", 3}, {"bytes_per_op", 96}},
                                               {{"name", "a/new/1"}, {"allocs_per_op", 1}, {"bytes_per_op", 8}}}));
  std::vector<BoundChange> changes;
  std::vector<std::string> refused;
  const BoundsFile tightened = update_bounds(bounds, report, "tc", false, changes, refused);
  EXPECT_TRUE(refused.empty());
  const auto& tc = tightened.toolchains.at("tc");
  EXPECT_EQ(tc.find("a/better/1").value().allocs_per_op, 4);
  EXPECT_EQ(tc.find("a/better/1").value().note, "why");
  EXPECT_EQ(tc.find("a/better/1").value().tolerance, 1);
  EXPECT_EQ(tc.find("a/worse/1").value().allocs_per_op, 2);  // not loosened
  EXPECT_EQ(tc.find("a/worse/1").value().bytes_per_op, 64);
  EXPECT_EQ(tc.find("a/untouched/1").value().allocs_per_op, 7);
  EXPECT_EQ(tc.find("a/new/1").value().allocs_per_op, 1);
  EXPECT_EQ(lines(changes, report),
            (std::vector<std::string>{"tightened a/better/1: allocs/op 10 -> 4", "added a/new/1: allocs/op 1"}));

  changes.clear();
  const BoundsFile loosened = update_bounds(bounds, report, "tc", true, changes, refused);
  EXPECT_EQ(loosened.toolchains.at("tc").find("a/worse/1").value().allocs_per_op, 3);
  EXPECT_EQ(loosened.toolchains.at("tc").find("a/worse/1").value().bytes_per_op, 96);
  // And the written form reads back the same.
  const BoundsFile again = bounds_from_json(to_json(loosened), "again");
  EXPECT_EQ(again.toolchains.at("tc").find("a/better/1").value().note, "why");
  EXPECT_EQ(again.toolchains.at("tc").size(), 4u);
}

// A failed test's figures hold its framework's formatting of the failure
// (GoogleTest's EXPECT_EQ prints both values in the test's own code): never
// a bound, new or tightened, and said.
TEST(GateUpdate, AFailedTestsFiguresAreNeverRecorded) {
  BoundsFile bounds = bounds_of({{"Suite.Tightens", {{"allocs_per_op", 10}}}});
  const Report report =
      report_of(json::array({{{"name", "Suite.Tightens"}, {"allocs_per_op", 4}, {"allocgate_test_failed", true}},
                             {{"name", "Suite.New"}, {"allocs_per_op", 15}, {"allocgate_test_failed", true}},
                             {{"name", "Suite.Passes"}, {"allocs_per_op", 1}}}));
  std::vector<BoundChange> changes;
  std::vector<std::string> refused;
  const BoundsFile updated = update_bounds(bounds, report, "tc", false, changes, refused);
  EXPECT_TRUE(refused.empty());
  const auto& tc = updated.toolchains.at("tc");
  EXPECT_EQ(tc.find("Suite.Tightens").value().allocs_per_op, 10);
  EXPECT_FALSE(tc.find("Suite.New"));
  EXPECT_EQ(tc.find("Suite.Passes").value().allocs_per_op, 1);
  EXPECT_EQ(lines(changes, report),
            (std::vector<std::string>{"not recorded Suite.Tightens: the test failed, and a failed test's figures hold "
                                      "its framework's formatting of the failure",
                                      "not recorded Suite.New: the test failed, and a failed test's figures hold its "
                                      "framework's formatting of the failure",
                                      "added Suite.Passes: allocs/op 1"}));
}

// Three unchanged runs of a suite whose threaded test's figures depend on
// scheduling: recorded at the most a run reached, with the range as its
// tolerance and a note; the single-threaded test keeps an exact bound. Every
// run then passes; one added allocation per call (here 10,000 calls) fails.
// A test binary's report (--allocgate_out): Google Benchmark's layout, a
// case per test with allocgate's keys.
Report test_report_of(json tests) {
  for (json& t : tests) {
    t["run_type"] = "iteration";
    t["iterations"] = 1;
    t["allocs/op"] = t.at("allocs_per_op");
    t["bytes/op"] = t.at("bytes_per_op");
    t.erase("allocs_per_op");
    t.erase("bytes_per_op");
  }
  return report_from_json(
      json{{"context", {{"allocgate_toolchain", "tc"}, {"allocgate_tests", "googletest"}}}, {"benchmarks", tests}},
      "tests.json");
}

TEST(GateUpdate, RunsWhoseFiguresVaryAreRecordedAsTheirRange) {
  const auto run = [](double flush_allocs, double flush_bytes) {
    return test_report_of(
        json::array({{{"name", "multithread flush"}, {"allocs_per_op", flush_allocs}, {"bytes_per_op", flush_bytes}},
                     {{"name", "single thread"}, {"allocs_per_op", 3}, {"bytes_per_op", 96}},
                     {{"name", "a pool's worker"},
                      {"allocs_per_op", 250},
                      {"bytes_per_op", 4000},
                      {"allocgate_other_thread_allocs", 50}}}));
  };
  std::vector<NamedReport> runs{
      {"1.json", run(49950, 800000)}, {"2.json", run(50050, 801600)}, {"3.json", run(49939, 799824)}};
  Spreads spreads;
  const Report folded = fold_runs(runs, spreads);
  ASSERT_EQ(spreads.size(), 1u);
  EXPECT_EQ(describe("multithread flush", spreads.at("multithread flush")),
            "multithread flush varies between 3 runs: allocs/op 49939-50050, bytes/op 799824-801600");
  std::vector<BoundChange> changes;
  std::vector<std::string> refused;
  const BoundsFile b = update_bounds(bounds_of(json::object()), folded, "tc", false, changes, refused, &spreads);
  EXPECT_TRUE(refused.empty());
  const Bound flush = b.toolchains.at("tc").find("multithread flush").value();
  EXPECT_EQ(flush.allocs_per_op, 50050);
  EXPECT_EQ(flush.tolerance, 111);
  EXPECT_EQ(flush.bytes_per_op, 801600);
  EXPECT_EQ(flush.bytes_tolerance, 1776);
  EXPECT_NE(flush.note.find("varies between 3 runs"), std::string::npos) << flush.note;
  const Bound single = b.toolchains.at("tc").find("single thread").value();
  EXPECT_EQ(single.allocs_per_op, 3);
  EXPECT_EQ(single.tolerance, 0);
  // The same in every run, but partly another thread's: the square root of
  // that share (50: 8), and as many allocations of its mean size (16 B).
  const Bound pool = b.toolchains.at("tc").find("a pool's worker").value();
  EXPECT_EQ(pool.allocs_per_op, 250);
  EXPECT_EQ(pool.tolerance, 8);
  EXPECT_EQ(pool.bytes_tolerance, 128);
  EXPECT_NE(pool.note.find("allocates on other threads (50 allocations)"), std::string::npos) << pool.note;
  const std::vector<std::string> recorded = lines(changes, folded);
  EXPECT_NE(std::find(recorded.begin(), recorded.end(), "added multithread flush: allocs/op 50050 + 111 (tolerance)"),
            recorded.end());
  for (const NamedReport& r : runs) EXPECT_FALSE(evaluate(r.report, b, "tc", "b").failed(false)) << r.source;
  EXPECT_TRUE(evaluate(run(49950 + 10000, 800000 + 320000), b, "tc", "b").failed(false));
  EXPECT_TRUE(evaluate(test_report_of(json::array(
                           {{{"name", "multithread flush"}, {"allocs_per_op", 50000}, {"bytes_per_op", 800000}},
                            {{"name", "single thread"}, {"allocs_per_op", 4}, {"bytes_per_op", 96}}})),
                       b, "tc", "b")
                  .failed(false));

  // An exact bound recorded before is not widened without --allow-loosen.
  changes.clear();
  const BoundsFile exact = bounds_of({{"multithread flush", {{"allocs_per_op", 50050}}}});
  update_bounds(exact, folded, "tc", false, changes, refused, &spreads);
  ASSERT_EQ(refused.size(), 1u);
  EXPECT_NE(refused[0].find("--allow-loosen widens it"), std::string::npos) << refused[0];
  refused.clear();
  const BoundsFile widened = update_bounds(exact, folded, "tc", true, changes, refused, &spreads);
  EXPECT_EQ(widened.toolchains.at("tc").find("multithread flush").value().tolerance, 111);
  const std::vector<std::string> said = lines(changes, folded);
  EXPECT_NE(std::find(said.begin(), said.end(), "widened multithread flush: allocs/op tolerance 0 -> 111"), said.end());
}

TEST(GateUpdate, RunsOfAnotherSuiteAreRefused) {
  Spreads spreads;
  std::vector<NamedReport> runs{{"1.json", report_of(json::array({{{"name", "a"}, {"allocs_per_op", 1}}}))},
                                {"2.json", report_of(json::array({{{"name", "b"}, {"allocs_per_op", 1}}}))}};
  EXPECT_THROW(fold_runs(runs, spreads), InputError);
}

TEST(GateUpdate, ANewToolchainGetsItsOwnSection) {
  std::vector<BoundChange> changes;
  std::vector<std::string> refused;
  const BoundsFile b =
      update_bounds(bounds_of(json::object()), report_of(json::array({{{"name", "a/x/1"}, {"allocs_per_op", 2}}})),
                    "clang-14", false, changes, refused);
  EXPECT_EQ(b.toolchains.at("clang-14").find("a/x/1").value().allocs_per_op, 2);
  EXPECT_TRUE(b.toolchains.at("tc").empty());
}

// A fraction changes with the iteration count, a count that varies changes
// from run to run: either would be a bound that fails at random.
TEST(GateUpdate, RefusesFiguresThatWouldMakeAFlakyBoundUnlessTolerated) {
  const Report report = report_of(
      json::array({{{"name", "a/once_per_run/1"}, {"allocs_per_op", 0.0007776049766718507}, {"iterations", 2572}},
                   {{"name", "a/varies/1"}, {"allocs_per_op", 2}, {"allocs_per_op_min", 1}},
                   {{"name", "a/odd_bytes/1"}, {"allocs_per_op", 1}, {"bytes_per_op", 64.5}},
                   {{"name", "a/tolerated/1"}, {"allocs_per_op", 0.5}},
                   {{"name", "a/whole/1"}, {"allocs_per_op", 3}, {"bytes_per_op", 96}}}));
  const BoundsFile bounds = bounds_of({{"a/tolerated/1", {{"allocs_per_op", 1}, {"tolerance", 1}}}});
  std::vector<BoundChange> changes;
  std::vector<std::string> refused;
  const BoundsFile updated = update_bounds(bounds, report, "tc", false, changes, refused);
  ASSERT_EQ(refused.size(), 3u);
  EXPECT_EQ(refused[0].rfind("not recording a/once_per_run/1: allocs/op 0.0007776049766718507 over 2572 iterations "
                             "is not a whole number, so it changes with the iteration count: something allocates "
                             "once per run",
                             0),
            0u)
      << refused[0];
  EXPECT_EQ(refused[1].rfind("not recording a/varies/1: allocs/op varies: 1-2 allocs/op between repetitions", 0), 0u)
      << refused[1];
  EXPECT_EQ(refused[2].rfind("not recording a/odd_bytes/1: bytes/op 64.5 ", 0), 0u) << refused[2];
  EXPECT_NE(refused[2].find("give its bound a \"tolerance\""), std::string::npos) << refused[2];
  EXPECT_EQ(updated.toolchains.at("tc").find("a/tolerated/1").value().allocs_per_op, 0.5);
  EXPECT_FALSE(updated.toolchains.at("tc").find("a/once_per_run/1"));
  EXPECT_EQ(updated.toolchains.at("tc").find("a/whole/1").value().allocs_per_op, 3);
}

TEST(Gate, ACountThatVariesFailsUnlessTheBoundTolerates) {
  const Report report =
      report_of(json::array({{{"name", "a/varies/1"}, {"allocs_per_op", 2}, {"allocs_per_op_min", 1}},
                             {{"name", "a/tolerated/1"}, {"allocs_per_op", 2}, {"allocs_per_op_min", 1}}}));
  const BoundsFile bounds =
      bounds_of({{"a/varies/1", {{"allocs_per_op", 2}}}, {"a/tolerated/1", {{"allocs_per_op", 1}, {"tolerance", 1}}}});
  const GateResult result = evaluate(report, bounds, "tc", "b.json");
  EXPECT_TRUE(result.failed(false));
  EXPECT_EQ(result.count(Status::varies), 1u);
  EXPECT_EQ(result.count(Status::ok), 1u);
  std::ostringstream text;
  print_text(text, result);
  EXPECT_NE(text.str().find("VARIES a/varies/1: varies: 1-2 allocs/op between repetitions: something in the loop does "
                            "not allocate the same every run"),
            std::string::npos)
      << text.str();
  EXPECT_NE(text.str().find("\na/varies/1         2        1-2     +0         -  VARIES\n"), std::string::npos)
      << text.str();
  EXPECT_NE(text.str().find("0 regression(s), 1 varying, "), std::string::npos) << text.str();
}

// Figures of twenty digits keep their columns apart, rounded in the table
// and exact in the line above it.
TEST(Gate, TheTableRoundsLongFiguresAndKeepsColumnsApart) {
  const Report report = report_of(json::array(
      {{{"name", "BM_x"}, {"allocs_per_op", 0.0008048289738430583}, {"bytes_per_op", 0.0007776049766718507}}}));
  const BoundsFile bounds = bounds_of({{"BM_x", {{"allocs_per_op", 0.0007776049766718507}}}});
  std::ostringstream text;
  print_text(text, evaluate(report, bounds, "tc", "b.json"));
  EXPECT_NE(text.str().find("REGRESSION BM_x: allocs/op 0.0008048289738430583 > bound 0.0007776049766718507"),
            std::string::npos)
      << text.str();
  EXPECT_NE(text.str().find("BM_x  0.000778   0.000805  +2.72e-05  0.000778  REGRESSION\n"), std::string::npos)
      << text.str();
}

TEST(ReadBounds, RefusesWhatItCannotTrust) {
  for (const char* text :
       {R"({"toolchains": {}})", R"({"allocgate_bounds_version": 2, "toolchains": {}})",
        R"({"allocgate_bounds_version": 1})", R"({"allocgate_bounds_version": 1, "toolchains": {"t": {"c": {}}}})",
        R"({"allocgate_bounds_version": 1, "toolchains": {"t": {"c": {"allocs_per_op": -1}}}})",
        R"({"allocgate_bounds_version": 1, "toolchains": {"t": {"c": {"allocs_per_op": 1, "tolerence": 1}}}})",
        R"({"allocgate_bounds_version": 1, "toolchains": {"t": {"c": {"allocs_per_op": 1, "note": 3}}}})",
        R"({"allocgate_bounds_version": 1, "toolchains": {"t": []}})"}) {
    EXPECT_THROW(bounds_from_json(json::parse(text), "b.json"), InputError) << text;
  }
}

}  // namespace

namespace {

// evaluate() is called on temporaries by the command; the rows must not point
// into them (the asan preset catches a dangling row here).
TEST(Gate, AResultOutlivesItsInputs) {
  using namespace allocgate::reports;
  const GateResult r = evaluate(report_from_json(nlohmann::json::parse(R"({"context": {"allocgate_schema_version": 1},
                                                 "benchmarks": [{"name": "a/x/1", "allocs_per_op": 2}]})"),
                                                 "r"),
                                bounds_from_json(nlohmann::json::parse(R"({"allocgate_bounds_version": 1,
                                                 "toolchains": {"tc": {"a/x/1": {"allocs_per_op": 1, "note": "n"}}}})"),
                                                 "b"),
                                "tc", "b");
  std::ostringstream out;
  print_text(out, r);
  EXPECT_NE(out.str().find("REGRESSION a/x/1: allocs/op 2 > bound 1 (+1)"), std::string::npos);
  EXPECT_EQ(r.rows[0].bound->note, "n");
}

}  // namespace

namespace {

TEST(Gate, ARegressionShowsWhereItsAllocationsComeFrom) {
  using namespace allocgate::reports;
  const Report report = report_from_json(nlohmann::json::parse(R"({
      "context": {"allocgate_schema_version": 1},
      "benchmarks": [{"name": "xml_listing/optimized/1000", "allocs_per_op": 1000,
                      "sites": [{"function": "render", "file": "workloads/xml_listing/xml_listing.cpp", "line": 190,
                                 "allocs_per_op": 1000, "bytes_per_op": 30000}]}]})"),
                                         "r");
  const BoundsFile bounds = bounds_from_json(nlohmann::json::parse(R"({"allocgate_bounds_version": 1,
      "toolchains": {"tc": {"xml_listing/optimized/1000": {"allocs_per_op": 0}}}})"),
                                             "b");
  const GateResult r = evaluate(report, bounds, "tc", "b");
  std::ostringstream text, markdown, annotations;
  print_text(text, r);
  print_markdown(markdown, r);
  print_github_annotations(annotations, r);
  EXPECT_EQ(text.str().rfind("REGRESSION xml_listing/optimized/1000: allocs/op 1000 > bound 0 (+1000)\n"
                             "    1000 allocs/op from render (workloads/xml_listing/xml_listing.cpp:190)\n",
                             0),
            0u)
      << text.str();
  EXPECT_NE(markdown.str().find("  - 1000 allocs/op from render (workloads/xml_listing/xml_listing.cpp:190)"),
            std::string::npos);
  EXPECT_EQ(annotations.str(),
            "::error file=workloads/xml_listing/xml_listing.cpp,line=190,title=allocation regression::"
            "xml_listing/optimized/1000: allocs/op 1000 > bound 0 (+1000); top site: 1000 allocs/op from render "
            "(workloads/xml_listing/xml_listing.cpp:190)\n");
}

}  // namespace

namespace {

// The base of a change that added every allocation: each case allocating nothing.
allocgate::reports::Report base_allocating_nothing(const nlohmann::json& benchmarks) {
  nlohmann::json base = nlohmann::json::array();
  for (const nlohmann::json& b : benchmarks) base.push_back({{"name", b.at("name")}, {"allocs_per_op", 0}});
  return allocgate::reports::report_from_json({{"context", {{"allocgate_schema_version", 1}}}, {"benchmarks", base}},
                                              "base");
}

// One finding per line of code: a new allocation site that regresses 29
// benchmarks is one line naming it and the benchmarks, ahead of the cases,
// and one annotation at its line; the cases follow without repeating it.
TEST(Gate, ASiteThatRegressesManyCasesIsSaidOnce) {
  using namespace allocgate::reports;
  using allocgate::bounds::bounds_from_json;
  nlohmann::json benchmarks = nlohmann::json::array(), bounds = nlohmann::json::object();
  for (int i = 0; i < 29; ++i) {
    const std::string name = "BM_A/0/" + std::to_string(i);
    benchmarks.push_back({{"name", name},
                          {"allocs_per_op", 1},
                          {"sites",
                           {{{"function", "lookup"},
                             {"file", "src/x.cpp"},
                             {"line", 1800},
                             {"allocs_per_op", 1},
                             {"bytes_per_op", 32}}}}});
    bounds[name] = {{"allocs_per_op", 0}};
  }
  const Report report =
      report_from_json({{"context", {{"allocgate_schema_version", 1}}}, {"benchmarks", benchmarks}}, "r");
  GateResult r = evaluate(
      report, bounds_from_json({{"allocgate_bounds_version", 1}, {"toolchains", {{"tc", bounds}}}}, "b"), "tc", "b");
  set_base_sites(r, base_allocating_nothing(benchmarks));
  std::ostringstream text, annotations;
  print_text(text, r);
  print_github_annotations(annotations, r);
  // Names in order with their numbers by value: /2 before /10.
  EXPECT_EQ(text.str().rfind("REGRESSION +1 allocs/op at lookup (src/x.cpp:1800) in 29 benchmarks: BM_A/0/0, BM_A/0/1, "
                             "BM_A/0/2, BM_A/0/3, BM_A/0/4 and 24 more\n"
                             "REGRESSION BM_A/0/0: allocs/op 1 > bound 0 (+1)\n"
                             "REGRESSION BM_A/0/1: allocs/op 1 > bound 0 (+1)\n",
                             0),
            0u)
      << text.str();
  EXPECT_EQ(allocgate::reports::test::occurrences(text.str(), "src/x.cpp:1800"), 1u) << text.str();
  EXPECT_EQ(annotations.str(),
            "::error file=src/x.cpp,line=1800,title=allocation regression::+1 allocs/op at lookup (src/x.cpp:1800) in "
            "29 benchmarks: BM_A/0/0, BM_A/0/1, BM_A/0/2, BM_A/0/3, BM_A/0/4 and 24 more\n");
}

// A ->Range family regressing together at one line, each size in another
// instance of a template: one finding for the line, with the temporaries
// and the fix hint its cases carry, in text and in markdown.
TEST(Gate, OneLineOfTemplateInstancesIsOneFindingWithItsHint) {
  using namespace allocgate::reports;
  using allocgate::bounds::bounds_from_json;
  nlohmann::json benchmarks = nlohmann::json::array(), bounds = nlohmann::json::object();
  const std::string hint = "a temporary std::string: look up with the string_view itself";
  for (int i = 0; i < 3; ++i) {
    const std::string name = "BM_Uncompress/" + std::to_string(8 << (3 * i));
    benchmarks.push_back({{"name", name},
                          {"allocs_per_op", 3 + i},
                          {"sites",
                           {{{"function", "snappy::InternalUncompressAllTags<Writer" + std::to_string(i) + ">"},
                             {"file", "snappy.cc"},
                             {"line", 1800},
                             {"allocs_per_op", 3 + i},
                             {"bytes_per_op", 32},
                             {"temporary_per_op", 1 + i},
                             {"hint", hint}}}}});
    bounds[name] = {{"allocs_per_op", 0}};
  }
  const Report report =
      report_from_json({{"context", {{"allocgate_schema_version", 1}}}, {"benchmarks", benchmarks}}, "r");
  GateResult r = evaluate(
      report, bounds_from_json({{"allocgate_bounds_version", 1}, {"toolchains", {{"tc", bounds}}}}, "b"), "tc", "b");
  set_base_sites(r, base_allocating_nothing(benchmarks));
  std::ostringstream text, markdown;
  print_text(text, r);
  print_markdown(markdown, r);
  EXPECT_EQ(
      text.str().rfind("REGRESSION +3 to +5 allocs/op (3 temporary) at snappy::InternalUncompressAllTags<Writer0> "
                       "(snappy.cc:1800) and 2 other instances of its line in 3 benchmarks: BM_Uncompress/8, "
                       "BM_Uncompress/64, BM_Uncompress/512\n"
                       "      hint: " +
                           hint + "\n",
                       0),
      0u)
      << text.str();
  EXPECT_EQ(allocgate::reports::test::occurrences(text.str(), "snappy.cc:1800"), 1u) << text.str();
  EXPECT_NE(markdown.str().find("(3 temporary) at snappy::InternalUncompressAllTags\\<Writer0> (snappy.cc:1800) and "
                                "2 other instances of its line in 3 benchmarks"),
            std::string::npos)
      << markdown.str();
  EXPECT_NE(markdown.str().find("  - hint: " + hint + "\n"), std::string::npos) << markdown.str();
}

}  // namespace

namespace {

// A bound may hold the memory an operation keeps: its peak and what it leaks.
TEST(Gate, PeakAndLeakBoundsAreGatedAndAnUnknownFigureIsNotZero) {
  using namespace allocgate::reports;
  using allocgate::bounds::bounds_from_json;
  const Report report = report_from_json(nlohmann::json::parse(R"({"context": {"allocgate_schema_version": 1},
      "benchmarks": [{"name": "peaky", "allocs_per_op": 1, "peak_bytes": 5000, "leaked_bytes_per_op": 0},
                     {"name": "leaky", "allocs_per_op": 1, "peak_bytes": 64, "leaked_bytes_per_op": 64},
                     {"name": "unknown", "allocs_per_op": 1},
                     {"name": "fine", "allocs_per_op": 1, "peak_bytes": 64, "leaked_bytes_per_op": 0}]})"),
                                         "r");
  const auto bounds = bounds_from_json(nlohmann::json::parse(R"({"allocgate_bounds_version": 1, "toolchains": {"tc": {
      "peaky": {"allocs_per_op": 1, "peak_bytes": 4096},
      "leaky": {"allocs_per_op": 1, "leaked_bytes_per_op": 0},
      "unknown": {"allocs_per_op": 1, "leaked_bytes_per_op": 0},
      "fine": {"allocs_per_op": 1, "peak_bytes": 4096, "leaked_bytes_per_op": 0}}}})"),
                                       "b");
  const GateResult r = evaluate(report, bounds, "tc", "b");
  const auto row = [&](const std::string& name) {
    return *std::find_if(r.rows.begin(), r.rows.end(), [&](const GateRow& x) { return x.name == name; });
  };
  EXPECT_EQ(row("peaky").status, Status::regression);
  EXPECT_EQ(row("peaky").detail.rfind("peak_bytes 5000 > bound 4096 (+904)", 0), 0u) << row("peaky").detail;
  EXPECT_EQ(row("leaky").status, Status::regression);
  EXPECT_EQ(row("leaky").detail.rfind("leaked_bytes_per_op 64 > bound 0 (+64)", 0), 0u) << row("leaky").detail;
  EXPECT_EQ(row("unknown").status, Status::unmeasured);
  EXPECT_NE(row("unknown").detail.find("does not know it"), std::string::npos);
  EXPECT_EQ(row("fine").status, Status::ok);
  // The sites of a memory regression come by bytes, with their bytes.
  const Report with_sites = report_from_json(nlohmann::json::parse(R"({"context": {"allocgate_schema_version": 1},
      "benchmarks": [{"name": "leaky", "allocs_per_op": 11, "leaked_bytes_per_op": 4000, "sites": [
          {"function": "many_small", "file": "a.cpp", "line": 1, "allocs_per_op": 10, "bytes_per_op": 80},
          {"function": "one_big", "file": "b.cpp", "line": 2, "allocs_per_op": 1, "bytes_per_op": 4000}]}]})"),
                                             "r");
  std::ostringstream text;
  print_text(text, evaluate(with_sites,
                            bounds_from_json(nlohmann::json::parse(R"({"allocgate_bounds_version": 1,
      "toolchains": {"tc": {"leaky": {"allocs_per_op": 11, "leaked_bytes_per_op": 0}}}})"),
                                             "b"),
                            "tc", "b"));
  EXPECT_EQ(text.str().rfind("REGRESSION leaky: leaked_bytes_per_op 4000 > bound 0 (+4000)\n"
                             "    1 allocs/op, 4000 B/op from one_big (b.cpp:2)\n"
                             "    10 allocs/op, 80 B/op from many_small (a.cpp:1)\n",
                             0),
            0u)
      << text.str();
  // The bounds file keeps both through a rewrite.
  const auto again = bounds_from_json(to_json(bounds), "again");
  EXPECT_EQ(again.toolchains.at("tc").find("fine").value().peak_bytes, 4096);
  EXPECT_EQ(again.toolchains.at("tc").find("fine").value().leaked_bytes_per_op, 0);
}

}  // namespace

namespace {

// Scopes as the command makes them, by the name's prefix here.
std::vector<LimitScope> prefix_scopes(const BoundsFile& bounds) {
  std::vector<LimitScope> scopes;
  for (const Limit& limit : bounds.limits) {
    scopes.emplace_back(
        [prefix = limit.cases](std::string_view name) { return name.substr(0, prefix.size()) == prefix; });
  }
  return scopes;
}

TEST(Gate, ASuiteWideLimitHoldsEveryCaseItCoversUnlessItsOwnBoundSaysOtherwise) {
  BoundsFile bounds =
      bounds_from_json(json{{"allocgate_bounds_version", 1},
                            {"toolchains",
                             {{"tc",
                               {{"T.owns_leak", {{"allocs_per_op", 2}, {"leaked_bytes_per_op", 200}}},
                                {"T.bounded", {{"allocs_per_op", 2}}}}}}},
                            {"limits", json::array({{{"leaked_bytes_per_op", 0}, {"note", "no test leaks"}},
                                                    {{"cases", "U."}, {"allocs_per_op", 3}, {"peak_bytes", 100}}})}},
                       "bounds.json");
  const Report report = report_of(json::array({
      {{"name", "T.owns_leak"}, {"allocs_per_op", 2}, {"leaked_bytes_per_op", 133}},  // its own bound allows it
      {{"name", "T.bounded"}, {"allocs_per_op", 2}, {"leaked_bytes_per_op", 133}},    // the limit does not
      {{"name", "T.clean"}, {"allocs_per_op", 9}, {"leaked_bytes_per_op", 0}},        // no bound, no leak
      {{"name", "U.within"}, {"allocs_per_op", 3}, {"peak_bytes", 100}, {"leaked_bytes_per_op", 0}},
      {{"name", "U.over"}, {"allocs_per_op", 4}, {"peak_bytes", 10}, {"leaked_bytes_per_op", 0}},
      {{"name", "U.peaks"}, {"allocs_per_op", 1}, {"peak_bytes", 101}, {"leaked_bytes_per_op", 0}},
      {{"name", "U.unknown"}, {"allocs_per_op", 1}, {"leaked_bytes_per_op", 0}},  // peak not measured
  }));
  const GateResult r = evaluate(report, bounds, "tc", "bounds.json", prefix_scopes(bounds));
  EXPECT_EQ(row(r, "T.owns_leak").status, Status::ok);
  EXPECT_EQ(row(r, "T.bounded").status, Status::regression);
  EXPECT_EQ(row(r, "T.bounded").detail, "leaked_bytes_per_op 133 > limit 0 (every case: no test leaks)");
  EXPECT_EQ(row(r, "T.clean").status, Status::unbounded);  // no limit bounds its allocations
  EXPECT_EQ(row(r, "U.within").status, Status::ok);        // the limit is its bound
  EXPECT_EQ(row(r, "U.over").status, Status::regression);
  EXPECT_EQ(row(r, "U.over").detail, "allocs/op 4 > limit 3 (cases matching U.)");
  EXPECT_EQ(row(r, "U.peaks").detail, "peak_bytes 101 > limit 100 (cases matching U.)");
  EXPECT_EQ(row(r, "U.unknown").status, Status::unmeasured);
  EXPECT_TRUE(r.failed(false));

  // --update keeps the limits, and writes them back as they were read.
  std::vector<BoundChange> changes;
  std::vector<std::string> refused;
  const BoundsFile updated = update_bounds(bounds, report, "tc", false, changes, refused);
  EXPECT_EQ(to_json(updated)["limits"], to_json(bounds)["limits"]);
  EXPECT_EQ(to_json(bounds)["limits"][1], json({{"cases", "U."}, {"allocs_per_op", 3}, {"peak_bytes", 100}}));
}

TEST(Gate, ALimitThatLimitsNothingOrIsMisspeltIsRefused) {
  const auto error = [](const json& limits) {
    try {
      bounds_from_json(json{{"allocgate_bounds_version", 1}, {"toolchains", json::object()}, {"limits", limits}}, "b");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("(read)");
  };
  EXPECT_EQ(error(json::array({{{"cases", "x"}}})),
            "b: limits [0] limits nothing: give it allocs_per_op, bytes_per_op, peak_bytes or leaked_bytes_per_op");
  EXPECT_EQ(error(json::array({{{"leaked_bytes", 0}}})), "b: limits [0] has an unknown field 'leaked_bytes'");
  EXPECT_EQ(error(json::object()), "b: limits is not an array");
  EXPECT_EQ(error(json::array({{{"peak_bytes", -1}}})),
            "b: limits [0].peak_bytes must be a finite number >= 0, not -1");
}

}  // namespace

namespace {

// The bounds file written a bound at a time is the whole document's dump, on
// random bounds with names that need escaping, notes, limits or none.
TEST(PrintBounds, IsTheWholeDocumentsDumpByteForByte) {
  namespace b = allocgate::bounds;
  std::mt19937 random(20261203);
  const auto pick = [&](int n) { return static_cast<int>(random() % static_cast<unsigned>(n)); };
  const std::string names[] = {"w/v/1", "a \"quoted\" \\ name", "line\nbreak", "\u00e9\U0001F600", ""};
  for (int round = 0; round < 200; ++round) {
    b::BoundsFile bounds;
    for (int t = pick(3); t > 0; --t) {
      b::ToolchainBounds& section = bounds.toolchains[names[pick(5)] + std::to_string(t)];
      for (int i = pick(5); i > 0; --i) {
        b::Bound bound;
        bound.allocs_per_op = pick(1000) / (pick(2) ? 1.0 : 7.0);
        if (pick(2)) bound.tolerance = pick(3);
        if (pick(2)) bound.bytes_per_op = pick(100000);
        if (pick(2)) bound.peak_bytes = pick(100000);
        if (pick(2)) bound.leaked_bytes_per_op = 0;
        if (pick(2)) bound.note = names[pick(5)];
        section.add(names[pick(5)] + std::to_string(i), bound);
      }
      ASSERT_FALSE(section.sort());
    }
    for (int l = pick(3); l > 0; --l) {
      b::Limit limit;
      limit.leaked_bytes_per_op = 0;
      if (pick(2)) limit.cases = names[pick(5)];
      bounds.limits.push_back(limit);
    }
    std::ostringstream streamed;
    b::print_bounds(streamed, bounds);
    ASSERT_EQ(streamed.str(), b::to_json(bounds).dump(2) + "\n") << "round " << round;
  }
}

// Without a base, the gate cannot tell which line grew: it claims no change
// at any line, shows each regression's top sites as what they are, and says
// how to name the lines that grew. With one, it names the line that grew
// (not the top site, which did not change), and a line that only moved
// (code added above it) is no change.
TEST(Gate, NamesTheLineThatGrewAgainstTheBaseNotTheTopSite) {
  using namespace allocgate::reports;
  using allocgate::bounds::bounds_from_json;
  const auto site = [](const std::string& function, int line, int allocs) {
    return nlohmann::json{{"function", function},
                          {"file", "src/scan.cpp"},
                          {"line", line},
                          {"allocs_per_op", allocs},
                          {"bytes_per_op", 8}};
  };
  nlohmann::json base = nlohmann::json::array(), head = nlohmann::json::array(), bounds = nlohmann::json::object();
  for (const std::string name : {"Parse.Anchor", "Parse.Alias"}) {
    base.push_back({{"name", name}, {"allocs_per_op", 52}, {"sites", {site("push", 80, 50), site("scan", 40, 2)}}});
    // One allocation added in scan at line 41: push's line moves from 80 to 81.
    head.push_back({{"name", name},
                    {"allocs_per_op", 53},
                    {"sites", {site("push", 81, 50), site("scan", 41, 1), site("scan", 40, 2)}}});
    bounds[name] = {{"allocs_per_op", 52}};
  }
  const auto gate = [&] {
    return evaluate(report_from_json({{"context", {{"allocgate_schema_version", 1}}}, {"benchmarks", head}}, "head"),
                    bounds_from_json({{"allocgate_bounds_version", 1}, {"toolchains", {{"tc", bounds}}}}, "b"), "tc",
                    "b");
  };
  std::ostringstream without_base;
  print_text(without_base, gate());
  EXPECT_EQ(without_base.str().find("+1 allocs/op at"), std::string::npos) << without_base.str();
  EXPECT_NE(without_base.str().find("REGRESSION Parse.Alias: allocs/op 53 > bound 52 (+1)\n"
                                    "    50 allocs/op from push (src/scan.cpp:81)\n"),
            std::string::npos)
      << without_base.str();
  EXPECT_NE(without_base.str().find("--base BASE.json, a report of the base commit with sites, names the lines that "
                                    "grew"),
            std::string::npos)
      << without_base.str();

  GateResult with_base = gate();
  set_base_sites(with_base,
                 report_from_json({{"context", {{"allocgate_schema_version", 1}}}, {"benchmarks", base}}, "base"));
  std::ostringstream text, annotations;
  print_text(text, with_base);
  print_github_annotations(annotations, with_base);
  EXPECT_EQ(text.str().rfind("REGRESSION +1 allocs/op at scan (src/scan.cpp:41) in 2 benchmarks: Parse.Alias, "
                             "Parse.Anchor\n",
                             0),
            0u)
      << text.str();
  EXPECT_EQ(text.str().find("push"), std::string::npos) << text.str();
  EXPECT_EQ(annotations.str().rfind("::error file=src/scan.cpp,line=41,", 0), 0u) << annotations.str();

  // A base without sites for a case (profiled with none, yet allocating): no line is named.
  base[0].erase("sites");
  GateResult unmeasured = gate();
  set_base_sites(unmeasured,
                 report_from_json({{"context", {{"allocgate_schema_version", 1}}}, {"benchmarks", base}}, "base"));
  std::ostringstream partly;
  print_text(partly, unmeasured);
  EXPECT_EQ(partly.str().find("+1 allocs/op at scan (src/scan.cpp:41) in 2"), std::string::npos) << partly.str();
  EXPECT_NE(partly.str().find("    +1 allocs/op at scan (src/scan.cpp:41) (against the base)\n"), std::string::npos)
      << partly.str();
}

// A regression in bytes with the same count (one template instance of a
// line builds a larger type than before): the line is named by its bytes,
// and a line whose bytes only moved is no change.
TEST(Gate, NamesTheLineWhoseBytesGrewWhenTheCountDidNot) {
  using namespace allocgate::reports;
  using allocgate::bounds::bounds_from_json;
  const auto site = [](const std::string& function, int line, int allocs, int bytes) {
    return nlohmann::json{{"function", function},
                          {"file", "src/make.h"},
                          {"line", line},
                          {"allocs_per_op", allocs},
                          {"bytes_per_op", bytes}};
  };
  const nlohmann::json base = {{{"name", "Log.Drop"},
                                {"allocs_per_op", 3},
                                {"bytes_per_op", 360},
                                {"sites",
                                 {site("make_unique<full_formatter>", 337, 1, 320),
                                  site("make_unique<v_formatter>", 337, 1, 24), site("handle_flag", 1131, 1, 16)}}}};
  const nlohmann::json head = {
      {{"name", "Log.Drop"},
       {"allocs_per_op", 3},
       {"bytes_per_op", 656},
       {"sites", {site("make_unique<full_formatter>", 337, 2, 640), site("handle_flag", 1110, 1, 16)}}}};
  const nlohmann::json bounds = {{"Log.Drop", {{"allocs_per_op", 3}, {"bytes_per_op", 360}}}};
  GateResult result =
      evaluate(report_from_json({{"context", {{"allocgate_schema_version", 1}}}, {"benchmarks", head}}, "head"),
               bounds_from_json({{"allocgate_bounds_version", 1}, {"toolchains", {{"tc", bounds}}}}, "b"), "tc", "b");
  set_base_sites(result,
                 report_from_json({{"context", {{"allocgate_schema_version", 1}}}, {"benchmarks", base}}, "base"));
  std::ostringstream text, annotations;
  print_text(text, result);
  print_github_annotations(annotations, result);
  EXPECT_NE(text.str().find("REGRESSION Log.Drop: bytes/op 656 > bound 360 (+296)\n"
                            "    +296 B/op at make_unique<full_formatter> (src/make.h:337) (against the base)\n"),
            std::string::npos)
      << text.str();
  EXPECT_EQ(text.str().find("no line allocates more"), std::string::npos) << text.str();
  EXPECT_EQ(text.str().find("handle_flag"), std::string::npos) << text.str();
  EXPECT_NE(annotations.str().find("grew against the base: +296 B/op at make_unique<full_formatter> (src/make.h:337)"),
            std::string::npos)
      << annotations.str();
}

}  // namespace
