// SPDX-License-Identifier: Apache-2.0
#include "log_report.h"

#include "common/scan.h"
#include "common/split.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstring>
#include <functional>
#include <map>
#include <stdexcept>
#include <unordered_map>

namespace allocgate::workloads::log_report {
namespace {

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// total += n unless that overflows.
bool add_to(std::int64_t& total, std::int64_t n) {
  std::int64_t sum = 0;
  if (__builtin_add_overflow(total, n, &sum)) return false;
  total = sum;
  return true;
}

// The size field of a split line, or false when the line is malformed.
bool parse_size_v1(const std::vector<std::string>& parts, std::int64_t& size) {
  if (parts.size() != 5 || !all_digits(parts[4])) return false;
  try {
    size = std::stoll(parts[4]);
  } catch (const std::out_of_range&) {
    return false;
  }
  return true;
}

}  // namespace

// --- v1 ---------------------------------------------------------------------

Report report_v1(std::span<const std::string> lines) {
  Report report;
  std::map<std::string, std::int64_t> totals;
  for (const std::string& line : lines) {
    const std::vector<std::string> parts = split(line, ' ');
    std::int64_t size = 0;
    if (!parse_size_v1(parts, size) || !add_to(totals[parts[2]], size)) {
      ++report.malformed;
      continue;
    }
  }
  for (const auto& [path, total] : totals) report.text += path + " " + std::to_string(total) + "\n";
  return report;
}

// --- v2 ---------------------------------------------------------------------

namespace {

void append_line(std::string& out, std::string_view path, std::int64_t total) {
  char digits[20];
  const auto end = std::to_chars(digits, digits + sizeof digits, total).ptr;
  out.append(path);
  out.push_back(' ');
  out.append(digits, end);
  out.push_back('\n');
}

// The hash map's entries in path order, rendered into a buffer presized as
// the case study's Builder was (24 bytes a line).
template <class Map>
void render_sorted(const Map& totals, std::string& out) {
  std::vector<const typename Map::value_type*> order;
  order.reserve(totals.size());
  for (const auto& entry : totals) order.push_back(&entry);
  std::sort(order.begin(), order.end(), [](auto* a, auto* b) { return a->first < b->first; });
  out.reserve(order.size() * 24);
  for (const auto* entry : order) append_line(out, entry->first, entry->second);
}

}  // namespace

Report report_v2(std::span<const std::string> lines) {
  Report report;
  std::unordered_map<std::string, std::int64_t> totals;
  totals.reserve(64);
  for (const std::string& line : lines) {
    const std::vector<std::string> parts = split(line, ' ');
    std::int64_t size = 0;
    if (!parse_size_v1(parts, size) || !add_to(totals[parts[2]], size)) ++report.malformed;
  }
  render_sorted(totals, report.text);
  return report;
}

// --- v3 ---------------------------------------------------------------------

namespace {

// The text before the first space, and the rest after it.
bool cut(std::string_view& rest, std::string_view& field) {
  const auto space = rest.find(' ');
  if (space == std::string_view::npos) return false;
  field = rest.substr(0, space);
  rest.remove_prefix(space + 1);
  return true;
}

// The path and size of a line, by cutting at spaces: no copy, no allocation.
bool parse_line(std::string_view line, std::string_view& path, std::int64_t& size) {
  std::string_view field;
  if (!cut(line, field) || !cut(line, field) || !cut(line, path) || !cut(line, field)) return false;
  // line is now the fifth field; a sixth would have left a space in it.
  const auto [end, ec] = std::from_chars(line.data(), line.data() + line.size(), size);
  return ec == std::errc{} && end == line.data() + line.size() && all_digits(line);
}

struct StringHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

}  // namespace

Report report_v3(std::span<const std::string> lines) {
  Report report;
  // Transparent hashing: look up by string_view, copy the key only when new.
  std::unordered_map<std::string, std::int64_t, StringHash, std::equal_to<>> totals;
  totals.reserve(64);
  for (const std::string& line : lines) {
    std::string_view path;
    std::int64_t size = 0;
    if (!parse_line(line, path, size)) {
      ++report.malformed;
      continue;
    }
    auto it = totals.find(path);
    if (it == totals.end()) it = totals.emplace(std::string(path), 0).first;
    if (!add_to(it->second, size)) ++report.malformed;
  }
  render_sorted(totals, report.text);
  return report;
}

// --- v4 ---------------------------------------------------------------------

namespace {

// The path and size once the four spaces are found.
bool read_fields(std::string_view line, const char* second_space, const char* third_space, const char* fourth_space,
                 std::string_view& path, std::int64_t& size) {
  path = std::string_view(second_space + 1, static_cast<std::size_t>(third_space - second_space - 1));
  const char* const end = line.data() + line.size();
  std::uint64_t value = 0;
  const std::string_view digits(fourth_space + 1, static_cast<std::size_t>(end - fourth_space - 1));
  if (read_digits(line, digits, INT64_MAX, value) != DigitsResult::ok) return false;
  size = static_cast<std::int64_t>(value);
  return true;
}

// A line the mask does not take (under 16 bytes or over 64): the spaces a
// word at a time.
[[gnu::noinline]] bool scan_line_by_words(std::string_view line, std::string_view& path, std::int64_t& size) {
  const char* spaces[5];
  if (find_each(line, ' ', spaces, 5) != 4) return false;
  return read_fields(line, spaces[1], spaces[2], spaces[3], path, size);
}

// parse_line's rule: exactly four spaces (a fifth would be in the size), then
// the size's digits read without a library call. Most lines are 16 to 64
// bytes: all their spaces in one mask, sixteen bytes a compare, with no
// branch on where they fall (a loop over each word's spaces mispredicted as
// the addresses' lengths changed).
bool scan_line(std::string_view line, std::string_view& path, std::int64_t& size) {
  if (line.size() < 16 || line.size() > kMaskedTextMax) return scan_line_by_words(line, path, size);
  // Each step clears the lowest space: exactly four when the fourth step
  // leaves one bit and the next none.
  const std::uint64_t all = equal_mask(line, ' ');
  const std::uint64_t from_second = all & (all - 1);
  const std::uint64_t from_third = from_second & (from_second - 1);
  const std::uint64_t fourth = from_third & (from_third - 1);
  if (fourth == 0 || (fourth & (fourth - 1)) != 0) return false;
  const char* const p = line.data();
  return read_fields(line, p + std::countr_zero(from_second), p + std::countr_zero(from_third),
                     p + std::countr_zero(fourth), path, size);
}

// Whether two paths are equal: most are 8 to 16 bytes, compared as two
// overlapping words each instead of through a call to memcmp.
bool same_path(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  const std::size_t n = a.size();
  if (n < 8 || n > 16) return a == b;
  std::uint64_t a_head, a_tail, b_head, b_tail;
  std::memcpy(&a_head, a.data(), 8);
  std::memcpy(&b_head, b.data(), 8);
  std::memcpy(&a_tail, a.data() + n - 8, 8);
  std::memcpy(&b_tail, b.data() + n - 8, 8);
  return ((a_head ^ b_head) | (a_tail ^ b_tail)) == 0;
}

// The table's hash, eight bytes a step (the last step reads the path's last
// eight, overlapping): a log's paths share long prefixes, so every byte counts,
// but a byte at a time would cost more than the rest of the line's work.
std::size_t path_hash(std::string_view path) {
  constexpr std::uint64_t kMultiplier = 0x9E3779B97F4A7C15ULL;
  std::uint64_t h = path.size() * kMultiplier;
  const char* p = path.data();
  std::size_t n = path.size();
  std::uint64_t word = 0;
  for (; n > 8; p += 8, n -= 8) {
    std::memcpy(&word, p, 8);
    h = (h ^ word) * kMultiplier;
  }
  word = 0;
  if (path.size() >= 8) {
    std::memcpy(&word, path.data() + path.size() - 8, 8);
  } else if (n != 0) {
    std::memcpy(&word, p, n);
  }
  h = (h ^ word) * kMultiplier;
  // A product's low bits depend only on its factors' low bits, and the table
  // indexes by the low bits: fold the high half in (MurmurHash3's finalizer).
  h ^= h >> 33;
  h *= 0xFF51AFD7ED558CCDULL;
  return static_cast<std::size_t>(h ^ (h >> 33));
}

}  // namespace

Reporter::Slot* Reporter::find_or_insert(std::string_view path) {
  if ((used_.size() + 1) * 2 > slots_.size()) grow();
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = path_hash(path) & mask;; i = (i + 1) & mask) {
    Slot& slot = slots_[i];
    if (slot.stamp != stamp_) {  // free in this run
      slot = Slot{path, 0, stamp_};
      used_.push_back(static_cast<std::uint32_t>(i));
      return &slot;
    }
    if (same_path(slot.path, path)) return &slot;
  }
}

// Doubles the table, keeping this run's entries. Only a run with more
// distinct paths than any before it gets here.
void Reporter::grow() {
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(old.empty() ? 64 : old.size() * 2, Slot{});
  const std::uint32_t live = stamp_;
  stamp_ = 1;
  used_.clear();
  for (const Slot& slot : old) {
    if (slot.stamp == live) find_or_insert(slot.path)->total = slot.total;
  }
}

std::string_view Reporter::run(std::span<const std::string> lines) {
  // A new stamp empties the table; on wrap-around, clear the stamps for real.
  if (++stamp_ == 0) {
    for (Slot& slot : slots_) slot.stamp = 0;
    stamp_ = 1;
  }
  used_.clear();
  malformed_ = 0;
  for (const std::string& line : lines) {
    std::string_view path;
    std::int64_t size = 0;
    if (!scan_line(line, path, size) || !add_to(find_or_insert(path)->total, size)) ++malformed_;
  }
  std::sort(used_.begin(), used_.end(),
            [this](std::uint32_t a, std::uint32_t b) { return slots_[a].path < slots_[b].path; });
  out_.clear();
  for (const std::uint32_t i : used_) append_line(out_, slots_[i].path, slots_[i].total);
  return out_;
}

// --- input ------------------------------------------------------------------

std::vector<std::string> make_log(std::size_t n) {
  std::vector<std::string> lines;
  lines.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    lines.push_back("203.0.113." + std::to_string(i % 250) + " GET /library/post-" + std::to_string(i % 40) + " 200 " +
                    std::to_string(1000 + i % 7000));
  }
  return lines;
}

}  // namespace allocgate::workloads::log_report
