// SPDX-License-Identifier: Apache-2.0
// A report's cases, packed: each case a record of only the figures it has,
// back to back in blocks of a megabyte (packed_records.h), read back as a CaseResult when asked.
// A CaseResult takes about 350 bytes whatever it holds; a case of a name and
// an allocs/op figure (37 bytes of JSON) takes 25 here, which is what keeps a
// report of 1,000,000 such cases within 3x its size in memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "case_result.h"
#include "index_iterator.h"
#include "packed_records.h"

namespace allocgate::reports {

class CaseList {
 public:
  /// Yields each case by value, decoded.
  using Iterator = files::IndexIterator<CaseList, CaseResult>;

  CaseList() = default;
  CaseList(std::initializer_list<CaseResult> cases);

  std::size_t size() const { return records_.size(); }
  bool empty() const { return records_.empty(); }
  CaseResult operator[](std::size_t i) const;
  /// Case i's name, without decoding the rest: valid while the list lives.
  std::string_view name(std::size_t i) const;
  Iterator begin() const { return {this, 0}; }
  Iterator end() const { return {this, size()}; }

  void push_back(const CaseResult& c);
  /// Replaces case i (its old record stays, unused, until the list goes).
  void set(std::size_t i, const CaseResult& c);

  /// The cases' indices in name order (byte order; a name twice in the order it came), for lookups by name.
  std::vector<std::uint32_t> by_name() const;

 private:
  // The figures a case has that records seldom hold, kept as they are.
  struct Extra {
    std::vector<double> ns_repetitions;
    std::vector<SiteSummary> sites;
    std::vector<StackSummary> stacks;
    std::optional<SweepSummary> sweep;
  };

  std::uint64_t append(const CaseResult& c);  // the record's place
  const char* record(std::size_t i) const;

  files::RecordBlocks blocks_;
  std::deque<std::uint64_t> records_;  // block << 32 | offset, per case
  std::vector<Extra> extras_;
};

}  // namespace allocgate::reports
