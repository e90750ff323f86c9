// SPDX-License-Identifier: Apache-2.0
// The access-log report of case study 3 in its four steps: total the response
// bytes per path over lines like "203.0.113.7 GET /library/post-12 200 4521"
// and render "path total" lines sorted by path.
//
// Every version applies the same rule: a line has exactly five fields
// separated by single spaces, the fifth is one or more ASCII digits whose
// value fits int64_t, and adding it must not overflow the path's total.
// Any other line is malformed: skipped and counted.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace allocgate::workloads::log_report {

struct Report {
  std::string text;
  std::size_t malformed = 0;
};

/// v1, the first draft: split each line into strings, std::stoll, a
/// std::map, and the output concatenated from temporaries.
Report report_v1(std::span<const std::string> lines);

/// v2: a presized hash map and key list, the output built in one presized
/// buffer with std::to_chars. Still splits every line.
Report report_v2(std::span<const std::string> lines);

/// v3: std::string_view cuts instead of splitting; only the 40-odd map keys
/// are copied.
Report report_v3(std::span<const std::string> lines);

/// v4: the scratch state (table, key order, output buffer) lives in the
/// Reporter and is reused, so a warm Reporter makes no allocation at all.
/// Not thread-safe; one Reporter per thread.
class Reporter {
 public:
  /// The report; valid until the next run or the Reporter's destruction.
  std::string_view run(std::span<const std::string> lines);
  /// Malformed lines in the last run.
  std::size_t malformed() const { return malformed_; }

 private:
  // An open-addressing table keyed by views into the caller's lines. A slot
  // belongs to this run only when its stamp equals stamp_, so starting a run
  // is one increment: nothing is freed, unlike std::unordered_map::clear,
  // which frees every node.
  struct Slot {
    std::string_view path;
    std::int64_t total = 0;
    std::uint32_t stamp = 0;
  };
  Slot* find_or_insert(std::string_view path);
  void grow();

  std::vector<Slot> slots_;
  std::vector<std::uint32_t> used_;  // indices of this run's slots
  std::string out_;
  std::uint32_t stamp_ = 0;
  std::size_t malformed_ = 0;
};

/// The case study's makeLog(n): 250 addresses, 40 paths, sizes 1000-7999.
std::vector<std::string> make_log(std::size_t n);

}  // namespace allocgate::workloads::log_report
