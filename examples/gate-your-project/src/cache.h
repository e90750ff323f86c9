// SPDX-License-Identifier: Apache-2.0
// A small read-mostly cache: the hot path is lookup(), which must not
// allocate for a key that is present.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

class Cache {
 public:
  void insert(std::string key, std::string value);
  /// The value of key, or nothing; never allocates.
  std::optional<std::string_view> lookup(std::string_view key) const;

 private:
  std::map<std::string, std::string, std::less<>> entries_;  // std::less<>: find by string_view
};
