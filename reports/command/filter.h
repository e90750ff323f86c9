// SPDX-License-Identifier: Apache-2.0
// `--filter`, as `run` and `history` read it: an RE2 regular expression,
// searched in case names. RE2 runs in time linear in the name and in bounded
// memory whatever the pattern, so neither a name of any length (a shared
// history may hold one) nor a pattern like '(a+)+$' can crash or stall it.
#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace allocgate::reports {

class NameFilter {
 public:
  /// Throws InputError naming the pattern and what is wrong with it. An
  /// empty pattern matches every name.
  explicit NameFilter(const std::string& pattern);
  ~NameFilter();
  NameFilter(NameFilter&&) noexcept;
  NameFilter& operator=(NameFilter&&) noexcept;

  /// Whether the pattern matches anywhere in the name.
  bool matches(std::string_view name) const;

 private:
  struct Pattern;                     // the compiled RE2 (re2_shim.h)
  std::unique_ptr<Pattern> pattern_;  // null: matches every name
};

}  // namespace allocgate::reports
