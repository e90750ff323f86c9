// SPDX-License-Identifier: Apache-2.0
// One finding per line of code: when one allocation site accounts for the
// change in many cases, diff and compare say so once, with the cases it
// reaches ("+1 allocs/op at f (x.cpp:18) in 29 benchmarks: BM_A, ..."),
// instead of repeating the site under every case.
#pragma once

#include <functional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "allocgate/site_frame.h"

namespace allocgate::reports {

/// A site and the cases whose allocs/op it changed, by how much.
struct SiteFinding {
  std::string site;                ///< "function (file:line)": the first function seen at the line
  std::vector<std::string> cases;  ///< in the order they were added
  double low = 0, high = 0;        ///< the smallest and largest change over the cases
  std::size_t functions = 1;       ///< the functions at the line: template instances, inlined copies
  double temporary = 0;            ///< the most temporaries/op any case has at the site
  std::string hint;                ///< the usual fix, when one is known
  SiteFrame where;                 ///< the line's first site seen
};

/// Collects (site, case, change) and groups them by line of code: the
/// instances of one template at one line (snappy.cc:1800 as three
/// InternalUncompressAllTags<...>) are one finding. A site without a file is
/// grouped by its function.
class SiteFindings {
 public:
  /// `functions`: every function at where's line in this case, when known
  /// (compare's per-line changes); else where.function alone.
  void add(const SiteFrame& where, const std::string& case_name, double change, double temporary = 0,
           const std::string& hint = {}, const std::vector<std::string>& functions = {});
  /// Most cases first, then the largest change, then by site.
  std::vector<SiteFinding> by_site() const;

 private:
  SiteFinding& finding_at(const std::string& key, const std::string& site, const std::string& case_name, double change);

  std::vector<SiteFinding> findings_;
  std::unordered_map<std::string, std::size_t> index_;  // line -> its finding: linear in the cases
  std::unordered_map<std::string, std::unordered_set<std::string>> functions_;  // line -> its functions
};

/// What one line of code is known by: "file:line", or the function of a site
/// without a file. Findings and compare's per-line changes group by it.
std::string line_key(const SiteFrame& where);

/// "+1 allocs/op (1 temporary) at SITE in 29 benchmarks: A, B, C, D, E and
/// 24 more" (one case: "in A"; a line of several functions: "at SITE and 2
/// other instances of its line"); site and case names through `escape` for
/// where it is printed. The hint is the printer's to place.
std::string finding_line(const SiteFinding& finding, const std::function<std::string(const std::string&)>& escape);

}  // namespace allocgate::reports
