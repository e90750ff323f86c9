// SPDX-License-Identifier: Apache-2.0
// Several runs of one suite, unchanged, read as one report for `diff
// --update`: a case whose figures differ from run to run (a test whose
// threads' scheduling decides how much a queue or a worker allocates) is
// recorded as the range the runs saw, a tolerance in its bound that a reader
// of the bounds file sees, and the gate then passes any run inside it. A
// case the same in every run keeps an exact bound.
#pragma once

#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

#include "merge.h"
#include "report.h"

namespace allocgate::reports {

/// How far apart a case's figures were in the runs that had it.
struct Spread {
  double allocs_min = 0, allocs_max = 0;
  double bytes_min = 0, bytes_max = 0;
  std::size_t runs = 0;
  bool varies() const { return allocs_max > allocs_min || bytes_max > bytes_min; }
};
using Spreads = std::unordered_map<std::string, Spread>;

/// The runs as one report: each case once, with the most each figure
/// reached in any run; a test that failed in any run is failed. `spreads`
/// gets every case whose figures differ between runs. The runs must name
/// the same toolchain, and a case must be in every run (a run of another
/// --filter is not a run of the same suite). Throws InputError.
Report fold_runs(std::vector<NamedReport> runs, Spreads& spreads);

/// "varies between 3 runs: allocs/op 2087-2091, bytes/op 100-140".
std::string describe(const std::string& name, const Spread& spread);

}  // namespace allocgate::reports
