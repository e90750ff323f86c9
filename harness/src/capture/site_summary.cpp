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
    StackSummary stack{{}, static_cast<double>(profile.stacks[i].count) / operations};
    if (profile.stacks[i].truncated || frames.size() > kFrames) stack.frames.emplace_back(kTruncatedFrame);
    for (std::size_t f = frames.size() > kFrames ? frames.size() - kFrames : 0; f < frames.size(); ++f) {
      stack.frames.push_back(frames[f].function);
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
    json.push_back({{keys::kFrames, stack.frames}, {keys::kAllocsPerOp, json_number(stack.allocs_per_op)}});
  }
  return json;
}

}  // namespace allocgate::site_summary
