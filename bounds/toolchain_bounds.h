// SPDX-License-Identifier: Apache-2.0
// One toolchain's bounds, by case name, packed: each bound a record of only
// the fields it sets (packed_records.h). A std::map of Bound took about 176
// bytes a bound where its line in the file takes 55; a record of a name and an
// allocs/op takes the name's length and 10 more, and 8 for its place, which is
// what keeps recording 1,000,000 new bounds within 3x the report's size.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "index_iterator.h"
#include "packed_records.h"

namespace allocgate::bounds {

/// A failure sweep's bad outcome recorded for a test (`diff --update` of a
/// swept report, or written by hand): the gate does not call it new.
struct KnownFinding {
  std::string outcome;  ///< "swallowed", "leaked", "terminated", "crashed" or "hung"
  /// Where the failing allocation was: "function (file:line)", as the
  /// report names it. Matched by function and file, so that a line moved by
  /// an edit above it is the same finding.
  std::string line;
  /// By design (a cache that drops an entry when memory runs out): never a
  /// finding, and --update keeps it when the sweep no longer sees it.
  bool on_purpose = false;
  std::string note;
};

/// A finding's line, "function (file:32)", without its line number:
/// "function (file)", what two findings at one place share. A line naming
/// no file is its own place.
std::string_view finding_place(std::string_view line);

/// Whether `found` (a sweep's outcome and line) is a finding `known` records.
inline bool same_finding(const KnownFinding& known, std::string_view outcome, std::string_view line) {
  return known.outcome == outcome && finding_place(known.line) == finding_place(line);
}

struct Bound {
  double allocs_per_op = 0;
  double tolerance = 0;  ///< allowed excess over allocs_per_op; 0: exact
  std::optional<double> bytes_per_op;
  double bytes_tolerance = 0;
  /// The most live bytes one operation may reach above its start.
  std::optional<double> peak_bytes;
  /// Bytes an operation may leave allocated (0: it must free all it allocates).
  std::optional<double> leaked_bytes_per_op;
  std::string note;
  /// The test's failure sweep as recorded: its known findings, none when it
  /// was swept clean. Absent: no sweep recorded, so every finding is new.
  std::optional<std::vector<KnownFinding>> sweep;
};

class ToolchainBounds {
 public:
  struct Entry {
    std::string_view name;  ///< valid while the section lives
    Bound bound;
  };
  /// Yields each bound in name order (byte order), decoded.
  using Iterator = files::IndexIterator<ToolchainBounds, Entry>;

  std::size_t size() const { return order_.size(); }
  /// Whether every bound added is in its place: lookups and walks need it.
  bool sorted() const { return sorted_ == order_.size(); }
  bool empty() const { return order_.empty(); }
  /// The i-th bound in name order.
  Entry operator[](std::size_t i) const;
  std::string_view name(std::size_t i) const;
  Iterator begin() const { return {this, 0}; }
  Iterator end() const { return {this, size()}; }

  /// Where a name's bound is in name order.
  std::optional<std::size_t> index_of(std::string_view name) const;
  std::optional<Bound> find(std::string_view name) const;
  /// Replaces the i-th bound (its old record stays, unused, until the section goes).
  void set(std::size_t i, const Bound& bound);

  /// Adds a bound. Added in name order (as a file is written), the section
  /// stays sorted; a bound added out of order waits for sort(), which must
  /// come before the next lookup or walk (they throw std::logic_error
  /// until it has), so that adding n bounds costs n log n, not n^2.
  void add(std::string_view name, const Bound& bound);
  /// Puts the bounds added out of order in their place. Returns a name added
  /// twice, if any (the section is then sorted, with both).
  std::optional<std::string> sort();

 private:
  const char* record(std::size_t i) const;

  files::RecordBlocks blocks_;
  std::vector<std::uint64_t> order_;  // the records' places, by name from 0 to sorted_
  std::size_t sorted_ = 0;            // order_ past it was added out of order
};

}  // namespace allocgate::bounds
