// SPDX-License-Identifier: Apache-2.0
#include "packed_records.h"

#include <algorithm>

namespace allocgate::files {

std::uint64_t RecordBlocks::append(std::string_view record) {
  constexpr std::size_t kBlock = std::size_t{1} << 20;
  // Into the last block when it has room, else a new one (a record larger
  // than a block gets one of its own); a block never grows past its capacity,
  // so records never move.
  if (blocks_.empty() || blocks_.back().size() + record.size() > blocks_.back().capacity()) {
    blocks_.emplace_back().reserve(std::max(kBlock, record.size()));
  }
  std::string& block = blocks_.back();
  const std::uint64_t place = static_cast<std::uint64_t>(blocks_.size() - 1) << 32 | block.size();
  block += record;
  return place;
}

}  // namespace allocgate::files
