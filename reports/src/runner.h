// `allocgate run`: every registered case (or those a filter picks), timed with
// Google Benchmark and counted with the harness in a separate pass, so the
// counting never skews the times.
#pragma once

#include <iosfwd>
#include <string>

#include "report.h"

namespace allocgate::reports {

struct RunOptions {
  std::string filter;           ///< ECMAScript regex searched in case names; empty: all
  int repetitions = 3;          ///< timed repetitions per case (median, min, max)
  double min_time = 0.1;        ///< seconds per repetition
  int counted_runs = 5;         ///< operations counted after the warm-up
  bool time = true;             ///< false: allocation figures and hashes only
};

/// Runs the cases; progress goes to `progress` once the run has taken more
/// than a second. Throws InputError for a filter that is not a regex or
/// matches no case.
Report run_cases(const RunOptions& options, std::ostream& progress);

/// One operation of the named case; its output bytes. Throws InputError for
/// an unknown case name.
std::string case_output(const std::string& name);

}  // namespace allocgate::reports
