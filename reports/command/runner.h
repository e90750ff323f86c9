// SPDX-License-Identifier: Apache-2.0
// `allocgate run`: every registered case (or those a filter picks), timed with
// Google Benchmark and counted with the harness in a separate pass, so the
// counting never skews the times.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>

#include "allocgate/sites.h"
#include "report.h"
#include "shard.h"

namespace allocgate::reports {

struct RunOptions {
  std::string filter;     ///< RE2 regular expression searched in case names; empty: all
  int repetitions = 5;    ///< timed repetitions per case: 4 or more let compare tell a time change from noise
  double min_time = 0.1;  ///< seconds per repetition
  int counted_runs = 5;   ///< operations counted after the warm-up
  bool time = true;       ///< false: allocation figures and hashes only
  bool sites = false;     ///< also capture each case's top allocation sites
  Shard shard;            ///< the whole run unless set
};

/// Runs the cases; progress goes to `progress` once the run has taken more
/// than a second. Throws InputError for a filter that is not a regex or
/// matches no case.
Report run_cases(const RunOptions& options, std::ostream& progress);

/// One operation of the named case; its output bytes. Throws InputError for
/// an unknown case name.
std::string case_output(const std::string& name);

/// The call sites of one operation of the named case (after a warm-up one),
/// paths relative to allocgate's source tree.
allocgate::SiteProfile profile_case(const std::string& name,
                                    allocgate::Unwinder unwinder = allocgate::Unwinder::kCached);

/// Runs the named case `runs` times after a warm-up: a loop for an external
/// profiler such as heaptrack to watch. With `sites`, captures the call sites
/// of every run and returns their profile (empty otherwise).
allocgate::SiteProfile loop_case(const std::string& name, long runs, bool sites = false);

}  // namespace allocgate::reports
