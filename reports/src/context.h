// The report's context: what built allocgate and where it ran, so that two
// reports can be told apart and the gate picks the right bounds.
#pragma once

#include <nlohmann/json.hpp>

namespace allocgate::reports {

/// Compiler and version, flags, build type, C++ standard library, library
/// versions, toolchain key, date (UTC), git commit when known, and whether
/// the counting hook is live. Google Benchmark's own context (CPU, caches,
/// load) is merged in by the runner.
nlohmann::json build_context();

}  // namespace allocgate::reports
