// SPDX-License-Identifier: Apache-2.0
#include "filter.h"

#include "input_error.h"
#include "re2_shim.h"

namespace allocgate::reports {

struct NameFilter::Pattern {
  allocgate_re2* re;
  ~Pattern() { allocgate_re2_delete(re); }
};

NameFilter::NameFilter(const std::string& pattern) {
  if (pattern.empty()) return;
  const char* error = "";
  allocgate_re2* re = allocgate_re2_new(pattern.data(), pattern.size(), &error);
  if (re == nullptr) {
    throw files::InputError("--filter '" + pattern + "' is not a regular expression (RE2 syntax): " + error);
  }
  pattern_.reset(new Pattern{re});
}

NameFilter::~NameFilter() = default;
NameFilter::NameFilter(NameFilter&&) noexcept = default;
NameFilter& NameFilter::operator=(NameFilter&&) noexcept = default;

bool NameFilter::matches(std::string_view name) const {
  return pattern_ == nullptr || allocgate_re2_partial_match(pattern_->re, name.data(), name.size()) != 0;
}

}  // namespace allocgate::reports
