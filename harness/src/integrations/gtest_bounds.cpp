// SPDX-License-Identifier: Apache-2.0
// EXPECT_ALLOCATIONS_WITHIN_BOUNDS: a statement against the bounds file the
// gate reads (bounds/bounds_file.h), recorded with ALLOCGATE_UPDATE=1.

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>

#include "allocgate/gtest.h"
#include "bounds_file.h"
#include "format.h"
#include "input_error.h"

namespace allocgate::testing {
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

::testing::AssertionResult check_recorded(const char* statement, const MeasuredStatement& measured, const char* name,
                                          const char* toolchain, const char* default_file) {
  PauseCounting pause;  // reading the bounds is not the statement's work
  std::string file = environment("ALLOCGATE_BOUNDS");
  if (file.empty()) file = default_file;
  if (file.empty()) {
    return ::testing::AssertionFailure() << "no bounds file for `" << statement
                                         << "`: set ALLOCGATE_BOUNDS, or allocgate_test_bounds(TARGET FILE path) "
                                            "in CMake";
  }
  const bool recording = environment("ALLOCGATE_UPDATE") == "1";
  try {
    if (recording) record(file, toolchain, name, measured.stats);
    if (!recording && !std::filesystem::exists(file)) {
      return ::testing::AssertionFailure() << file << " does not exist; record the bounds of " << name
                                           << " with: ALLOCGATE_UPDATE=1 and the same test command";
    }
    const BoundsFile bounds = bounds::read_bounds(file);
    const auto section = bounds.toolchains.find(toolchain);
    std::optional<RecordedBound> bound;
    if (section != bounds.toolchains.end()) bound = section->second.find(name);
    if (!bound) {
      return ::testing::AssertionFailure()
             << "no bound recorded for " << name << " [" << toolchain << "] in " << file << " (measured "
             << figures(measured.stats) << "); record it with: ALLOCGATE_UPDATE=1 and the same test command";
    }
    const std::string over = excess(measured.stats, *bound);
    if (over.empty()) return ::testing::AssertionSuccess();
    ::testing::AssertionResult failure = ::testing::AssertionFailure();
    failure << "`" << statement << "` exceeds the bound recorded for " << name << " [" << toolchain << "] in " << file
            << ": " << over << (recording ? " (not recorded: bounds only tighten)" : "")
            << "\n  measured: " << measured.stats;
    if (measured.stats.allocations > 0) failure << "\n  top sites:\n" << measured.sites->profile().top(5);
    return failure;
  } catch (const files::InputError& e) {
    return ::testing::AssertionFailure() << e.what();
  }
}

}  // namespace allocgate::testing
