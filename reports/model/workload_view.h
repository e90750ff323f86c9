// SPDX-License-Identifier: Apache-2.0
// A report's workload cases arranged by workload, variant and size, and the
// cells that both of its renderings print (table.cpp's markdown,
// report_page.cpp's HTML), so that the two say the same.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "report.h"

namespace allocgate::reports {

// The cases of one workload, arranged by variant and size.
struct WorkloadView {
  std::string name;
  std::string summary;
  std::vector<std::string> variants;  // in report order; the reference first
  std::vector<std::uint64_t> sizes;   // ascending
  std::uint64_t table_size = 0;       // the size the main table shows
  // Decoded from the report's packed cases and held here: a workload has
  // tens of cases, not millions.
  std::map<std::pair<std::string, std::uint64_t>, std::shared_ptr<const CaseResult>> cases;

  const CaseResult* at(const std::string& variant, std::uint64_t size) const {
    const auto it = cases.find({variant, size});
    return it == cases.end() ? nullptr : it->second.get();
  }
};

/// The workloads of a report, in the order their first cases come.
std::vector<WorkloadView> arrange(const Report& report);

/// A figure, or "-" when absent.
std::string optional_cell(const std::optional<double>& v);
/// The median time per operation, or "-".
std::string time_cell(const CaseResult& c);
/// How many times faster than the reference, or "-".
std::string speedup(const CaseResult& c, const CaseResult* reference);
/// "reference", "equal", "DIFFERS", or "-" when the output was not compared.
std::string equality(const CaseResult& c, bool is_reference);

}  // namespace allocgate::reports
