// SPDX-License-Identifier: Apache-2.0
#include "format.h"

#include <array>
#include <charconv>
#include <cmath>

namespace allocgate::files {

std::string exact(double value) {
  std::array<char, 32> text{};
  const auto end = std::to_chars(text.data(), text.data() + text.size(), value).ptr;
  return std::string(text.data(), end);
}

std::string signed_exact(double value) {
  std::string text = exact(value);
  if (value >= 0) text.insert(text.begin(), '+');
  return text;
}

std::string readable(double value) {
  if (!std::isfinite(value) || std::floor(value) == value) return exact(value);
  std::array<char, 48> text{};
  const auto end =
      std::fabs(value) >= 100
          ? std::to_chars(text.data(), text.data() + text.size(), value, std::chars_format::fixed, 1).ptr
          : std::to_chars(text.data(), text.data() + text.size(), value, std::chars_format::general, 3).ptr;
  std::string shown(text.data(), end);
  if (shown.find_first_of(".e") == std::string::npos) shown.insert(shown.begin(), '~');
  return shown;
}

std::string signed_readable(double value) {
  std::string text = readable(value);
  if (value >= 0) text.insert(text.begin(), '+');
  return text;
}

namespace {

// value / scale to three significant digits, then the unit: "50.5k".
std::string three_digits(double value, double scale, const char* unit) {
  const double scaled = value / scale;
  const int decimals = std::fabs(scaled) >= 100 ? 0 : std::fabs(scaled) >= 10 ? 1 : 2;
  std::array<char, 48> text{};
  const auto end =
      std::to_chars(text.data(), text.data() + text.size(), scaled, std::chars_format::fixed, decimals).ptr;
  return std::string(text.data(), end) + unit;
}

}  // namespace

std::string compact(double value) {
  const double magnitude = std::fabs(value);
  if (!std::isfinite(value) || magnitude < 1e4) {
    std::string text = readable(value);
    if (text.size() <= 7) return text;
    std::array<char, 48> shorter{};  // 0.000778 and the like: two significant digits
    const auto end =
        std::to_chars(shorter.data(), shorter.data() + shorter.size(), value, std::chars_format::general, 2).ptr;
    return std::string(shorter.data(), end);
  }
  if (magnitude < 1e6) return three_digits(value, 1e3, "k");
  if (magnitude < 1e9) return three_digits(value, 1e6, "M");
  if (magnitude < 1e12) return three_digits(value, 1e9, "G");
  std::array<char, 48> text{};
  const auto end = std::to_chars(text.data(), text.data() + text.size(), value, std::chars_format::scientific, 1).ptr;
  return std::string(text.data(), end);
}

std::string compact_nanoseconds(double ns) {
  const double magnitude = std::fabs(ns);
  if (!std::isfinite(ns) || magnitude < 1e3) return three_digits(ns, 1, " ns");
  if (magnitude < 1e6) return three_digits(ns, 1e3, " \u00b5s");
  if (magnitude < 1e9) return three_digits(ns, 1e6, " ms");
  return three_digits(ns, 1e9, " s");
}

std::string ratio(double r) {
  std::array<char, 48> text{};
  const auto end = std::to_chars(text.data(), text.data() + text.size() - 1, r, std::chars_format::fixed, 2).ptr;
  *end = 'x';
  return std::string(text.data(), end + 1);
}

std::string nanoseconds(double ns) {
  std::array<char, 48> text{};
  // Below 100 ns one decimal tells something; above, whole nanoseconds do.
  const auto end =
      ns < 100 ? std::to_chars(text.data(), text.data() + text.size(), ns, std::chars_format::fixed, 1).ptr
               : std::to_chars(text.data(), text.data() + text.size(), std::round(ns), std::chars_format::fixed, 0).ptr;
  return std::string(text.data(), end);
}

}  // namespace allocgate::files
