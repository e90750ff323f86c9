// SPDX-License-Identifier: Apache-2.0
// `allocgate merge`: the reports of shards run apart (`allocgate run --shard
// I/N`, one CI job each) joined into the report one whole run writes, which
// diff, compare and table then read as any other.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "report.h"

namespace allocgate::reports {

/// A report and the file it came from, for messages.
struct NamedReport {
  std::string source;
  Report report;
};

/// Joins allocgate reports (allocgate run's, a test binary's
/// --allocgate_out, a counted benchmark's JSON). Shards (context.allocgate_shard "I/N") must all
/// be there, each once, and are joined in shard order; reports without a
/// shard (say, runs of different --filter) are joined in the order given.
/// Throws InputError when one does not name its toolchain, the toolchains
/// differ, a case is in two of them, or shards are missing, repeated or of
/// different N. The context is the first shard's, without its shard.
/// `order`, when given, receives the sources in the order they were joined.
/// `by_program`: each case is named PROGRAM/NAME, PROGRAM the file name of
/// its report's context.executable, so that the reports of several test
/// binaries that share test names (one file built for C++11 and C++17, as
/// nlohmann/json's suite does) join; a report without one is refused.
Report merge_reports(std::vector<NamedReport> reports, std::vector<std::string>* order = nullptr,
                     bool by_program = false);

/// The name merge gives a case of `report` under by_program. Throws
/// InputError when the report names no executable.
std::string program_case_name(const NamedReport& report, std::string_view name);

/// Whether every report is in Google Benchmark's layout (a counted
/// benchmark's JSON, a test binary's --allocgate_out), not allocgate run's.
bool all_in_benchmark_layout(const std::vector<NamedReport>& reports);

/// The reports in Google Benchmark's layout joined as they are, every key of
/// every entry kept (`allocs/op`, `allocgate_leaked_blocks`, ...): the first
/// file's context without its shard, then each file's entries, `files` in
/// the order merge_reports joined them, each entry's name (and run_name)
/// by program_case_name under `by_program`. Throws InputError.
nlohmann::json join_benchmark_layout(const std::vector<std::string>& files, bool by_program = false);

}  // namespace allocgate::reports
