// SPDX-License-Identifier: Apache-2.0
// The recorded allocation bounds the gate checks a report against, kept per
// toolchain key because counts differ between compilers and standard
// libraries:
//
//   {"allocgate_bounds_version": 1,
//    "toolchains": {"gcc-12-libstdc++-12": {
//        "xml_listing/optimized/1000": {"allocs_per_op": 0, "note": "why it matters"},
//        "log_report/v3/2000": {"allocs_per_op": 73, "tolerance": 2, "bytes_per_op": 4567}}},
//    "limits": [{"leaked_bytes_per_op": 0, "note": "no test leaks"},
//               {"cases": "Cache\\..*", "peak_bytes": 65536}]}
#pragma once

#include <filesystem>
#include <functional>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "toolchain_bounds.h"

namespace allocgate::bounds {

inline constexpr int kBoundsSchemaVersion = 1;

/// A rule for a whole suite, in every toolchain: each figure it sets is a
/// most for every case whose name `cases` matches, unless the case's own
/// bound sets that figure. "No test leaks" is {"leaked_bytes_per_op": 0}.
struct Limit {
  std::string cases;  ///< an RE2 pattern the whole name must match; empty: every case
  std::optional<double> allocs_per_op;
  std::optional<double> bytes_per_op;
  std::optional<double> peak_bytes;
  std::optional<double> leaked_bytes_per_op;
  std::string note;
};

struct BoundsFile {
  std::map<std::string, ToolchainBounds> toolchains;
  std::vector<Limit> limits;  ///< in the file's order; --update keeps them as they are
};

/// Throws InputError naming the file and the problem.
BoundsFile read_bounds(const std::filesystem::path& file);

/// Reads the file (no bounds when it does not exist yet), lets change()
/// rewrite the bounds, and writes them back atomically, all under an
/// exclusive lock on the file's directory, so that concurrent updates (two toolchains'
/// jobs, ctest -j recording) lose nothing. Throws InputError.
void update_bounds_file(const std::filesystem::path& file, const std::function<void(BoundsFile&)>& change);
/// read_bounds on a document built in memory (tests, the fuzzer): its text
/// goes through the same reader as a file's.
BoundsFile bounds_from_json(const nlohmann::json& json, const std::string& source);
nlohmann::json to_json(const BoundsFile& bounds);
/// to_json(bounds).dump(2) and a newline, onto a stream a bound at a time.
void print_bounds(std::ostream& out, const BoundsFile& bounds);

}  // namespace allocgate::bounds
