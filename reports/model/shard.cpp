// SPDX-License-Identifier: Apache-2.0
#include "shard.h"

#include <charconv>

#include "input_error.h"

namespace allocgate::reports {

Shard parse_shard(std::string_view text, const std::string& what) {
  Shard shard;
  const auto slash = text.find('/');
  const auto number = [](std::string_view digits, int& out) {
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), out);
    return error == std::errc() && end == digits.data() + digits.size() && !digits.empty();
  };
  if (slash == std::string_view::npos || !number(text.substr(0, slash), shard.index) ||
      !number(text.substr(slash + 1), shard.count) || shard.count < 1 || shard.index < 1 || shard.index > shard.count) {
    throw files::InputError(what + " '" + std::string(text) + "' is not I/N with 1 <= I <= N");
  }
  return shard;
}

}  // namespace allocgate::reports
