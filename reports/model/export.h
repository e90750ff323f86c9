// SPDX-License-Identifier: Apache-2.0
// `allocgate export`: a report's figures in the formats of the benchmark
// trackers teams already run, so allocs/op sits beside their timings there.
#pragma once

#include <cstdint>
#include <iosfwd>

#include "report.h"

namespace allocgate::reports {

/// github-action-benchmark's `customSmallerIsBetter` input: an array of
/// {name, unit, value, range?, extra?}, one entry per case and figure
/// ("CASE - allocs/op", "CASE - bytes/op", "CASE - time"), the time's range
/// its spread over the repetitions, extra the toolchain and the top site.
void print_github_action_benchmark(std::ostream& out, const Report& report);

/// Bencher's Metric Format: {CASE: {MEASURE: {value, lower_value?,
/// upper_value?}}} with the measures allocs_per_op, bytes_per_op and latency
/// (nanoseconds, its bounds the repetitions' minimum and maximum).
void print_bencher_metric_format(std::ostream& out, const Report& report);

/// The scale of folded stacks' counts: allocations per that many operations,
/// the smallest power of ten at which every stack's allocs/op is a whole
/// number, up to kMostOperationsPerCount (or less, so that the largest
/// count stays below 2^53), where they are rounded.
struct FoldedScale {
  std::uint64_t operations_per_count = 1;
  bool rounded = false;
};
inline constexpr std::uint64_t kMostOperationsPerCount = 1000000;
FoldedScale folded_scale(const Report& report);

/// Folded stacks, a line per stack of every case that has stacks:
/// "CASE;outer;...;inner N", the case its root frame, N its allocations per
/// folded_scale()'s operations, a whole number in fixed notation: what
/// flamegraph.pl, inferno and speedscope read (their line rules take no
/// exponent, and speedscope's no fraction). A name's ';' is shown as ':'
/// (it separates frames) and its control characters and line separators
/// escaped, so a line is one stack. Prints nothing when no case has stacks
/// (has_stacks). Returns the scale it used.
FoldedScale print_collapsed_stacks(std::ostream& out, const Report& report);
bool has_stacks(const Report& report);

}  // namespace allocgate::reports
