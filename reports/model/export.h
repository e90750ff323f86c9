// SPDX-License-Identifier: Apache-2.0
// `allocgate export`: a report's figures in the formats of the benchmark
// trackers teams already run, so allocs/op sits beside their timings there.
#pragma once

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

/// Folded stacks, a line per stack of every case that has stacks:
/// "CASE;outer;...;inner N", N its allocs/op, the case its root frame: what
/// flamegraph.pl, inferno and speedscope read. A name's ';' is shown as ':'
/// (it separates frames) and its control characters escaped, so a line is
/// one stack. Prints nothing when no case has stacks (has_stacks).
void print_collapsed_stacks(std::ostream& out, const Report& report);
bool has_stacks(const Report& report);

}  // namespace allocgate::reports
