// SPDX-License-Identifier: Apache-2.0
// A statement's figures against the bounds file the gate reads
// (bounds/bounds_file.h), recorded with ALLOCGATE_UPDATE=1: what
// EXPECT_ALLOCATIONS_WITHIN_BOUNDS checks (gtest_bounds.cpp). Framework-free
// and prebuilt, so the bounds file's JSON stays out of a project's build.

#include "integrations/core/recorded_check.h"

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string>

#include "allocgate/guards.h"
#include "bounds_file.h"
#include "format.h"
#include "input_error.h"

namespace allocgate::integrations {
namespace {

using RecordedBound = bounds::Bound;
using bounds::BoundsFile;

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

std::string figures(const AllocationStats& stats) {
  return std::to_string(stats.allocations) + " allocation(s), " + std::to_string(stats.bytes_allocated) + " bytes";
}

// Where a statement exceeds its bound; empty when it does not.
std::string excess(const AllocationStats& measured, const RecordedBound& bound) {
  const auto allocations = static_cast<double>(measured.allocations);
  if (allocations > bound.allocs_per_op + bound.tolerance) {
    return "allocations " + std::to_string(measured.allocations) + " > bound " + files::exact(bound.allocs_per_op) +
           (bound.tolerance > 0 ? " + tolerance " + files::exact(bound.tolerance) : "");
  }
  const auto bytes = static_cast<double>(measured.bytes_allocated);
  if (bound.bytes_per_op && bytes > *bound.bytes_per_op + bound.bytes_tolerance) {
    return "bytes " + std::to_string(measured.bytes_allocated) + " > bound " + files::exact(*bound.bytes_per_op);
  }
  return {};
}

// Records the statement's figures as its bound: added when missing, lowered
// when below; a higher count is never recorded (that is a regression).
void record(const std::string& file, const std::string& toolchain, const std::string& name,
            const AllocationStats& measured) {
  bounds::update_bounds_file(file, [&](BoundsFile& bounds) {
    auto& section = bounds.toolchains[toolchain];
    const auto allocations = static_cast<double>(measured.allocations);
    const auto bytes = static_cast<double>(measured.bytes_allocated);
    const auto at = section.index_of(name);
    if (!at) {
      RecordedBound b;
      b.allocs_per_op = allocations;
      b.bytes_per_op = bytes;
      section.add(name, b);
      section.sort();  // a name not in the section: none twice
      return;
    }
    RecordedBound b = section[*at].bound;
    const bool fewer = allocations < b.allocs_per_op;
    const bool smaller = b.bytes_per_op && bytes < *b.bytes_per_op;
    if (fewer) b.allocs_per_op = allocations;
    if (smaller) b.bytes_per_op = bytes;
    if (fewer || smaller) section.set(*at, b);  // a set keeps a new record
  });
}

}  // namespace

std::string check_recorded_bound(const char* statement, const AllocationStats& measured, const CaptureSites& sites,
                                 const char* name, const char* toolchain, const char* default_file) {
  PauseCounting pause;  // reading the bounds is not the statement's work
  std::string file = environment("ALLOCGATE_BOUNDS");
  if (file.empty()) file = default_file;
  std::ostringstream failure;
  if (file.empty()) {
    failure << "no bounds file for `" << statement
            << "`: set ALLOCGATE_BOUNDS, or allocgate_test_bounds(TARGET FILE path) in CMake";
    return failure.str();
  }
  const bool recording = environment("ALLOCGATE_UPDATE") == "1";
  try {
    if (recording) record(file, toolchain, name, measured);
    if (!recording && !std::filesystem::exists(file)) {
      failure << file << " does not exist; record the bounds of " << name
              << " with: ALLOCGATE_UPDATE=1 and the same test command";
      return failure.str();
    }
    const BoundsFile bounds = bounds::read_bounds(file);
    const auto section = bounds.toolchains.find(toolchain);
    std::optional<RecordedBound> bound;
    if (section != bounds.toolchains.end()) bound = section->second.find(name);
    if (!bound) {
      failure << "no bound recorded for " << name << " [" << toolchain << "] in " << file << " (measured "
              << figures(measured) << "); record it with: ALLOCGATE_UPDATE=1 and the same test command";
      return failure.str();
    }
    const std::string over = excess(measured, *bound);
    if (over.empty()) return {};
    failure << "`" << statement << "` exceeds the bound recorded for " << name << " [" << toolchain << "] in " << file
            << ": " << over << (recording ? " (not recorded: bounds only tighten)" : "")
            << "\n  measured: " << measured;
    if (measured.allocations > 0) failure << "\n  top sites:\n" << sites.profile().top(5);
    return failure.str();
  } catch (const files::InputError& e) {
    return e.what();
  }
}

}  // namespace allocgate::integrations
