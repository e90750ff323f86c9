// SPDX-License-Identifier: Apache-2.0
// `allocgate table`: the case-study tables of a report (variant, ns/op, B/op,
// allocs/op, speedup over the reference, output equal) as markdown, or as a
// self-contained HTML page with SVG charts.
#pragma once

#include <iosfwd>

#include "report.h"

namespace allocgate::reports {

/// Per workload, at the case study's size: the table, then allocs/op by input
/// size. A report from another Google Benchmark binary gets one plain table.
void print_markdown_tables(std::ostream& out, const Report& report);

/// One page, no external resources: the tables, bar charts of allocs/op and
/// ns/op per variant, allocs/op against input size per variant, and each
/// workload's reference variant as a flame graph of its allocation stacks.
void print_html(std::ostream& out, const Report& report);

}  // namespace allocgate::reports
