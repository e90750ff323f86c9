// SPDX-License-Identifier: Apache-2.0
// `allocgate profile CASE --heaptrack`: the case in a loop under heaptrack,
// the data file kept for heaptrack_gui, and heaptrack_print's summary read
// back. heaptrack sees what allocgate cannot (C mallocs, the runtime's own) and
// is the independent count the in-process figures are checked against.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace allocgate::reports {

struct HeaptrackAllocator {
  std::uint64_t calls = 0;
  std::string peak;      ///< as heaptrack prints it, e.g. "101.00K"
  std::string function;  ///< shortened by heaptrack_print
  std::string location;  ///< "file:line", or the library
};

struct HeaptrackSummary {
  std::string data_file;                ///< the .zst (or .gz) heaptrack wrote
  std::uint64_t calls = 0;              ///< calls to allocation functions, the whole process
  std::uint64_t temporary = 0;          ///< allocations freed right after
  std::string peak;                     ///< peak heap memory consumption
  std::vector<HeaptrackAllocator> top;  ///< most calls first
};

/// Runs `self loop CASE --runs RUNS` under heaptrack, writing
/// OUT_PREFIX.zst. Throws InputError when heaptrack or heaptrack_print is
/// missing (saying how to install it) or fails.
HeaptrackSummary run_under_heaptrack(const std::string& self, const std::string& case_name, long runs,
                                     const std::string& out_prefix);

/// Reads heaptrack_print's text (exposed for tests on recorded output).
HeaptrackSummary parse_heaptrack_print(const std::string& text);

}  // namespace allocgate::reports
