// SPDX-License-Identifier: Apache-2.0
// One case of a report: a benchmark's or a test's figures, as read from a
// report or measured by `allocgate run`. A report keeps its cases packed
// (case_list.h) and hands each out as one of these.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "capture/site_summary.h"
#include "sweep_result.h"

namespace allocgate::reports {

/// Where a case's allocations come from, per operation (`allocgate run
/// --sites`), and its stacks for the flame graph: written and cut to size as
/// --allocgate_sites writes them (site_summary.h).
using site_summary::SiteSummary;
using site_summary::StackSummary;

struct CaseResult {
  std::string name;  ///< "workload/variant/size", or a benchmark's own name
  // From the registry; empty / 0 for another binary's benchmarks.
  std::string workload;
  std::string variant;
  std::uint64_t size = 0;

  double allocs_per_op = 0;  ///< exact; an integer for deterministic code
  /// The smallest allocs/op of the repetitions, when they differ (the count
  /// is not deterministic); allocs_per_op is then the largest.
  std::optional<double> allocs_per_op_min;
  std::optional<double> bytes_per_op;
  std::optional<double> peak_bytes;  ///< live bytes above the operation's start, at their highest
  /// Bytes an operation allocated and left live after it, per operation;
  /// absent when a free's size was unknown (then it cannot be told, never guessed).
  std::optional<double> leaked_bytes_per_op;
  // Time per operation in nanoseconds over the repetitions (see set_times);
  // absent when the case was not timed.
  std::optional<double> ns_median, ns_min, ns_max;
  std::optional<double> cpu_ns_median;
  /// Each timed repetition's ns/op, smallest first: what compare's
  /// Mann-Whitney U test reads. Empty when the source had one figure only.
  std::vector<double> ns_repetitions;
  std::optional<std::int64_t> iterations;  ///< summed over the repetitions
  std::string output_sha256;
  std::optional<bool> equal_to_reference;
  bool test_failed = false;  ///< a GoogleTest test that failed (allocgate::gtest's reports)
  /// A test's bytes live at its end and still reachable (allocgate::gtest's
  /// reports: allocgate_kept_bytes); absent elsewhere.
  std::optional<double> kept_bytes;
  /// What function-local statics built during a test allocated, or its
  /// first run beyond its counted one (allocgate_one_time_allocs).
  std::optional<double> one_time_allocs;
  /// Of a test's allocations, those made on threads other than its own
  /// (allocgate_other_thread_allocs): its figures may vary with scheduling.
  std::optional<double> other_thread_allocs;
  std::vector<SiteSummary> sites;    ///< top sites, most allocations first; empty if not profiled
  std::vector<StackSummary> stacks;  ///< top stacks, for the HTML flame graph
  /// The test's failure sweep (allocgate_sweep); absent when it was not swept.
  std::optional<SweepSummary> sweep;
};

}  // namespace allocgate::reports
