// SPDX-License-Identifier: Apache-2.0
// One finding per line of code: when one allocation site accounts for the
// change in many cases, diff and compare say so once, with the cases it
// reaches ("+1 allocs/op at f (x.cpp:18) in 29 benchmarks: BM_A, ..."),
// instead of repeating the site under every case.
#pragma once

#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

namespace allocgate::reports {

/// A site and the cases whose allocs/op it changed, by how much.
struct SiteFinding {
  std::string site;                ///< "function (file:line)"
  std::vector<std::string> cases;  ///< in the order they were added
  double low = 0, high = 0;        ///< the smallest and largest change over the cases
};

/// Collects (site, case, change) and groups them by site.
class SiteFindings {
 public:
  void add(const std::string& site, const std::string& case_name, double change);
  /// Most cases first, then the largest change, then by site.
  std::vector<SiteFinding> by_site() const;

 private:
  std::vector<SiteFinding> findings_;
  std::unordered_map<std::string, std::size_t> index_;  // site -> its finding: linear in the cases
};

/// "+1 allocs/op at SITE in 29 benchmarks: A, B, C, D, E and 24 more" (one
/// case: "in A"); site and case names through `escape` for where it is printed.
std::string finding_line(const SiteFinding& finding, const std::function<std::string(const std::string&)>& escape);

}  // namespace allocgate::reports
