// SPDX-License-Identifier: Apache-2.0
// The report's context: what built allocgate, where it ran and how, so that
// two reports can be told apart and the gate picks the right bounds. A struct
// filled by the runner and written to JSON in one place (to_json).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace allocgate::reports {

/// A workload as the tables need it: what it does, its reference variant and
/// the size its case study measured.
struct WorkloadInfo {
  std::string name;
  std::string summary;
  std::string reference_variant;
  std::uint64_t case_study_size = 0;
};

/// What Google Benchmark measured of the machine; only in a timed run.
struct MachineInfo {
  int num_cpus = 0;
  long mhz_per_cpu = 0;
  bool cpu_scaling_enabled = false;
  std::vector<double> load_avg;
  std::string host_name;
};

struct RunContext {
  // The build: fixed when allocgate was compiled.
  std::string allocgate_version;
  std::string toolchain;  ///< the bounds' section, e.g. gcc-12-libstdc++-12
  std::string compiler;
  std::string cxx_flags;
  std::string build_type;
  std::string standard_library;
  std::map<std::string, std::string> library_versions;
  // The run.
  std::string date;        ///< UTC, RFC 3339
  std::string git_commit;  ///< empty when unknown
  std::string cpu;         ///< /proc/cpuinfo's model name
  bool hook_live = false;
  int counted_runs = 0;
  std::optional<int> repetitions;  ///< timed runs only
  std::optional<MachineInfo> machine;
  std::vector<WorkloadInfo> workloads;
};

/// The build's fields, the date, the commit (ALLOCGATE_GIT_COMMIT or
/// GITHUB_SHA, else the one allocgate was configured from), the CPU model and
/// whether the counting hook is live.
RunContext build_context();

nlohmann::json to_json(const RunContext& context);

}  // namespace allocgate::reports
