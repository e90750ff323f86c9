// SPDX-License-Identifier: Apache-2.0
// The packed cases: every field a case can have comes back as it went in,
// absent stays absent, and a small case takes a small record.

#include "case_list.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace {

using namespace allocgate::reports;

// A case with each field present or not, as `bits` says, and its values from rng.
CaseResult random_case(std::mt19937_64& rng, std::uint32_t bits, std::size_t i) {
  std::uniform_real_distribution<double> figure(0, 1e12);
  const auto has = [&](int bit) { return (bits >> bit & 1) != 0; };
  CaseResult c;
  c.name = "case/" + std::to_string(i) + std::string(rng() % 40, 'x');
  if (has(0)) c.workload = "w" + std::to_string(rng() % 100);
  if (has(1)) c.variant = "v" + std::to_string(rng() % 100);
  if (has(2)) c.size = rng() >> (rng() % 64);
  c.allocs_per_op = static_cast<double>(rng() % 1000) + (has(3) ? 0.25 : 0);
  if (has(4)) c.allocs_per_op_min = c.allocs_per_op / 2;
  if (has(5)) c.bytes_per_op = figure(rng);
  if (has(6)) c.peak_bytes = figure(rng);
  if (has(7)) c.leaked_bytes_per_op = has(8) ? 0.0 : figure(rng);
  if (has(9)) c.ns_median = figure(rng);
  if (has(10)) c.ns_min = figure(rng);
  if (has(11)) c.ns_max = figure(rng);
  if (has(12)) c.cpu_ns_median = figure(rng);
  if (has(13)) c.ns_repetitions = {figure(rng), figure(rng)};
  if (has(14)) c.iterations = static_cast<std::int64_t>(rng() >> 1);
  if (has(15)) c.output_sha256 = std::string(64, 'a' + static_cast<char>(rng() % 6));
  if (has(16)) c.equal_to_reference = has(17);
  c.test_failed = has(18);
  if (has(19)) c.sites = {SiteSummary{allocgate::SiteFrame{"f", "f.cpp", 7}, 1, 8, 0, "reserve"}};
  if (has(20)) c.stacks = {StackSummary{{"main", "f"}, {"", "f.cpp:7"}, 1, 8, 0}};
  return c;
}

void expect_same(const CaseResult& a, const CaseResult& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.workload, b.workload);
  EXPECT_EQ(a.variant, b.variant);
  EXPECT_EQ(a.size, b.size);
  EXPECT_EQ(a.allocs_per_op, b.allocs_per_op);
  EXPECT_EQ(a.allocs_per_op_min, b.allocs_per_op_min);
  EXPECT_EQ(a.bytes_per_op, b.bytes_per_op);
  EXPECT_EQ(a.peak_bytes, b.peak_bytes);
  EXPECT_EQ(a.leaked_bytes_per_op, b.leaked_bytes_per_op);
  EXPECT_EQ(a.ns_median, b.ns_median);
  EXPECT_EQ(a.ns_min, b.ns_min);
  EXPECT_EQ(a.ns_max, b.ns_max);
  EXPECT_EQ(a.cpu_ns_median, b.cpu_ns_median);
  EXPECT_EQ(a.ns_repetitions, b.ns_repetitions);
  EXPECT_EQ(a.iterations, b.iterations);
  EXPECT_EQ(a.output_sha256, b.output_sha256);
  EXPECT_EQ(a.equal_to_reference, b.equal_to_reference);
  EXPECT_EQ(a.test_failed, b.test_failed);
  ASSERT_EQ(a.sites.size(), b.sites.size());
  for (std::size_t i = 0; i < a.sites.size(); ++i) {
    EXPECT_EQ(a.sites[i].where(), b.sites[i].where());
    EXPECT_EQ(a.sites[i].hint, b.sites[i].hint);
  }
  ASSERT_EQ(a.stacks.size(), b.stacks.size());
  for (std::size_t i = 0; i < a.stacks.size(); ++i) EXPECT_EQ(a.stacks[i].frames, b.stacks[i].frames);
}

TEST(CaseList, EveryFieldComesBackAsItWentIn) {
  std::mt19937_64 rng(7);
  std::vector<CaseResult> cases;
  CaseList list;
  // Enough cases to fill several of the list's blocks.
  for (std::size_t i = 0; i < 30000; ++i) {
    cases.push_back(random_case(rng, static_cast<std::uint32_t>(rng()), i));
    list.push_back(cases.back());
  }
  cases.push_back(random_case(rng, 0, cases.size()));  // nothing but a name and allocs/op
  list.push_back(cases.back());
  cases.push_back(random_case(rng, ~0u, cases.size()));  // everything
  list.push_back(cases.back());
  ASSERT_EQ(list.size(), cases.size());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE(i);
    expect_same(list[i], cases[i]);
    EXPECT_EQ(list.name(i), cases[i].name);
  }
}

TEST(CaseList, AReplacedCaseIsReadAsItsReplacement) {
  CaseList list{CaseResult{}, CaseResult{}};
  CaseResult c;
  c.name = "replaced";
  c.peak_bytes = 64;
  list.set(1, c);
  EXPECT_EQ(list[1].name, "replaced");
  EXPECT_EQ(list[1].peak_bytes, 64);
  EXPECT_EQ(list[0].name, "");
}

TEST(CaseList, ByNameIsInNameOrderKeepingTwinsInTheirOrder) {
  CaseList list;
  for (const char* name : {"b", "a", "c", "a"}) {
    CaseResult c;
    c.name = name;
    c.allocs_per_op = static_cast<double>(list.size());
    list.push_back(c);
  }
  EXPECT_EQ(list.by_name(), (std::vector<std::uint32_t>{1, 3, 0, 2}));
}

}  // namespace
