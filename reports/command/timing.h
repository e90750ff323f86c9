// SPDX-License-Identifier: Apache-2.0
// The timing pass of `allocgate run`: each case registered as a Google
// Benchmark, inputs built and one warm-up operation outside the timed loop
// (timing.cpp). A build without Google Benchmark (the libcxx preset: Debian
// ships it built against libstdc++ only) links timing_unavailable.cpp and
// counts without timing.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "context.h"
#include "registry/workload.h"
#include "report.h"
#include "runner.h"

namespace allocgate::reports {

/// Called with a case's name once its last repetition is timed.
using CaseTimed = std::function<void(const std::string& name)>;

/// Whether this allocgate can time cases (was built with Google Benchmark).
bool timing_available();

/// Times the cases; sets each result's times and iterations by name.
MachineInfo time_cases(const std::vector<const workloads::CaseRef*>& cases, const RunOptions& options,
                       std::vector<CaseResult>& results, const CaseTimed& timed);

}  // namespace allocgate::reports
