// SPDX-License-Identifier: Apache-2.0
// `allocgate table`: the case-study tables of a report (variant, ns/op, B/op,
// allocs/op, speedup over the reference, output equal) as markdown (table.cpp),
// or as one self-contained HTML page of tables, charts and flame graphs
// (report_page.cpp; docs/pages.md).
#pragma once

#include <iosfwd>

#include "report.h"

namespace allocgate::reports {

/// Per workload, at the case study's size: the table, then allocs/op by input
/// size. A report from another Google Benchmark binary gets one plain table.
void print_markdown_tables(std::ostream& out, const Report& report);

/// One page that opens offline, for any report: per workload or benchmark
/// family its table, allocs/op, bytes/op and time against the argument (or a
/// bar per case), each case's stacks as a flame graph and its sites.
void print_html(std::ostream& out, const Report& report);

}  // namespace allocgate::reports
