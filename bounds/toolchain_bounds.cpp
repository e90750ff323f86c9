// SPDX-License-Identifier: Apache-2.0
// A bound's record: a varint of which fields it sets, its name, its
// allocs/op, then each field it sets in Bound's order.
#include "toolchain_bounds.h"

#include <algorithm>
#include <stdexcept>

namespace allocgate::bounds {

namespace {

enum Field : std::uint32_t {
  kTolerance = 1u << 0,
  kBytes = 1u << 1,
  kBytesTolerance = 1u << 2,
  kPeak = 1u << 3,
  kLeaked = 1u << 4,
  kNote = 1u << 5,
  kSweep = 1u << 6,
};

std::string_view name_at(const char* record) {
  files::RecordReader r(record);
  r.varint();
  return r.text();
}

}  // namespace

std::string_view finding_place(std::string_view line) {
  const std::size_t open = line.rfind(" (");
  const std::size_t colon = line.rfind(':');
  if (open == std::string_view::npos || colon == std::string_view::npos || colon < open || line.back() != ')') {
    return line;
  }
  return line.substr(0, colon);
}

const char* ToolchainBounds::record(std::size_t i) const {
  if (!sorted()) throw std::logic_error("ToolchainBounds: looked up before sort()");
  return blocks_.at(order_.at(i));
}

std::string_view ToolchainBounds::name(std::size_t i) const { return name_at(record(i)); }

ToolchainBounds::Entry ToolchainBounds::operator[](std::size_t i) const {
  files::RecordReader r(record(i));
  const auto fields = static_cast<std::uint32_t>(r.varint());
  Entry entry{r.text(), {}};
  Bound& b = entry.bound;
  b.allocs_per_op = r.figure();
  if (fields & kTolerance) b.tolerance = r.figure();
  if (fields & kBytes) b.bytes_per_op = r.figure();
  if (fields & kBytesTolerance) b.bytes_tolerance = r.figure();
  if (fields & kPeak) b.peak_bytes = r.figure();
  if (fields & kLeaked) b.leaked_bytes_per_op = r.figure();
  if (fields & kNote) b.note = r.text();
  if (fields & kSweep) {
    b.sweep.emplace(r.varint());
    for (KnownFinding& f : *b.sweep) {
      f.outcome = r.text();
      f.line = r.text();
      f.on_purpose = r.varint() != 0;
      f.note = r.text();
    }
  }
  return entry;
}

std::optional<std::size_t> ToolchainBounds::index_of(std::string_view name) const {
  if (!sorted()) throw std::logic_error("ToolchainBounds: looked up before sort()");
  const auto it = std::lower_bound(order_.begin(), order_.end(), name, [&](std::uint64_t place, std::string_view n) {
    return name_at(blocks_.at(place)) < n;
  });
  if (it == order_.end() || name_at(blocks_.at(*it)) != name) return std::nullopt;
  return static_cast<std::size_t>(it - order_.begin());
}

std::optional<Bound> ToolchainBounds::find(std::string_view name) const {
  const auto i = index_of(name);
  if (!i) return std::nullopt;
  return (*this)[*i].bound;
}

namespace {

std::string encode(std::string_view name, const Bound& b) {
  std::uint32_t fields = 0;
  if (b.tolerance != 0) fields |= kTolerance;
  if (b.bytes_per_op) fields |= kBytes;
  if (b.bytes_tolerance != 0) fields |= kBytesTolerance;
  if (b.peak_bytes) fields |= kPeak;
  if (b.leaked_bytes_per_op) fields |= kLeaked;
  if (!b.note.empty()) fields |= kNote;
  if (b.sweep) fields |= kSweep;
  std::string record;
  files::RecordWriter w(record);
  w.varint(fields);
  w.text(name);
  w.figure(b.allocs_per_op);
  if (fields & kTolerance) w.figure(b.tolerance);
  if (fields & kBytes) w.figure(*b.bytes_per_op);
  if (fields & kBytesTolerance) w.figure(b.bytes_tolerance);
  if (fields & kPeak) w.figure(*b.peak_bytes);
  if (fields & kLeaked) w.figure(*b.leaked_bytes_per_op);
  if (fields & kNote) w.text(b.note);
  if (fields & kSweep) {
    w.varint(b.sweep->size());
    for (const KnownFinding& f : *b.sweep) {
      w.text(f.outcome);
      w.text(f.line);
      w.varint(f.on_purpose ? 1 : 0);
      w.text(f.note);
    }
  }
  return record;
}

}  // namespace

void ToolchainBounds::set(std::size_t i, const Bound& bound) {
  const std::string_view name = this->name(i);
  order_[i] = blocks_.append(encode(name, bound));
}

void ToolchainBounds::add(std::string_view name, const Bound& bound) {
  const bool in_order = sorted() && (order_.empty() || name_at(blocks_.at(order_.back())) < name);
  order_.push_back(blocks_.append(encode(name, bound)));
  if (in_order) sorted_ = order_.size();
}

std::optional<std::string> ToolchainBounds::sort() {
  const auto before = [&](std::uint64_t a, std::uint64_t b) { return name_at(blocks_.at(a)) < name_at(blocks_.at(b)); };
  const auto added = order_.begin() + static_cast<std::ptrdiff_t>(sorted_);
  std::stable_sort(added, order_.end(), before);
  std::inplace_merge(order_.begin(), added, order_.end(), before);
  sorted_ = order_.size();
  const auto twice = std::adjacent_find(order_.begin(), order_.end(), [&](std::uint64_t a, std::uint64_t b) {
    return name_at(blocks_.at(a)) == name_at(blocks_.at(b));
  });
  if (twice == order_.end()) return std::nullopt;
  return std::string(name_at(blocks_.at(*twice)));
}

}  // namespace allocgate::bounds
