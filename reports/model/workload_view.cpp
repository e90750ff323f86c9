// SPDX-License-Identifier: Apache-2.0
#include "workload_view.h"

#include <algorithm>
#include <set>

#include "format.h"
#include "json_keys.h"

namespace allocgate::reports {

std::vector<WorkloadView> arrange(const Report& report) {
  std::vector<WorkloadView> views;
  std::map<std::string, std::size_t> index;
  // Seen per view, so that arranging is linear in the cases however many
  // variants and sizes they have.
  std::vector<std::pair<std::set<std::string>, std::set<std::uint64_t>>> seen;
  for (const CaseResult& c : report.cases) {
    if (c.workload.empty()) continue;
    const auto [it, inserted] = index.try_emplace(c.workload, views.size());
    if (inserted) {
      views.push_back(WorkloadView{c.workload, {}, {}, {}, 0, {}});
      seen.emplace_back();
    }
    WorkloadView& v = views[it->second];
    auto& [variants, sizes] = seen[it->second];
    if (variants.insert(c.variant).second) v.variants.push_back(c.variant);
    if (sizes.insert(c.size).second) v.sizes.push_back(c.size);
    v.cases[{c.variant, c.size}] = std::make_shared<const CaseResult>(c);
  }
  // The reader checked these fields' types (report.cpp, check_context).
  const nlohmann::json workloads = report.context.value(keys::kWorkloads, nlohmann::json::object());
  for (WorkloadView& v : views) {
    std::sort(v.sizes.begin(), v.sizes.end());
    v.table_size = v.sizes[v.sizes.size() / 2];
    if (const auto w = workloads.find(v.name); w != workloads.end() && w->is_object()) {
      v.summary = w->value(keys::kWorkloadSummary, "");
      const auto size = w->value(keys::kCaseStudySize, std::uint64_t{0});
      if (std::find(v.sizes.begin(), v.sizes.end(), size) != v.sizes.end()) v.table_size = size;
      const std::string reference = w->value(keys::kReferenceVariant, "");
      const auto r = std::find(v.variants.begin(), v.variants.end(), reference);
      if (r != v.variants.end()) std::rotate(v.variants.begin(), r, r + 1);
    }
  }
  return views;
}

std::string optional_cell(const std::optional<double>& v) { return v ? files::readable(*v) : "-"; }
std::string time_cell(const CaseResult& c) { return c.ns_median ? files::nanoseconds(*c.ns_median) : "-"; }

std::string speedup(const CaseResult& c, const CaseResult* reference) {
  if (!reference || !reference->ns_median || !c.ns_median || *c.ns_median <= 0) return "-";
  return files::ratio(*reference->ns_median / *c.ns_median);
}

std::string equality(const CaseResult& c, bool is_reference) {
  if (is_reference) return "reference";
  if (!c.equal_to_reference) return "-";
  return *c.equal_to_reference ? "equal" : "DIFFERS";
}

}  // namespace allocgate::reports
