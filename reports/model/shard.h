// SPDX-License-Identifier: Apache-2.0
// A shard of a run: `allocgate run --shard I/N` writes one, `allocgate merge`
// joins them (the report's context.allocgate_shard names it).
#pragma once

#include <string>
#include <string_view>

namespace allocgate::reports {

/// The part of the cases one run takes (`run --shard I/N`): the I-th of N
/// contiguous, near-equal parts of the selected cases in registry order, so
/// every case is in exactly one shard and the shards, joined in order, are
/// the whole run (`allocgate merge`).
struct Shard {
  int index = 1;  ///< I, from 1
  int count = 1;  ///< N
  std::string text() const { return std::to_string(index) + "/" + std::to_string(count); }
};

/// Reads "I/N" (1 <= I <= N); throws InputError naming `what` otherwise.
Shard parse_shard(std::string_view text, const std::string& what);

}  // namespace allocgate::reports
