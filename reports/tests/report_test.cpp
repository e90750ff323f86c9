// SPDX-License-Identifier: Apache-2.0
// Reading reports: allocgate's own and Google Benchmark's JSON, and every kind
// of bad input refused with a one-line message naming the file and the problem.

#include "report.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "input_error.h"

namespace {

using namespace allocgate::reports;
using namespace allocgate::files;

const std::string kFixtures = ALLOCGATE_FIXTURES;

std::string error_of(const std::string& fixture) {
  try {
    read_report(kFixtures + "/" + fixture);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(ReadReport, ReadsAllocgatesOwnReport) {
  const Report r = read_report(kFixtures + "/report.json");
  EXPECT_EQ(r.toolchain(), "gcc-12-libstdc++-12");
  ASSERT_EQ(r.cases.size(), 8u);
  const std::optional<CaseResult> v4 = CaseIndex(r).find("log_report/v4/2000");
  ASSERT_TRUE(v4.has_value());
  EXPECT_EQ(v4->workload, "log_report");
  EXPECT_EQ(v4->variant, "v4");
  EXPECT_EQ(v4->size, 2000u);
  EXPECT_EQ(v4->allocs_per_op, 0);
  EXPECT_EQ(v4->equal_to_reference, true);
  EXPECT_EQ(CaseIndex(r).find("log_report/v1/200")->allocs_per_op, 1096);
  EXPECT_TRUE(v4->ns_median && v4->ns_min && v4->ns_max);
  EXPECT_LE(*v4->ns_min, *v4->ns_median);
  EXPECT_LE(*v4->ns_median, *v4->ns_max);
}

TEST(ReadReport, RoundTripsThroughItsJson) {
  const Report r = read_report(kFixtures + "/report.json");
  const Report again = report_from_json(to_json(r), "round trip");
  ASSERT_EQ(again.cases.size(), r.cases.size());
  for (std::size_t i = 0; i < r.cases.size(); ++i) {
    EXPECT_EQ(again.cases[i].name, r.cases[i].name);
    EXPECT_EQ(again.cases[i].allocs_per_op, r.cases[i].allocs_per_op);
    EXPECT_EQ(again.cases[i].bytes_per_op, r.cases[i].bytes_per_op);
    EXPECT_EQ(again.cases[i].ns_median, r.cases[i].ns_median);
    EXPECT_EQ(again.cases[i].output_sha256, r.cases[i].output_sha256);
  }
  // Counts are written as integers, and Google Benchmark's fields are there.
  const auto json = to_json(r);
  EXPECT_TRUE(json["benchmarks"][0]["allocs_per_op"].is_number_integer());
  EXPECT_EQ(json["benchmarks"][0]["time_unit"], "ns");
  EXPECT_TRUE(json["benchmarks"][0].contains("real_time"));
}

// Each distinct frame once per report, however many cases name it: what keeps
// `compare` within 3x a report's size.
TEST(ReadReport, CasesThatNameOneFrameShareIt) {
  Report r;
  r.context = {{"allocgate_schema_version", 1}};
  for (const char* name : {"a", "b"}) {
    CaseResult c;
    c.name = name;
    c.allocs_per_op = 2;
    c.sites = {SiteSummary{allocgate::SiteFrame{"render", "x.cpp", 42}, 1, 8},
               SiteSummary{allocgate::SiteFrame{"render", "x.cpp", 43}, 1, 8}};
    r.cases.push_back(std::move(c));
  }
  const Report again = report_from_json(to_json(r), "again");
  EXPECT_EQ(again.cases[0].sites[0].frame, again.cases[1].sites[0].frame);
  EXPECT_EQ(again.cases[0].sites[1].frame, again.cases[1].sites[1].frame);
  EXPECT_NE(again.cases[0].sites[0].frame, again.cases[0].sites[1].frame);  // another line, another frame
  EXPECT_EQ(again.cases[1].sites[1].where().line, 43u);
}

// A stack cut to the innermost frames a report keeps, or by the unwinder's
// limit, begins with a "[truncated]" frame: never a silently shorter stack
// that would draw as a tower of its own.
// "d7": a made-up frame's name (appended, not "d" + to_string: g++ 12 warns
// falsely on that under -O3).
std::string frame_name(char prefix, std::size_t f) {
  std::string name(1, prefix);
  name += std::to_string(f);
  return name;
}

TEST(SiteSummary, ACutStackSaysSo) {
  namespace ss = allocgate::site_summary;
  allocgate::SiteProfile profile;
  allocgate::StackSample whole, deep, cut_by_unwinder;
  for (std::size_t f = 0; f < 3; ++f) whole.frames.push_back(allocgate::SiteFrame{frame_name('w', f), "", 0});
  for (std::size_t f = 0; f < ss::kFrames + 5; ++f) {
    deep.frames.push_back(allocgate::SiteFrame{frame_name('d', f), "", 0});
  }
  cut_by_unwinder.frames = whole.frames;
  cut_by_unwinder.truncated = true;
  whole.count = 3;
  deep.count = 2;
  cut_by_unwinder.count = 1;
  profile.stacks = {whole, deep, cut_by_unwinder};
  const ss::Summary summary = ss::summarize(profile, 1);
  ASSERT_EQ(summary.stacks.size(), 3u);
  EXPECT_EQ(summary.stacks[0].frames, (std::vector<std::string>{"w0", "w1", "w2"}));
  ASSERT_EQ(summary.stacks[1].frames.size(), ss::kFrames + 1);
  EXPECT_EQ(summary.stacks[1].frames.front(), ss::kTruncatedFrame);
  EXPECT_EQ(summary.stacks[1].frames[1], "d5");  // the innermost kFrames kept
  EXPECT_EQ(summary.stacks[1].frames.back(), frame_name('d', ss::kFrames + 4));
  EXPECT_EQ(summary.stacks[2].frames, (std::vector<std::string>{ss::kTruncatedFrame, "w0", "w1", "w2"}));
}

TEST(ReadReport, SitesAndStacksRoundTrip) {
  Report r = read_report(kFixtures + "/report.json");
  EXPECT_FALSE(r.cases[0].sites.empty());  // the fixture was written by `allocgate run --sites`
  CaseResult first = r.cases[0];
  first.sites = {SiteSummary{allocgate::SiteFrame{"render", "workloads/x.cpp", 42}, 1000, 32000, 250, "reserve"}};
  first.stacks = {StackSummary{{"main", "render"}, {"", "workloads/x.cpp:42"}, 1000, 32000, 250}};
  r.cases.set(0, first);
  const Report again = report_from_json(to_json(r), "again");
  ASSERT_EQ(again.cases[0].sites.size(), 1u);
  EXPECT_EQ(to_string(again.cases[0].sites[0].where()), "render (workloads/x.cpp:42)");
  EXPECT_EQ(again.cases[0].sites[0].allocs_per_op, 1000);
  EXPECT_EQ(again.cases[0].sites[0].temporary_per_op, 250);
  EXPECT_EQ(again.cases[0].sites[0].hint, "reserve");
  ASSERT_EQ(again.cases[0].stacks.size(), 1u);
  EXPECT_EQ(again.cases[0].stacks[0].frames, (std::vector<std::string>{"main", "render"}));
  EXPECT_EQ(again.cases[0].stacks[0].locations, (std::vector<std::string>{"", "workloads/x.cpp:42"}));
  EXPECT_EQ(again.cases[0].stacks[0].bytes_per_op, 32000);
  EXPECT_EQ(again.cases[0].stacks[0].temporary_per_op, 250);
  for (const char* bad : {R"("sites": 3)", R"("sites": [3])", R"("sites": [{"line": -1}])", R"("stacks": [{}])",
                          R"("sites": [{"allocs_per_op": 1, "temporary_per_op": 2}])", R"("sites": [{"hint": 7}])",
                          R"("stacks": [{"frames": [1], "allocs_per_op": 1}])",
                          R"("stacks": [{"frames": ["f"], "locations": ["a", "b"], "allocs_per_op": 1}])",
                          R"("stacks": [{"frames": ["f"], "locations": [3], "allocs_per_op": 1}])",
                          R"("stacks": [{"frames": ["f"], "allocs_per_op": 1, "bytes_per_op": -1}])"}) {
    const std::string text =
        std::string(
            R"({"context": {"allocgate_schema_version": 1}, "benchmarks": [{"name": "a", "allocs_per_op": 1, )") +
        bad + "}]}";
    EXPECT_THROW(report_from_json(nlohmann::json::parse(text), "t.json"), InputError) << bad;
  }
}

TEST(ReadReport, ReadsAGoogleBenchmarkBinarysJson) {
  // Written by allocgate_workloads_bench with --benchmark_repetitions=2:
  // repetitions and aggregates are folded into one case per benchmark.
  const Report r = read_report(kFixtures + "/google-benchmark.json");
  EXPECT_EQ(r.toolchain(), "gcc-12-libstdc++-12");  // from allocgate::benchmark_main
  ASSERT_EQ(r.cases.size(), 4u);
  EXPECT_EQ(CaseIndex(r).find("row_parse/naive/100")->allocs_per_op, 346);
  EXPECT_EQ(CaseIndex(r).find("row_parse/optimized/100")->allocs_per_op, 0);
  EXPECT_TRUE(CaseIndex(r).find("order_format/pooled_contended/1/threads:2").has_value());
  EXPECT_TRUE(CaseIndex(r).find("row_parse/naive/100")->ns_median.has_value());
}

TEST(ReadReport, BadInputIsOneLineNamingTheFileAndTheProblem) {
  const std::pair<const char*, const char*> cases[] = {
      {"missing.json", "missing.json: cannot read: No such file or directory"},
      {"malformed.json", "malformed.json: malformed JSON at byte"},
      {"wrong-schema.json", "wrong-schema.json: report schema version 99 is not supported (this allocgate reads 1)"},
      {"negative.json", "negative.json: benchmarks[0] (log_report/v4/200): allocs_per_op is negative (-1)"},
      {"not-a-number.json", "not-a-number.json: benchmarks[0] (log_report/v4/200): allocs_per_op is not a number"},
      {"nan.json", "nan.json: benchmarks[0] (log_report/v4/200): allocs_per_op is null or NaN"},
      {"duplicate.json", "duplicate.json: case log_report/v4/200 appears twice"},
      {"empty.json", "empty.json: the report has no cases"},
  };
  for (const auto& [fixture, message] : cases) {
    const std::string error = error_of(fixture);
    EXPECT_NE(error.find(message), std::string::npos) << fixture << ": " << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << fixture;
  }
}

TEST(ReadReport, RefusesShapesThatAreNotReports) {
  for (const char* text : {"[]", "3", R"({"benchmarks": 3})", R"({"context": [], "benchmarks": []})",
                           R"({"context": {"allocgate_schema_version": 1}, "benchmarks": [3]})",
                           R"({"context": {"allocgate_schema_version": 1}, "benchmarks": [{"allocs_per_op": 1}]})",
                           R"({"context": {"allocgate_schema_version": "1"}, "benchmarks": []})",
                           R"({"benchmarks": [{"name": "x", "iterations": 1}]})",
                           R"({"benchmarks": [{"name": "x", "allocs/op": 1, "error_occurred": "yes"}]})"}) {
    EXPECT_THROW(report_from_json(nlohmann::json::parse(text), "t.json"), InputError) << text;
  }
}

// Google Benchmark 1.8 marks a benchmark skipped with SkipWithMessage by an
// error_message beside error_occurred false; such a benchmark has no figures.
TEST(ReadReport, ASkippedBenchmarkIsNotRunNotAnError) {
  const Report r = report_from_json(nlohmann::json::parse(R"({"benchmarks": [
      {"name": "BM_A", "run_name": "BM_A", "run_type": "iteration", "iterations": 5, "real_time": 10,
       "cpu_time": 10, "time_unit": "ns", "allocs/op": 2},
      {"name": "BM_B", "run_name": "BM_B", "run_type": "iteration", "iterations": 0, "real_time": 0,
       "cpu_time": 0, "time_unit": "ns", "error_occurred": false, "error_message": "no GPU"}]})"),
                                    "t.json");
  ASSERT_EQ(r.cases.size(), 1u);
  EXPECT_EQ(r.cases[0].allocs_per_op, 2);
  ASSERT_EQ(r.not_run.size(), 1u);
  EXPECT_FALSE(r.not_run[0].errored);
  EXPECT_EQ(r.not_run[0].message, "no GPU");
  EXPECT_EQ(r.source_summary, "1 benchmark(s) from their iteration runs; 1 skipped");
}

// A test binary's report numbers a test's runs (--gtest_repeat): two runs
// of one number are two tests of one name, refused rather than joined as
// one test's repetitions; numbered ones are repetitions, and a report of
// tests says so.
TEST(ReadReport, TwoCasesOfOneNameAreRefusedRepetitionsAreJoined) {
  const auto run = [](const char* name, int index, int allocs) {
    return nlohmann::json{{"name", name},
                          {"run_name", name},
                          {"run_type", "iteration"},
                          {"repetitions", 2},
                          {"repetition_index", index},
                          {"iterations", 1},
                          {"allocs/op", allocs},
                          {"bytes/op", 8}};
  };
  const nlohmann::json context = {{"allocgate_tests", "doctest"}};
  const nlohmann::json repeated = {{"context", context},
                                   {"benchmarks", {run("t", 0, 2), run("t", 1, 3), run("u", 0, 1)}}};
  const Report r = report_from_json(repeated, "t.json");
  ASSERT_EQ(r.cases.size(), 2u);
  EXPECT_EQ(r.cases[0].allocs_per_op, 3);
  EXPECT_EQ(r.source_summary, "2 test(s) from their runs");
  const nlohmann::json collided = {{"context", context},
                                   {"benchmarks", {run("t", 0, 2), run("u", 0, 1), run("t", 0, 3)}}};
  try {
    report_from_json(collided, "t.json");
    FAIL() << "two tests of one name read as one";
  } catch (const InputError& e) {
    EXPECT_STREQ(
        e.what(),
        "t.json: t: two runs are its repetition 0: two cases share this name, and a report keys figures by name");
  }
}

// report_text's plain twin: the whole report as one JSON value, dumped.
std::string report_text_whole(const Report& report) {
  nlohmann::json json = to_json(report);
  nlohmann::ordered_json ordered;
  ordered["context"] = std::move(json["context"]);
  ordered["benchmarks"] = std::move(json["benchmarks"]);
  return ordered.dump(2) + "\n";
}

// Built a case at a time, the text is the whole document's, byte for byte,
// on random reports: any field present or not, names that need escaping.
// Two benchmarks registered under one name are two families: kept apart and
// said so, where the repetitions of one stay one case.
TEST(ReadReport, TwoBenchmarksUnderOneNameAreKeptApartNotJoinedAsRepetitions) {
  const auto entry = [](int family, int repetition, int allocs) {
    return R"({"name": "%l", "run_name": "%l", "run_type": "iteration", "family_index": )" + std::to_string(family) +
           R"(, "per_family_instance_index": 0, "repetition_index": )" + std::to_string(repetition) +
           R"(, "iterations": 10, "real_time": 5, "cpu_time": 5, "time_unit": "ns", "allocs/op": )" +
           std::to_string(allocs) + "}";
  };
  const Report r =
      report_from_json(nlohmann::json::parse(R"({"benchmarks": [)" + entry(0, 0, 1) + "," + entry(0, 1, 1) + "," +
                                             entry(1, 0, 3) + "," + entry(1, 1, 3) + "]}"),
                       "b.json");
  ASSERT_EQ(r.cases.size(), 2u);
  EXPECT_EQ(r.cases[0].name, "%l");
  EXPECT_EQ(r.cases[0].allocs_per_op, 1);
  EXPECT_EQ(r.cases[0].ns_repetitions.size(), 2u);  // its two repetitions, one case
  EXPECT_EQ(r.cases[1].name, "%l#2");
  EXPECT_EQ(r.cases[1].allocs_per_op, 3);
  EXPECT_NE(r.source_summary.find("1 registered under a name taken already, kept apart as %l#2"), std::string::npos)
      << r.source_summary;
}

TEST(ReportText, IsTheWholeDocumentsDumpByteForByte) {
  std::mt19937 random(20261201);
  const auto pick = [&](int n) { return static_cast<int>(random() % static_cast<unsigned>(n)); };
  const std::string names[] = {"w/v/1", "a \"quoted\" \\ name", "line\nbreak\ttab", "\u00e9\u202e\U0001F600", ""};
  const auto figure = [&]() -> double { return pick(3) == 0 ? pick(1000) : pick(100000) / 7.0; };
  for (int round = 0; round < 200; ++round) {
    Report r;
    r.context = {{"allocgate_toolchain", names[pick(5)]}, {"n", pick(10)}, {"nested", {{"x", figure()}}}};
    const int cases = pick(6);
    for (int i = 0; i < cases; ++i) {
      CaseResult c;
      c.name = names[pick(5)] + std::to_string(i);
      c.workload = names[pick(5)];
      c.size = static_cast<std::uint64_t>(pick(1000));
      c.allocs_per_op = figure();
      if (pick(2)) c.allocs_per_op_min = c.allocs_per_op / 2;
      if (pick(2)) c.bytes_per_op = figure();
      if (pick(2)) c.peak_bytes = figure();
      if (pick(2)) c.ns_median = c.ns_min = c.ns_max = c.cpu_ns_median = figure();
      if (pick(2)) c.iterations = pick(100000);
      if (pick(2)) c.output_sha256 = std::string(64, 'f');
      if (pick(2)) c.equal_to_reference = pick(2) == 1;
      for (int s = pick(3); s > 0; --s) c.sites.push_back({{names[pick(5)], names[pick(5)], 3}, figure(), figure()});
      for (int s = pick(3); s > 0; --s) {
        c.stacks.push_back({{names[pick(5)], names[pick(5)]}, {}, figure(), figure(), 0});
        if (pick(2)) c.stacks.back().locations = {names[pick(5)], ""};
      }
      r.cases.push_back(std::move(c));
    }
    ASSERT_EQ(report_text(r), report_text_whole(r)) << "round " << round;
  }
}

}  // namespace
