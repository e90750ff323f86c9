#include "context.h"

#include <openssl/opensslv.h>

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <string>

#include <CLI/Version.hpp>

#include "allocgate/scope.h"
#include "allocgate/toolchain.h"

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
    if (const char* value = std::getenv(name); value != nullptr && *value != '\0') return value;
  }
  return ALLOCGATE_CONFIGURED_GIT_COMMIT;
}

}  // namespace

nlohmann::json build_context() {
  bool hook_live = true;
  try {
    require_hook();
  } catch (const HookNotLinked&) {
    hook_live = false;
  }
  nlohmann::json context{
      {"date", utc_now()},
      {"executable", "allocgate"},
      {"allocgate_version", ALLOCGATE_VERSION},
      {"allocgate_toolchain", kToolchain},
      {"allocgate_hook_live", hook_live},
      {"compiler", ALLOCGATE_COMPILER},
      {"cxx_flags", ALLOCGATE_CXX_FLAGS},
      {"build_type", ALLOCGATE_BUILD_TYPE},
      {"library_build_type", ALLOCGATE_BUILD_TYPE},
      {"cxx_standard_library", standard_library()},
      {"library_versions",
       {{"benchmark", ALLOCGATE_BENCHMARK_VERSION},
        {"gtest", ALLOCGATE_GTEST_VERSION},
        {"nlohmann_json", std::to_string(NLOHMANN_JSON_VERSION_MAJOR) + "." +
                              std::to_string(NLOHMANN_JSON_VERSION_MINOR) + "." +
                              std::to_string(NLOHMANN_JSON_VERSION_PATCH)},
        {"cli11", CLI11_VERSION},
        {"openssl", OPENSSL_VERSION_TEXT}}},
  };
  const std::string commit = git_commit();
  if (!commit.empty()) context["git_commit"] = commit;
  return context;
}

}  // namespace allocgate::reports
