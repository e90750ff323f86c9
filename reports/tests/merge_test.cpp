// SPDX-License-Identifier: Apache-2.0
// Shards (`run --shard I/N`) joined by merge_reports are the whole run, and
// every way the pieces can fail to fit is bad input.

#include "merge.h"

#include <gtest/gtest.h>

#include <sstream>

#include "input_error.h"
#include "json_keys.h"
#include "runner.h"

namespace {

using namespace allocgate::reports;
using namespace allocgate::files;
namespace k = allocgate::reports::keys;

NamedReport shard_report(const std::string& source, const std::string& shard, std::vector<std::string> names,
                         const std::string& toolchain = "tc") {
  NamedReport r{source, {}};
  r.report.context = {{k::kSchemaVersion, kReportSchemaVersion}, {k::kToolchain, toolchain}};
  if (!shard.empty()) r.report.context[k::kShard] = shard;
  for (std::string& name : names) {
    CaseResult c;
    c.name = std::move(name);
    c.allocs_per_op = static_cast<double>(c.name.size());
    r.report.cases.push_back(std::move(c));
  }
  return r;
}

std::string merge_error(std::vector<NamedReport> reports) {
  try {
    merge_reports(std::move(reports));
  } catch (const InputError& e) {
    return e.what();
  }
  return "(merged)";
}

TEST(ParseShard, ReadsIOfNAndRefusesTheRest) {
  const Shard s = parse_shard("2/5", "--shard");
  EXPECT_EQ(s.index, 2);
  EXPECT_EQ(s.count, 5);
  EXPECT_EQ(s.text(), "2/5");
  for (const char* bad : {"", "2", "/5", "2/", "0/5", "6/5", "-1/5", "2/0", "2/5x", "x/5", "1/99999999999"}) {
    EXPECT_THROW(parse_shard(bad, "--shard"), InputError) << bad;
  }
}

TEST(Shards, EveryCaseIsInExactlyOneShardAndTheShardsInOrderAreTheWholeRun) {
  RunOptions options;
  options.time = false;
  options.counted_runs = 1;
  options.filter = "/(1|10|100|200)$";
  std::ostringstream progress;
  const Report whole = run_cases(options, progress);
  for (const int count : {1, 2, 3, 7}) {
    std::vector<NamedReport> shards;
    for (int index = count; index >= 1; --index) {  // handed over out of order
      options.shard = Shard{index, count};
      const std::string name = "shard" + std::to_string(index);
      Report part = report_from_json(to_json(run_cases(options, progress)), name);  // as merge reads it
      EXPECT_EQ(part.context.contains(k::kShard), count > 1);
      shards.push_back({name, std::move(part)});
    }
    const Report merged = merge_reports(std::move(shards));
    ASSERT_EQ(merged.cases.size(), whole.cases.size()) << count << " shards";
    for (std::size_t i = 0; i < whole.cases.size(); ++i) {
      EXPECT_EQ(merged.cases[i].name, whole.cases[i].name) << count << " shards";
      EXPECT_EQ(merged.cases[i].allocs_per_op, whole.cases[i].allocs_per_op) << merged.cases[i].name;
      EXPECT_EQ(merged.cases[i].bytes_per_op, whole.cases[i].bytes_per_op) << merged.cases[i].name;
    }
    EXPECT_FALSE(merged.context.contains(k::kShard));
  }
}

TEST(Shards, MoreShardsThanCasesIsBadInput) {
  RunOptions options;
  options.time = false;
  options.filter = "^timestamp/optimized/1$";
  options.shard = Shard{1, 2};
  std::ostringstream progress;
  EXPECT_THROW(run_cases(options, progress), InputError);
}

TEST(Merge, JoinsShardsInShardOrder) {
  const Report merged =
      merge_reports({shard_report("b.json", "2/2", {"c", "d"}), shard_report("a.json", "1/2", {"a", "b"})});
  ASSERT_EQ(merged.cases.size(), 4u);
  EXPECT_EQ(merged.cases[0].name, "a");
  EXPECT_EQ(merged.cases[3].name, "d");
  EXPECT_EQ(merged.toolchain(), "tc");
}

TEST(Merge, JoinsUnshardedReportsInTheOrderGiven) {
  const Report merged = merge_reports({shard_report("x.json", "", {"x"}), shard_report("a.json", "", {"a"})});
  ASSERT_EQ(merged.cases.size(), 2u);
  EXPECT_EQ(merged.cases[0].name, "x");
}

TEST(Merge, RefusesPiecesThatDoNotFit) {
  EXPECT_EQ(merge_error({shard_report("a.json", "", {"a", "b"}), shard_report("b.json", "", {"b"})}),
            "case b is in both a.json and b.json");
  EXPECT_EQ(merge_error({shard_report("a.json", "", {"a"}), shard_report("b.json", "", {"b"}, "other")}),
            "b.json was run with toolchain other, a.json with tc: their counts cannot be gated together");
  EXPECT_EQ(merge_error({shard_report("a.json", "1/3", {"a"}), shard_report("c.json", "3/3", {"c"})}),
            "shard 2/3 is missing: the merged report would not be whole");
  EXPECT_EQ(merge_error({shard_report("a.json", "1/2", {"a"}), shard_report("b.json", "1/2", {"b"})}),
            "b.json and a.json are both shard 1/2");
  EXPECT_EQ(merge_error({shard_report("a.json", "1/2", {"a"}), shard_report("b.json", "2/3", {"b"})}),
            "b.json is shard 2/3, but a.json is one of 2");
  EXPECT_EQ(merge_error({shard_report("a.json", "1/2", {"a"}), shard_report("b.json", "", {"b"})}),
            "b.json is not a shard, but a.json is one");
  EXPECT_EQ(merge_error({shard_report("a.json", "1/0", {"a"})}),
            "a.json: context.allocgate_shard '1/0' is not I/N with 1 <= I <= N");
  // A counted test's or benchmark's report names its toolchain; a plain
  // Google Benchmark JSON does not.
  NamedReport counted = shard_report("tests.json", "", {"a"});
  counted.report.context.erase(k::kSchemaVersion);
  EXPECT_EQ(merge_error({std::move(counted), shard_report("b.json", "", {"b"})}), "(merged)");
  NamedReport google_benchmark = shard_report("gb.json", "", {"a"});
  google_benchmark.report.context.erase(k::kSchemaVersion);
  google_benchmark.report.context.erase(k::kToolchain);
  EXPECT_EQ(merge_error({std::move(google_benchmark)}),
            "gb.json: its context has no allocgate_toolchain (merge joins the reports of allocgate run and of tests "
            "and benchmarks counted by allocgate)");
  EXPECT_EQ(merge_error({}), "merge: no reports to merge");
}

}  // namespace

// Two test binaries built from one file (json's test-conversions_cpp11 and
// _cpp17) share their test names: --by-program names each case by its
// program, and without it the refusal says so.
TEST(Merge, ByProgramNamesEachCaseByTheExecutableItsReportNames) {
  const auto binary = [](const std::string& source, const std::string& executable) {
    NamedReport r = shard_report(source, "", {"conversions/get an object", "conversions/get a string"});
    if (!executable.empty()) r.report.context[k::kExecutable] = executable;
    return r;
  };
  EXPECT_EQ(merge_error({binary("a.json", "/build/tests/test-conversions_cpp11"),
                         binary("b.json", "/build/tests/test-conversions_cpp17")}),
            "case conversions/get a string is in both a.json and b.json, reports of two programs: --by-program "
            "names each case by its program");
  // One program's two processes (ctest's process per test run twice) are not two programs.
  EXPECT_EQ(merge_error({binary("a.json", "/build/tests/t"), binary("b.json", "/build/tests/t")}),
            "case conversions/get a string is in both a.json and b.json");

  std::vector<std::string> order;
  const Report merged = merge_reports(
      {binary("a.json", "/build/tests/test-conversions_cpp11"), binary("b.json", "test-conversions_cpp17")}, &order,
      /*by_program=*/true);
  std::vector<std::string> names;
  for (const CaseResult& c : merged.cases) names.push_back(c.name);
  EXPECT_EQ(names, (std::vector<std::string>{"test-conversions_cpp11/conversions/get an object",
                                             "test-conversions_cpp11/conversions/get a string",
                                             "test-conversions_cpp17/conversions/get an object",
                                             "test-conversions_cpp17/conversions/get a string"}));
  EXPECT_EQ(merged.cases[2].allocs_per_op, 25);  // the figures kept with their case

  try {
    merge_reports({binary("a.json", "/build/t"), binary("b.json", "")}, nullptr, true);
    ADD_FAILURE() << "a report naming no executable was merged by program";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "b.json: its context names no executable, so its cases cannot be named by their program");
  }
}
