// SPDX-License-Identifier: Apache-2.0
#include "cache.h"

void Cache::insert(std::string key, std::string value) { entries_.insert_or_assign(std::move(key), std::move(value)); }

std::optional<std::string_view> Cache::lookup(std::string_view key) const {
  const auto it = entries_.find(key);
  if (it == entries_.end()) return std::nullopt;
  return std::string_view(it->second);
}
