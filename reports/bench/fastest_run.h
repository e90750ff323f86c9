// SPDX-License-Identifier: Apache-2.0
// What the side-by-side benchmarks keep of Google Benchmark's results: each
// benchmark's fastest repetition, the least disturbed on a shared machine.
#pragma once

#include <benchmark/benchmark.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace allocgate::bench {

/// The statistic to register: `->ComputeStatistics("min", fastest)`.
inline double fastest(const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); }

/// Prints as the console reporter does and keeps, per benchmark, its "min"
/// aggregate: wall seconds per iteration and its `cpu_s` counter (0 if none).
/// Over several RunSpecifiedBenchmarks calls with one reporter, the fastest
/// of them.
class FastestRuns : public benchmark::ConsoleReporter {
 public:
  struct Figures {
    double seconds = 0;
    double cpu_seconds = 0;
  };
  std::map<std::string, Figures> fastest;

  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      if (run.aggregate_name != "min") continue;
      const auto cpu = run.counters.find("cpu_s");
      const Figures figures{run.GetAdjustedRealTime() / benchmark::GetTimeUnitMultiplier(run.time_unit),
                            cpu != run.counters.end() ? cpu->second.value : 0};
      const auto [it, first] = fastest.try_emplace(run.run_name.function_name, figures);
      if (!first && figures.seconds < it->second.seconds) it->second = figures;
    }
    ConsoleReporter::ReportRuns(runs);
  }
};

}  // namespace allocgate::bench
