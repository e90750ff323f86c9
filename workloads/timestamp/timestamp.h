// SPDX-License-Identifier: Apache-2.0
// The timestamp workload (case study 2): N time points rendered as
// "seconds milliseconds" lines with common/rfc3339.h's two formatters.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "common/rfc3339.h"

namespace allocgate::workloads::timestamp {

using rfc3339::append;
using rfc3339::Civil;
using rfc3339::format_naive;
using rfc3339::format_to;
using rfc3339::kMaxLength;
using rfc3339::kMaxYear;
using rfc3339::kMinYear;
using rfc3339::Layout;
using rfc3339::TimePoint;
using rfc3339::to_civil;

// --- the workload's job: N time points as "seconds milliseconds" lines ------

/// The plain way: a fresh string, built from format_naive's strings.
std::string render_naive(std::span<const TimePoint> times);

/// Into the caller's buffer, reused across calls: no allocation once it has
/// grown to the output's size. False (out holds a prefix) on an out-of-range year.
bool render(std::span<const TimePoint> times, std::string& out);

/// n time points about 16 minutes apart from 2026-11-30T09:51:58.123Z.
std::vector<TimePoint> make_times(std::size_t n);

}  // namespace allocgate::workloads::timestamp
