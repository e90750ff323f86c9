// SPDX-License-Identifier: Apache-2.0
// The report: what `allocgate run` writes and what diff, compare and table
// read. Its layout follows Google Benchmark's JSON (context, benchmarks[] with
// name, real_time, cpu_time, time_unit), so benchmark's tools/compare.py reads
// it too; and the readers accept the JSON of any Google Benchmark binary that
// reports allocgate's counters (allocs/op, bytes/op, peak_bytes). Every key is
// in json_keys.h.
#pragma once

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "case_list.h"
#include "case_result.h"

namespace allocgate::reports {

/// Bumped when a field changes meaning or goes away; readers refuse others.
inline constexpr int kReportSchemaVersion = 1;

/// A benchmark of a Google Benchmark JSON that has no figures because it did
/// not run to the end: it errored (SkipWithError) or was skipped.
struct NotRun {
  std::string name;
  bool errored = false;
  std::string message;
};

struct Report {
  nlohmann::json context = nlohmann::json::object();
  CaseList cases;
  std::vector<NotRun> not_run;
  /// For a Google Benchmark JSON, which runs the figures came from, e.g.
  /// "4 benchmark(s) from their iteration runs, 1 from its mean aggregate
  /// (aggregates only); 1 errored"; empty for allocgate's own reports.
  std::string source_summary;

  /// The key its bounds are kept under (context.allocgate_toolchain); empty
  /// when the report does not say.
  std::string toolchain() const;

  /// A text of the context (git_commit, executable, ...); empty when absent
  /// or not a string.
  std::string context_text(const char* key) const;
};

/// A report's cases and not-run benchmarks by name: what gate and compare
/// look names up in, so that they stay linear in the number of cases. Refers
/// to the report, which must outlive it unchanged.
class CaseIndex {
 public:
  explicit CaseIndex(const Report& report);
  /// The case of that name, decoded.
  std::optional<CaseResult> find(std::string_view name) const;
  /// Its index in report.cases.
  std::optional<std::size_t> index_of(std::string_view name) const;
  const NotRun* find_not_run(std::string_view name) const;

 private:
  const Report& report_;
  std::vector<std::uint32_t> by_name_;  // case indices, in name order
  std::unordered_map<std::string_view, const NotRun*> not_run_;
};

/// Sets a case's real time median, minimum and maximum and its CPU time
/// median from its repetitions' times (ns per operation; neither empty).
void set_times(CaseResult& c, std::vector<double> real_ns, std::vector<double> cpu_ns);

/// Reads an allocgate report or a Google Benchmark JSON with allocgate's
/// counters. Throws InputError naming the file and the problem: unreadable,
/// malformed, wrong schema version, no cases, duplicate names, negative or
/// non-numeric figures.
Report read_report(const std::filesystem::path& file);
/// read_report on a document built in memory (tests, the fuzzer): its text
/// goes through the same reader as a file's.
Report report_from_json(const nlohmann::json& json, const std::string& source);

nlohmann::json to_json(const Report& report);

/// The report as `allocgate run --out` writes it: to_json indented, with the
/// context ahead of the cases (JSON objects are unordered, and nlohmann
/// sorts keys), so that a reader, a person or a streaming parser, knows the
/// report's kind before its first case.
std::string report_text(const Report& report);
/// The same text, onto a stream a case at a time.
void print_report(std::ostream& out, const Report& report);

}  // namespace allocgate::reports
