// SPDX-License-Identifier: Apache-2.0
#include "log_report.h"

#include <string>
#include <vector>

#include "allocgate/gtest.h"
#include "registry/seeded.h"
#include "registry/sha256.h"
#include "standard_library.h"

namespace {

using namespace allocgate::workloads::log_report;

std::vector<Report> all_four(const std::vector<std::string>& lines) {
  Reporter reporter;
  const std::string_view v4 = reporter.run(lines);
  return {report_v1(lines), report_v2(lines), report_v3(lines), Report{std::string(v4), reporter.malformed()}};
}

TEST(LogReport, MatchesTheCaseStudysHash) {
  // The case study's Go program printed "output hash dcc250db84ee" for all
  // four versions over makeLog(2000): our versions produce the same bytes.
  const auto lines = make_log(2000);
  for (const Report& r : all_four(lines)) {
    EXPECT_EQ(allocgate::workloads::sha256_hex(r.text).substr(0, 12), "dcc250db84ee");
    EXPECT_EQ(r.malformed, 0u);
  }
}

TEST(LogReport, RendersTotalsSortedByPath) {
  const std::vector<std::string> lines{"1.1.1.1 GET /b 200 5", "1.1.1.2 GET /a 200 7", "1.1.1.3 GET /b 404 10"};
  for (const Report& r : all_four(lines)) EXPECT_EQ(r.text, "/a 7\n/b 15\n");
}

TEST(LogReport, MalformedLinesAreSkippedAndCountedAlike) {
  const std::vector<std::string> lines{
      "1.1.1.1 GET /ok 200 5",
      "1.1.1.1 GET /short 200",                      // four fields
      "1.1.1.1 GET /extra 200 5 x",                  // six fields
      "1.1.1.1 GET /alpha 200 5x",                   // not a number
      "1.1.1.1 GET /minus 200 -5",                   // a sign is not a digit
      "1.1.1.1 GET /empty 200 ",                     // empty size
      "1.1.1.1 GET /huge 200 99999999999999999999",  // overflows int64
      "1.1.1.1 GET /ok 200 9223372036854775807",     // overflows /ok's total
      "",
      "1.1.1.1  GET /double-space 200 5",  // six fields, one empty
  };
  for (const Report& r : all_four(lines)) {
    EXPECT_EQ(r.text, "/ok 5\n");
    EXPECT_EQ(r.malformed, lines.size() - 1);
  }
}

// Random lines, most valid, many broken in every way the rule names.
std::vector<std::string> random_log(allocgate::workloads::Seeded& random, std::size_t n) {
  static const char* const kSizes[] = {"", "-1", "12a", "+3", "9223372036854775807", "9223372036854775808", "0", "007"};
  std::vector<std::string> lines;
  for (std::size_t i = 0; i < n; ++i) {
    // Paths of 3 to 46 bytes: lines from under 16 bytes to over 64, and
    // paths on both sides of 8 and 16 bytes, which compare differently.
    std::string path = "/p" + std::to_string(random.below(60));
    if (random.one_in(3)) path += std::string(random.below(40), random.one_in(2) ? 'x' : 'y');
    std::string line = "10.0.0." + std::to_string(random.below(9)) + " GET " + path + " 200 ";
    line += random.one_in(5) ? kSizes[random.below(std::size(kSizes))] : std::to_string(random.below(1'000'000));
    if (random.one_in(20)) line += " extra";
    if (random.one_in(20)) line = line.substr(0, random.below(line.size() + 1));
    lines.push_back(line);
  }
  return lines;
}

TEST(LogReport, AllFourAgreeOnRandomLogs) {
  allocgate::workloads::Seeded random(3);
  Reporter reused;  // one reporter across all logs: its reuse must not leak state
  for (int round = 0; round < 300; ++round) {
    const auto lines = random_log(random, random.below(400));
    const Report v1 = report_v1(lines);
    for (const Report& r : {report_v2(lines), report_v3(lines)}) {
      ASSERT_EQ(r.text, v1.text);
      ASSERT_EQ(r.malformed, v1.malformed);
    }
    ASSERT_EQ(reused.run(lines), v1.text);
    ASSERT_EQ(reused.malformed(), v1.malformed);
  }
}

TEST(LogReportAllocations, V4ReachesZeroAfterWarmUpAtEverySize) {
  for (const std::size_t n : {std::size_t{200}, std::size_t{2000}, std::size_t{20000}}) {
    const auto lines = make_log(n);
    Reporter reporter;
    reporter.run(lines);  // warm-up: table, order and buffer reach their size
    EXPECT_NO_ALLOCATIONS(reporter.run(lines)) << n << " lines";
    const auto r = allocgate::allocs_per_run(10, [&] { reporter.run(lines); });
    EXPECT_EQ(r.total.allocations, 0u);
  }
}

TEST(LogReportAllocations, V3AllocatesPerPathNotPerLine) {
  // 40 map nodes, the keys too long for the small-string buffer, the bucket
  // array, the key order and the output: the same whether there are 200 lines
  // or 2000. "/library/post-10" to "-39" are 16 characters: 30 keys past
  // libstdc++'s 15, none past libc++'s 22 ("-0" to "-9" fit both), so 73 or
  // 43. At 20000 lines the totals reach 7 digits and the output outgrows the
  // 24 bytes a line the case study reserves: one more.
  const std::uint64_t keys = 16 > allocgate::test::kShortStringCapacity ? 30 : 0;
  const std::uint64_t at_any_size = 40 + keys + 3;
  const std::pair<std::size_t, std::uint64_t> expected[] = {
      {200, at_any_size}, {2000, at_any_size}, {20000, at_any_size + 1}};
  for (const auto& [n, allocations] : expected) {
    const auto lines = make_log(n);
    Report r;
    EXPECT_ALLOCATIONS_EQ(r = report_v3(lines), allocations) << n << " lines";
  }
}

TEST(LogReportAllocations, V1AndV2AllocatePerLine) {
  for (const std::size_t n : {std::size_t{200}, std::size_t{2000}, std::size_t{20000}}) {
    const auto lines = make_log(n);
    Report r;
    // At least the split's vector and its five strings' heap parts... the
    // vector grows 1, 2, 4, 8 for five parts: 4 arrays per line, plus the path.
    EXPECT_GE(allocgate::measure([&] { r = report_v1(lines); }).allocations, 4 * n);
    EXPECT_GE(allocgate::measure([&] { r = report_v2(lines); }).allocations, 4 * n);
  }
}

}  // namespace
