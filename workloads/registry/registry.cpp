// SPDX-License-Identifier: Apache-2.0
#include <algorithm>

#include "workload.h"

namespace allocgate::workloads {

std::span<const CaseRef> all_cases() {
  static const std::vector<CaseRef> cases = [] {
    std::vector<CaseRef> list;
    for (const Workload& w : all_workloads()) {
      for (const Variant& v : w.variants) {
        for (const std::size_t n : w.sizes) {
          list.push_back({&w, &v, n, std::string(w.name) + "/" + std::string(v.name) + "/" + std::to_string(n)});
        }
      }
    }
    return list;
  }();
  return cases;
}

const CaseRef* find_case(std::string_view name) {
  const auto cases = all_cases();
  const auto it = std::find_if(cases.begin(), cases.end(), [&](const CaseRef& c) { return c.name == name; });
  return it != cases.end() ? &*it : nullptr;
}

}  // namespace allocgate::workloads
