// SPDX-License-Identifier: Apache-2.0
// The JSON keys of the report `allocgate run` writes and the readers read
// (which follows Google Benchmark's JSON, so Google Benchmark's own keys are
// here too). The counters and the context keys a benchmark binary adds are
// allocgate/report_keys.h's; a case's sites and stacks are site_summary.h's.
#pragma once

#include "allocgate/report_keys.h"
#include "capture/site_summary.h"

namespace allocgate::reports::keys {

using namespace allocgate::keys;
using site_summary::keys::kFile;
using site_summary::keys::kFrames;
using site_summary::keys::kFunction;
using site_summary::keys::kHint;
using site_summary::keys::kLine;
using site_summary::keys::kSites;
using site_summary::keys::kStacks;
using site_summary::keys::kTemporaryPerOp;

// --- context: what built the binary and where it ran --------------------------
inline constexpr const char* kSchemaVersion = "allocgate_schema_version";  ///< only in allocgate's reports
inline constexpr const char* kVersion = "allocgate_version";
inline constexpr const char* kWorkloads = "allocgate_workloads";  ///< name -> the three keys below
inline constexpr const char* kWorkloadSummary = "summary";
inline constexpr const char* kCaseStudySize = "case_study_size";
inline constexpr const char* kReferenceVariant = "reference_variant";
inline constexpr const char* kCountedRuns = "allocgate_counted_runs";
inline constexpr const char* kRepetitions = "allocgate_repetitions";
inline constexpr const char* kShard = "allocgate_shard";  ///< "I/N": `run --shard`; absent when whole
inline constexpr const char* kDate = "date";
inline constexpr const char* kExecutable = "executable";
inline constexpr const char* kCompiler = "compiler";
inline constexpr const char* kCxxFlags = "cxx_flags";
inline constexpr const char* kBuildType = "build_type";
inline constexpr const char* kStandardLibrary = "cxx_standard_library";
inline constexpr const char* kLibraryVersions = "library_versions";
inline constexpr const char* kGitCommit = "git_commit";
inline constexpr const char* kCpu = "cpu";
// Google Benchmark's own context keys.
inline constexpr const char* kNumCpus = "num_cpus";
inline constexpr const char* kMhzPerCpu = "mhz_per_cpu";
inline constexpr const char* kCpuScalingEnabled = "cpu_scaling_enabled";
inline constexpr const char* kLoadAvg = "load_avg";
inline constexpr const char* kHostName = "host_name";

// --- one entry of benchmarks[] -------------------------------------------------
// Google Benchmark's.
inline constexpr const char* kName = "name";
inline constexpr const char* kRunName = "run_name";
inline constexpr const char* kRunType = "run_type";  ///< "iteration" or "aggregate"
inline constexpr const char* kAggregateName = "aggregate_name";
inline constexpr const char* kFamilyIndex = "family_index";                       ///< Google Benchmark 1.6 on
inline constexpr const char* kFamilyInstanceIndex = "per_family_instance_index";  ///< likewise
inline constexpr const char* kErrorOccurred = "error_occurred";
inline constexpr const char* kErrorMessage = "error_message";
inline constexpr const char* kIterations = "iterations";
inline constexpr const char* kRepetitionIndex = "repetition_index";  ///< Google Benchmark 1.5.1 on, allocgate's tests
inline constexpr const char* kRealTime = "real_time";                ///< in allocgate's reports: the median
inline constexpr const char* kCpuTime = "cpu_time";                  ///< likewise
inline constexpr const char* kTimeUnit = "time_unit";
// allocgate's.
inline constexpr const char* kWorkload = "workload";
inline constexpr const char* kVariant = "variant";
inline constexpr const char* kSize = "size";
inline constexpr const char* kAllocsPerOpField = "allocs_per_op";    ///< also a bound's and a site's
inline constexpr const char* kBytesPerOpField = "bytes_per_op";      ///< likewise
inline constexpr const char* kAllocsPerOpMin = "allocs_per_op_min";  ///< present when repetitions differ
inline constexpr const char* kNsPerOpMin = "ns_per_op_min";
inline constexpr const char* kNsPerOpMax = "ns_per_op_max";
inline constexpr const char* kLeakedBytesPerOp = "leaked_bytes_per_op";                      ///< absent when not known
inline constexpr const char* kLeakedBytesPerOpCounter = allocgate::keys::kLeakedBytesPerOp;  ///< Google Benchmark's
inline constexpr const char* kNsPerOpRepetitions = "ns_per_op_repetitions";  ///< each repetition's, smallest first
inline constexpr const char* kOutputSha256 = "output_sha256";
inline constexpr const char* kEqualToReference = "equal_to_reference";
inline constexpr const char* kTestFailed = allocgate::keys::kTestFailed;  ///< a GoogleTest test that failed
inline constexpr const char* kSweep = allocgate::keys::kSweep;            ///< a test's failure sweep (sweep_result.h)

}  // namespace allocgate::reports::keys
