// SPDX-License-Identifier: Apache-2.0
#include "site_findings.h"

#include <algorithm>

#include "format.h"

namespace allocgate::reports {
namespace {

constexpr std::size_t kCasesNamed = 5;

}  // namespace

std::string line_key(const SiteFrame& where) {
  return where.file.empty() ? where.function : where.file + ":" + std::to_string(where.line);
}

SiteFinding& SiteFindings::finding_at(const std::string& key, const std::string& site, const std::string& case_name,
                                      double change) {
  const auto [at, added] = index_.try_emplace(key, findings_.size());
  if (added) findings_.push_back({site, {}, change, change, 1, 0, {}, {}});
  SiteFinding& finding = findings_[at->second];
  finding.cases.push_back(case_name);
  finding.low = std::min(finding.low, change);
  finding.high = std::max(finding.high, change);
  return finding;
}

void SiteFindings::add(const SiteFrame& where, const std::string& case_name, double change, double temporary,
                       const std::string& hint, const std::vector<std::string>& functions) {
  const std::string key = line_key(where);
  SiteFinding& finding = finding_at(key, to_string(where), case_name, change);
  if (finding.cases.size() == 1) finding.where = where;
  std::unordered_set<std::string>& seen = functions_[key];
  seen.insert(where.function);
  seen.insert(functions.begin(), functions.end());
  finding.functions = seen.size();
  finding.temporary = std::max(finding.temporary, temporary);
  if (finding.hint.empty()) finding.hint = hint;
}

std::vector<SiteFinding> SiteFindings::by_site() const {
  std::vector<SiteFinding> sorted = findings_;
  std::stable_sort(sorted.begin(), sorted.end(), [](const SiteFinding& a, const SiteFinding& b) {
    if (a.cases.size() != b.cases.size()) return a.cases.size() > b.cases.size();
    const double wa = std::max(std::abs(a.low), std::abs(a.high)), wb = std::max(std::abs(b.low), std::abs(b.high));
    if (wa != wb) return wa > wb;
    return a.site < b.site;
  });
  return sorted;
}

std::string finding_line(const SiteFinding& f, const std::function<std::string(const std::string&)>& escape) {
  std::string line = files::signed_readable(f.low);
  if (f.high != f.low) line += " to " + files::signed_readable(f.high);
  line += " allocs/op";
  if (f.temporary > 0) line += " (" + files::readable(f.temporary) + " temporary)";
  line += " at " + escape(f.site);
  if (f.functions > 1) {
    line +=
        " and " + std::to_string(f.functions - 1) + " other instance" + (f.functions > 2 ? "s" : "") + " of its line";
  }
  line += " in ";
  if (f.cases.size() > 1) line += std::to_string(f.cases.size()) + " benchmarks: ";
  for (std::size_t i = 0; i < f.cases.size() && i < kCasesNamed; ++i) line += (i > 0 ? ", " : "") + escape(f.cases[i]);
  if (f.cases.size() > kCasesNamed) line += " and " + std::to_string(f.cases.size() - kCasesNamed) + " more";
  return line;
}

}  // namespace allocgate::reports
