// SPDX-License-Identifier: Apache-2.0
#include "capture/site_summary.h"

#include "json_file.h"

namespace allocgate::site_summary {

using files::json_number;

Summary summarize(const SiteProfile& profile, double operations) {
  Summary summary;
  for (std::size_t i = 0; i < profile.sites.size() && i < kSites; ++i) {
    const Site& site = profile.sites[i];
    summary.sites.emplace_back(site.where, static_cast<double>(site.count) / operations,
                               static_cast<double>(site.bytes) / operations,
                               static_cast<double>(site.temporary) / operations, site.hint);
  }
  for (std::size_t i = 0; i < profile.stacks.size() && i < kStacks; ++i) {
    const std::vector<SiteFrame>& frames = profile.stacks[i].frames;
    const StackSample& sample = profile.stacks[i];
    StackSummary stack{{},
                       {},
                       static_cast<double>(sample.count) / operations,
                       static_cast<double>(sample.bytes) / operations,
                       static_cast<double>(sample.temporary) / operations};
    if (sample.truncated || frames.size() > kFrames) {
      stack.frames.emplace_back(kTruncatedFrame);
      stack.locations.emplace_back();
    }
    for (std::size_t f = frames.size() > kFrames ? frames.size() - kFrames : 0; f < frames.size(); ++f) {
      stack.frames.push_back(frames[f].function);
      stack.locations.push_back(frames[f].file.empty() ? std::string()
                                                       : frames[f].file + ":" + std::to_string(frames[f].line));
    }
    summary.stacks.push_back(std::move(stack));
  }
  return summary;
}

nlohmann::json sites_json(const std::vector<SiteSummary>& sites) {
  nlohmann::json json = nlohmann::json::array();
  for (const SiteSummary& site : sites) {
    nlohmann::json entry{{keys::kFunction, site.where().function},
                         {keys::kFile, site.where().file},
                         {keys::kLine, site.where().line},
                         {keys::kAllocsPerOp, json_number(site.allocs_per_op)},
                         {keys::kBytesPerOp, json_number(site.bytes_per_op)},
                         {keys::kTemporaryPerOp, json_number(site.temporary_per_op)}};
    if (!site.hint.empty()) entry[keys::kHint] = site.hint;
    json.push_back(std::move(entry));
  }
  return json;
}

nlohmann::json stacks_json(const std::vector<StackSummary>& stacks) {
  nlohmann::json json = nlohmann::json::array();
  for (const StackSummary& stack : stacks) {
    nlohmann::json entry{{keys::kFrames, stack.frames},
                         {keys::kAllocsPerOp, json_number(stack.allocs_per_op)},
                         {keys::kBytesPerOp, json_number(stack.bytes_per_op)},
                         {keys::kTemporaryPerOp, json_number(stack.temporary_per_op)}};
    if (!stack.locations.empty()) entry[keys::kLocations] = stack.locations;
    json.push_back(std::move(entry));
  }
  return json;
}

}  // namespace allocgate::site_summary
