// SPDX-License-Identifier: Apache-2.0
// What a report keeps of a case's call-site profile, and its JSON: the one
// policy (the top sites; the top stacks cut to their innermost frames, with
// function names only, for the flame graph) and the one writer, shared by
// --allocgate_sites in benchmark binaries and by the allocgate command's
// reports. Not installed: the format is the report's, not an API.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "allocgate/site_frame.h"
#include "allocgate/sites.h"

namespace allocgate::site_summary {

/// The JSON keys of a case's sites and stacks.
namespace keys {
inline constexpr const char* kSites = "sites";  ///< [{function, file, line, allocs_per_op, bytes_per_op}]
inline constexpr const char* kFunction = "function";
inline constexpr const char* kFile = "file";
inline constexpr const char* kLine = "line";
inline constexpr const char* kAllocsPerOp = "allocs_per_op";
inline constexpr const char* kBytesPerOp = "bytes_per_op";
inline constexpr const char* kTemporaryPerOp = "temporary_per_op";  ///< of allocs_per_op, freed before the next
inline constexpr const char* kHint = "hint";                        ///< the usual fix, when one is known
inline constexpr const char* kStacks =
    "stacks";  ///< [{frames, locations, allocs_per_op, bytes_per_op, temporary_per_op}]
inline constexpr const char* kFrames = "frames";
inline constexpr const char* kLocations = "locations";  ///< each frame's "file:line", "" where unknown
}  // namespace keys

/// The outermost frame of a stack that was cut (the report keeps the innermost
/// kFrames, the unwinder at most its limit): never a silently shorter stack.
inline constexpr const char* kTruncatedFrame = "[truncated]";

/// How much of a profile a report keeps. Every site, up to what readers
/// take: the gate and compare set a case's sites against its base's, where
/// a site missing from one side would read as a change there.
inline constexpr std::size_t kSites = 1000;
inline constexpr std::size_t kStacks = 12;
inline constexpr std::size_t kFrames = 20;

/// A site's figures per operation.
struct SiteSummary {
  SiteSummary(SiteFrame where, double allocs, double bytes, double temporary = 0, std::string fix = {})
      : SiteSummary(std::make_shared<const SiteFrame>(std::move(where)), allocs, bytes, temporary, std::move(fix)) {}
  SiteSummary(std::shared_ptr<const SiteFrame> where, double allocs, double bytes, double temporary = 0,
              std::string fix = {})
      : frame(std::move(where)),
        allocs_per_op(allocs),
        bytes_per_op(bytes),
        temporary_per_op(temporary),
        hint(std::move(fix)) {}

  /// The frame: file relative to the source tree.
  const SiteFrame& where() const { return *frame; }

  /// Shared by every case of a report that names the frame (a report reader
  /// holds each once): a report of 100,000 cases names a few hundred frames,
  /// and their strings were a quarter of its size in memory.
  std::shared_ptr<const SiteFrame> frame;
  double allocs_per_op = 0;
  double bytes_per_op = 0;
  /// Of allocs_per_op, those freed before the thread's next allocation.
  double temporary_per_op = 0;
  /// The usual fix, from the standard library's frames under the site; empty
  /// when no pattern fits.
  std::string hint;
};

/// A distinct allocation stack of one operation, outermost frame first, each
/// frame a function name: what a flame graph is drawn from.
struct StackSummary {
  std::vector<std::string> frames;     ///< functions, outermost first
  std::vector<std::string> locations;  ///< each frame's "file:line", "" where unknown; empty: none known
  double allocs_per_op = 0;
  double bytes_per_op = 0;
  double temporary_per_op = 0;  ///< of allocs_per_op, freed before the thread's next allocation
};

struct Summary {
  std::vector<SiteSummary> sites;    ///< most allocations first
  std::vector<StackSummary> stacks;  ///< most allocations first
};

/// The sites (up to kSites) and the top kStacks stacks (their innermost kFrames frames,
/// below a kTruncatedFrame where any were cut)
/// of a profile of `operations` operations, per operation.
Summary summarize(const SiteProfile& profile, double operations);

nlohmann::json sites_json(const std::vector<SiteSummary>& sites);
nlohmann::json stacks_json(const std::vector<StackSummary>& stacks);

}  // namespace allocgate::site_summary
