// SPDX-License-Identifier: Apache-2.0
// The failure sweep's gate: a report's allocgate_sweep read and written, a
// finding its bound does not record failing the test, --update recording
// the sweep, and what the bounds file marks on purpose.

#include "sweep_gate.h"

#include <gtest/gtest.h>

#include <sstream>

#include "gate.h"
#include "input_error.h"

namespace {

using namespace allocgate::reports;
using namespace allocgate::bounds;
using allocgate::files::InputError;
using nlohmann::json;

constexpr const char* kLeakLine = "register_widget (tests/widgets.cpp:32)";

json finding(const char* outcome, const char* line, std::uint64_t point = 2) {
  return {{"point", point}, {"outcome", outcome}, {"line", line}, {"detail", "73 bytes in 2 blocks"}};
}

// A test's entry as a test binary writes it, swept with `findings`.
json swept(const std::string& name, const json& findings, bool nondeterministic = false) {
  return {{"name", name},
          {"run_name", name},
          {"run_type", "iteration"},
          {"iterations", 1},
          {"allocs/op", 3},
          {"bytes/op", 81},
          {"allocgate_sweep",
           {{"attempts", 3},
            {"tried", 3},
            {"outcomes", {{"propagated", 3 - findings.size()}, {"leaked", findings.size()}}},
            {"nondeterministic", nondeterministic},
            {"findings", findings}}}};
}

Report report_of(const json& benchmarks) {
  return report_from_json(
      json{{"context", {{"allocgate_toolchain", "tc"}, {"allocgate_tests", "googletest"}}}, {"benchmarks", benchmarks}},
      "tests.json");
}

BoundsFile bounds_of(const json& cases) {
  return bounds_from_json(json{{"allocgate_bounds_version", 1}, {"toolchains", {{"tc", cases}}}}, "bounds.json");
}

json bound(const json& sweep) { return {{"allocs_per_op", 3}, {"bytes_per_op", 81}, {"sweep", sweep}}; }

GateRow row_of(const GateResult& r, const std::string& name) {
  for (GateRow row : r.rows) {
    if (row.name == name) return row;
  }
  throw std::runtime_error("no row " + name);
}

TEST(SweepReport, IsReadFromATestBinarysReportAndWrittenBackTheSame) {
  const Report report = report_of(json::array({swept("W.Leaks", json::array({finding("leaked", kLeakLine)}))}));
  const CaseResult c = report.cases[0];
  ASSERT_TRUE(c.sweep);
  EXPECT_EQ(c.sweep->attempts, 3u);
  EXPECT_EQ(c.sweep->tried, 3u);
  ASSERT_EQ(c.sweep->findings.size(), 1u);
  EXPECT_EQ(c.sweep->findings[0].outcome, "leaked");
  EXPECT_EQ(c.sweep->findings[0].line, kLeakLine);
  EXPECT_EQ(c.sweep->findings[0].point, 2u);
  // allocgate's own layout keeps it.
  const Report again = report_from_json(to_json(report), "again.json");
  ASSERT_TRUE(again.cases[0].sweep);
  EXPECT_EQ(again.cases[0].sweep->findings[0].detail, "73 bytes in 2 blocks");
  EXPECT_EQ(again.cases[0].sweep->outcomes, c.sweep->outcomes);
}

TEST(SweepReport, RefusesWhatItCannotTrust) {
  const auto refused = [](json entry, const std::string& says) {
    try {
      report_of(json::array({std::move(entry)}));
      ADD_FAILURE() << "read: " << says;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
  };
  json bad = swept("T", json::array({finding("exploded", kLeakLine)}));
  refused(bad, "names an outcome it does not know: exploded");
  bad = swept("T", json::array());
  bad["allocgate_sweep"]["tried"] = -1;
  refused(bad, "allocgate_sweep.tried is not a whole number");
  bad = swept("T", json::array({finding("leaked", kLeakLine)}));
  bad["allocgate_sweep"]["findings"][0]["line"] = std::string(70001, 'x');
  refused(bad, "a finding's line is not a string of at most 70000 bytes");
  bad = swept("T", json::array());
  bad["allocgate_sweep"] = "clean";
  refused(bad, "allocgate_sweep is not an object");
}

TEST(SweepGate, AFindingItsBoundDoesNotRecordFailsTheTestNamingItsLine) {
  const Report report = report_of(
      json::array({swept("W.Leaks", json::array({finding("leaked", kLeakLine)})), swept("W.Clean", json::array())}));
  const GateResult r = evaluate(
      report, bounds_of({{"W.Leaks", bound(json::array())}, {"W.Clean", bound(json::array())}}), "tc", "bounds.json");
  const GateRow leaks = row_of(r, "W.Leaks");
  EXPECT_EQ(leaks.status, Status::regression);
  EXPECT_EQ(leaks.detail,
            "failure sweep: leaked at register_widget (tests/widgets.cpp:32) with allocation 2 failing (73 bytes in 2 "
            "blocks), a finding its bound does not record");
  EXPECT_EQ(row_of(r, "W.Clean").status, Status::ok);
  EXPECT_TRUE(r.failed(false));

  std::ostringstream text, github;
  print_text(text, r);
  EXPECT_NE(text.str().find("REGRESSION W.Leaks: failure sweep: leaked at"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("REGRESSION, failure sweep"), std::string::npos) << text.str();
  print_github_annotations(github, r);
  EXPECT_EQ(github.str().rfind("::error file=tests/widgets.cpp,line=32,title=allocation failure mishandled::W.Leaks: "
                               "failure sweep: leaked at",
                               0),
            0u)
      << github.str();
}

TEST(SweepGate, AKnownFindingIsNotNewWhereverItsLineMovedAndAFigureRegressionSaysBoth) {
  json entry = swept("W.Leaks", json::array({finding("leaked", kLeakLine)}));
  const BoundsFile moved = bounds_of(
      {{"W.Leaks", bound(json::array({{{"outcome", "leaked"}, {"line", "register_widget (tests/widgets.cpp:29)"}}}))}});
  EXPECT_EQ(evaluate(report_of(json::array({entry})), moved, "tc", "b").rows[0].status, Status::ok);
  // Another outcome at that line, or the same outcome in another function, is new.
  const BoundsFile other =
      bounds_of({{"W.Leaks", bound(json::array({{{"outcome", "swallowed"}, {"line", kLeakLine}},
                                                {{"outcome", "leaked"}, {"line", "f (tests/widgets.cpp:32)"}}}))}});
  EXPECT_EQ(evaluate(report_of(json::array({entry})), other, "tc", "b").rows[0].status, Status::regression);
  // Two findings of one outcome at one place need two recorded.
  entry = swept("W.Leaks", json::array({finding("leaked", kLeakLine, 1), finding("leaked", kLeakLine, 2)}));
  const GateRow twice = evaluate(report_of(json::array({entry})), moved, "tc", "b").rows[0];
  EXPECT_EQ(twice.status, Status::regression);
  EXPECT_NE(twice.detail.find("with allocation 2 failing"), std::string::npos) << twice.detail;
  // Over its bound and a new finding: both said.
  entry = swept("W.Leaks", json::array({finding("leaked", kLeakLine)}));
  entry["allocs/op"] = 4;
  const GateRow both =
      evaluate(report_of(json::array({entry})), bounds_of({{"W.Leaks", bound(json::array())}}), "tc", "b").rows[0];
  EXPECT_EQ(both.detail.rfind("allocs/op 4 > bound 3 (+1); failure sweep: leaked at", 0), 0u) << both.detail;
}

TEST(SweepGate, OnPurposeNotTrustedOrNeverSwept) {
  const json entry = swept("W.Leaks", json::array({finding("leaked", kLeakLine)}));
  const BoundsFile on_purpose = bounds_of(
      {{"W.Leaks", bound(json::array({{{"outcome", "leaked"}, {"line", kLeakLine}, {"on_purpose", true}}}))}});
  EXPECT_EQ(evaluate(report_of(json::array({entry})), on_purpose, "tc", "b").rows[0].status, Status::ok);
  // A sweep whose runs differ is not judged.
  EXPECT_EQ(evaluate(report_of(json::array({swept("W.Leaks", entry["allocgate_sweep"]["findings"], true)})),
                     bounds_of({{"W.Leaks", bound(json::array())}}), "tc", "b")
                .rows[0]
                .status,
            Status::ok);
  // A bound with no sweep recorded: every finding is new.
  EXPECT_EQ(evaluate(report_of(json::array({entry})),
                     bounds_of({{"W.Leaks", {{"allocs_per_op", 3}, {"bytes_per_op", 81}}}}), "tc", "b")
                .rows[0]
                .status,
            Status::regression);
  // A report with no sweep is gated on its figures alone.
  json plain = entry;
  plain.erase("allocgate_sweep");
  EXPECT_EQ(evaluate(report_of(json::array({plain})), on_purpose, "tc", "b").rows[0].status, Status::ok);
}

std::vector<std::string> described(const std::vector<BoundChange>& changes, const Report& report) {
  std::vector<std::string> lines;
  for (const BoundChange& change : changes) lines.push_back(describe(change, report));
  return lines;
}

TEST(SweepUpdate, RecordsWhatTheSweepFoundAndRefusesANewFindingUnlessAllowed) {
  const Report report = report_of(
      json::array({swept("A.New", json::array({finding("leaked", kLeakLine)})), swept("B.NeverSwept", json::array()),
                   swept("C.Fixed", json::array()), swept("D.OnPurpose", json::array())}));
  BoundsFile before =
      bounds_of({{"B.NeverSwept", {{"allocs_per_op", 3}, {"bytes_per_op", 81}}},
                 {"C.Fixed", bound(json::array({{{"outcome", "crashed"}, {"line", kLeakLine}, {"note", "issue 12"}}}))},
                 {"D.OnPurpose",
                  bound(json::array(
                      {{{"outcome", "swallowed"}, {"line", kLeakLine}, {"on_purpose", true}, {"note", "a cache"}}}))}});
  std::vector<BoundChange> changes;
  std::vector<std::string> refused;
  const BoundsFile after = update_bounds(before, report, "tc", false, changes, refused);
  EXPECT_TRUE(refused.empty());
  EXPECT_EQ(described(changes, report),
            (std::vector<std::string>{"added A.New: allocs/op 3", "swept A.New: 1 finding", "swept B.NeverSwept: clean",
                                      "swept C.Fixed: 1 finding -> clean"}));
  const ToolchainBounds& tc = after.toolchains.at("tc");
  ASSERT_TRUE(tc.find("A.New")->sweep);
  ASSERT_EQ(tc.find("A.New")->sweep->size(), 1u);
  EXPECT_EQ((*tc.find("A.New")->sweep)[0].line, kLeakLine);
  EXPECT_EQ(tc.find("C.Fixed")->sweep->size(), 0u);
  ASSERT_EQ(tc.find("D.OnPurpose")->sweep->size(), 1u);  // on purpose: kept, unseen
  EXPECT_EQ((*tc.find("D.OnPurpose")->sweep)[0].note, "a cache");

  // A finding a recorded sweep does not know is a loosening.
  const Report worse = report_of(json::array({swept("C.Fixed", json::array({finding("leaked", kLeakLine)}))}));
  changes.clear();
  update_bounds(after, worse, "tc", false, changes, refused);
  ASSERT_EQ(refused.size(), 1u);
  EXPECT_EQ(refused[0].rfind("not recording C.Fixed: failure sweep: leaked at register_widget", 0), 0u) << refused[0];
  refused.clear();
  changes.clear();
  const BoundsFile loosened = update_bounds(after, worse, "tc", true, changes, refused);
  EXPECT_TRUE(refused.empty());
  EXPECT_EQ(described(changes, worse), std::vector<std::string>{"swept C.Fixed: clean -> 1 finding"});
  EXPECT_EQ(loosened.toolchains.at("tc").find("C.Fixed")->sweep->size(), 1u);
}

TEST(SweepBounds, AreWrittenAndReadBackAndMisspeltOnesRefused) {
  const BoundsFile bounds = bounds_of(
      {{"T", bound(json::array(
                 {{{"outcome", "hung"}, {"line", kLeakLine}, {"on_purpose", true}, {"note", "waits for memory"}}}))}});
  const BoundsFile again = bounds_from_json(to_json(bounds), "again.json");
  const Bound b = *again.toolchains.at("tc").find("T");
  ASSERT_TRUE(b.sweep);
  ASSERT_EQ(b.sweep->size(), 1u);
  EXPECT_EQ((*b.sweep)[0].outcome, "hung");
  EXPECT_TRUE((*b.sweep)[0].on_purpose);
  EXPECT_EQ((*b.sweep)[0].note, "waits for memory");
  EXPECT_THROW(bounds_of({{"T", bound(json::array({{{"outcome", "propagated"}, {"line", kLeakLine}}}))}}), InputError);
  EXPECT_THROW(bounds_of({{"T", bound(json::array({{{"outcome", "hung"}, {"onpurpose", true}}}))}}), InputError);
  EXPECT_THROW(bounds_of({{"T", bound(json::object())}}), InputError);
}

TEST(SweepGate, AFindingsPlaceIsItsFunctionAndFile) {
  EXPECT_EQ(finding_place("ns::f (a/b.cpp:32)"), "ns::f (a/b.cpp");
  EXPECT_EQ(finding_place("ns::f"), "ns::f");
  EXPECT_EQ(finding_place("operator() (x.cpp)"), "operator() (x.cpp)");
  const auto at = file_line_of("ns::f (a/b.cpp:32)");
  ASSERT_TRUE(at);
  EXPECT_EQ(at->file, "a/b.cpp");
  EXPECT_EQ(at->line, 32u);
  EXPECT_FALSE(file_line_of("ns::f"));
  EXPECT_FALSE(file_line_of("f (a.cpp:x)"));
}

}  // namespace
