// SPDX-License-Identifier: Apache-2.0
#include "context.h"

#include <openssl/opensslv.h>

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <string>

#include <CLI/Version.hpp>

#include "allocgate/scope.h"
#include "allocgate/toolchain.h"
#include "escape.h"
#include "input_error.h"
#include "json_keys.h"

namespace allocgate::reports {
namespace {

std::string standard_library() {
#if defined(_LIBCPP_VERSION)
  return "libc++ " + std::to_string(_LIBCPP_VERSION);
#elif defined(__GLIBCXX__)
  return "libstdc++ " + std::to_string(_GLIBCXX_RELEASE) + " (" + std::to_string(__GLIBCXX__) + ")";
#else
  return "unknown";
#endif
}

std::string utc_now() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

// The commit CI names (GITHUB_SHA, or ALLOCGATE_GIT_COMMIT), else the one
// this binary was configured from.
std::string git_commit() {
  for (const char* name : {"ALLOCGATE_GIT_COMMIT", "GITHUB_SHA"}) {
    if (const char* value = std::getenv(name); value != nullptr && *value != '\0') {
      // It goes into the report, which is JSON text.
      if (!files::valid_utf8(value)) {
        throw files::InputError(std::string(name) + " is not valid UTF-8: " + value);
      }
      return value;
    }
  }
  return ALLOCGATE_CONFIGURED_GIT_COMMIT;
}

std::string cpu_model() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(' ', colon + 1));
    }
  }
  return "unknown";
}

bool hook_live() {
  try {
    require_hook();
    return true;
  } catch (const HookNotLinked&) {
    return false;
  }
}

}  // namespace

RunContext build_context() {
  RunContext context;
  context.allocgate_version = ALLOCGATE_VERSION;
  context.toolchain = kToolchain;
  context.compiler = ALLOCGATE_COMPILER;
  context.cxx_flags = ALLOCGATE_CXX_FLAGS;
  context.build_type = ALLOCGATE_BUILD_TYPE;
  context.standard_library = standard_library();
  context.library_versions = {{"benchmark", ALLOCGATE_BENCHMARK_VERSION},
                              {"gtest", ALLOCGATE_GTEST_VERSION},
                              {"nlohmann_json", std::to_string(NLOHMANN_JSON_VERSION_MAJOR) + "." +
                                                    std::to_string(NLOHMANN_JSON_VERSION_MINOR) + "." +
                                                    std::to_string(NLOHMANN_JSON_VERSION_PATCH)},
                              {"cli11", CLI11_VERSION},
                              {"openssl", OPENSSL_VERSION_TEXT}};
  context.date = utc_now();
  context.git_commit = git_commit();
  context.cpu = cpu_model();
  context.hook_live = hook_live();
  return context;
}

nlohmann::json to_json(const RunContext& c) {
  nlohmann::json json{{keys::kDate, c.date},
                      {keys::kExecutable, "allocgate"},
                      {keys::kVersion, c.allocgate_version},
                      {keys::kToolchain, c.toolchain},
                      {keys::kHookLive, c.hook_live},
                      {keys::kCompiler, c.compiler},
                      {keys::kCxxFlags, c.cxx_flags},
                      {keys::kBuildType, c.build_type},
                      {keys::kStandardLibrary, c.standard_library},
                      {keys::kLibraryVersions, c.library_versions},
                      {keys::kCpu, c.cpu},
                      {keys::kCountedRuns, c.counted_runs}};
  if (!c.git_commit.empty()) json[keys::kGitCommit] = c.git_commit;
  if (c.repetitions) json[keys::kRepetitions] = *c.repetitions;
  if (c.machine) {
    json[keys::kNumCpus] = c.machine->num_cpus;
    json[keys::kMhzPerCpu] = c.machine->mhz_per_cpu;
    json[keys::kCpuScalingEnabled] = c.machine->cpu_scaling_enabled;
    json[keys::kLoadAvg] = c.machine->load_avg;
    json[keys::kHostName] = c.machine->host_name;
  }
  nlohmann::json workloads = nlohmann::json::object();
  for (const WorkloadInfo& w : c.workloads) {
    workloads[w.name] = {{keys::kWorkloadSummary, w.summary},
                         {keys::kCaseStudySize, w.case_study_size},
                         {keys::kReferenceVariant, w.reference_variant}};
  }
  json[keys::kWorkloads] = std::move(workloads);
  return json;
}

}  // namespace allocgate::reports
