// SPDX-License-Identifier: Apache-2.0
// The canary workload, and the same workload with a regressed "optimized"
// variant: two registrations of one name, for two test builds of allocgate.

#include "canary.h"
#include "registry/text_case.h"
#include "registry/workload.h"

namespace allocgate::workloads {
namespace {

Workload canary_with(std::unique_ptr<Case> (*optimized)(std::size_t)) {
  return Workload{"canary",
                  "object keys, one per line (test only)",
                  {{"naive", &make_text_case<&canary::make_keys, &canary::render_naive>}, {"optimized", optimized}},
                  {10, 100, 1000},
                  100};
}

}  // namespace

Workload canary_workload() { return canary_with(&make_text_case<&canary::make_keys, &canary::render>); }
Workload canary_regressed_workload() {
  return canary_with(&make_text_case<&canary::make_keys, &canary::render_regressed>);
}
// The same as canary, for a build of these sources without line tables.
Workload canary_without_lines_workload() { return canary_workload(); }

}  // namespace allocgate::workloads
