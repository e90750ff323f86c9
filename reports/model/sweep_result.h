// SPDX-License-Identifier: Apache-2.0
// A test's failure sweep as a report carries it (allocgate_sweep, written by
// a test binary run with --allocgate_fail_each): what the test did when each
// of its allocations failed in turn, and each bad outcome with its line.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace allocgate::reports {

/// One bad outcome: the failing allocation, what the test did, where.
struct SweepFindingResult {
  std::uint64_t point = 0;  ///< the failing allocation, from 0 among the test's
  std::string outcome;      ///< "leaked", "swallowed", "terminated", "crashed", "hung"
  std::string line;         ///< the project's frame: "function (file:line)"; empty when unknown
  std::string detail;       ///< "73 bytes in 2 blocks", "signal 11"...
  bool on_purpose = false;  ///< the bounds file the test ran with marks it on purpose
};

struct SweepSummary {
  std::uint64_t attempts = 0;                                   ///< the test's allocation attempts, none failing
  std::uint64_t tried = 0;                                      ///< failure points run
  std::vector<std::pair<std::string, std::uint64_t>> outcomes;  ///< by outcome name, in the report's order
  bool nondeterministic = false;  ///< two runs with no failure allocated differently: not to be trusted
  std::vector<SweepFindingResult> findings;
};

}  // namespace allocgate::reports
