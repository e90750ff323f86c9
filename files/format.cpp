// SPDX-License-Identifier: Apache-2.0
#include "format.h"

#include <array>
#include <charconv>
#include <cmath>

namespace allocgate::files {
namespace {

// to_chars into a buffer long enough for any double in any format (1.8e308
// in fixed notation is 309 digits): the text is never cut or left empty.
std::string chars(double value, std::chars_format format, int precision) {
  std::array<char, 400> text{};
  const auto end = std::to_chars(text.data(), text.data() + text.size(), value, format, precision).ptr;
  return std::string(text.data(), end);
}

// Fixed notation where it reads as a figure; past 10^15 (a time or ratio no
// real run has, from a report built to break a table) the digits would run
// across the page, so scientific.
std::string fixed_or_scientific(double value, int decimals) {
  if (std::fabs(value) >= 1e15) return chars(value, std::chars_format::scientific, 2);
  return chars(value, std::chars_format::fixed, decimals);
}

// value / scale to three significant digits, then the unit: "50.5k".
std::string three_digits(double value, double scale, const char* unit) {
  const double scaled = value / scale;
  const int decimals = std::fabs(scaled) >= 100 ? 0 : std::fabs(scaled) >= 10 ? 1 : 2;
  return fixed_or_scientific(scaled, decimals) + unit;
}

}  // namespace

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
  std::string shown =
      std::fabs(value) >= 100 ? fixed_or_scientific(value, 1) : chars(value, std::chars_format::general, 3);
  if (shown.find_first_of(".e") == std::string::npos) shown.insert(shown.begin(), '~');
  return shown;
}

std::string signed_readable(double value) {
  std::string text = readable(value);
  if (value >= 0) text.insert(text.begin(), '+');
  return text;
}

std::string compact(double value) {
  const double magnitude = std::fabs(value);
  if (!std::isfinite(value) || magnitude < 1e4) {
    std::string text = readable(value);
    if (text.size() <= 7) return text;
    return chars(value, std::chars_format::general, 2);  // 0.000778 and the like: two significant digits
  }
  if (magnitude < 1e6) return three_digits(value, 1e3, "k");
  if (magnitude < 1e9) return three_digits(value, 1e6, "M");
  if (magnitude < 1e12) return three_digits(value, 1e9, "G");
  return chars(value, std::chars_format::scientific, 1);
}

std::string compact_nanoseconds(double ns) {
  const double magnitude = std::fabs(ns);
  if (!std::isfinite(ns) || magnitude < 1e3) return three_digits(ns, 1, " ns");
  if (magnitude < 1e6) return three_digits(ns, 1e3, " \u00b5s");
  if (magnitude < 1e9) return three_digits(ns, 1e6, " ms");
  return three_digits(ns, 1e9, " s");
}

std::string ratio(double r) { return fixed_or_scientific(r, 2) + "x"; }

std::string percent(double share) {
  const double points = share * 100;
  return fixed_or_scientific(points, std::fabs(points) >= 1 ? 0 : 1) + "%";
}

std::string signed_percent(double change) {
  std::string text = fixed_or_scientific(change * 100, 1) + "%";
  if (text.front() != '-') text.insert(text.begin(), '+');
  return text;
}

std::string nanoseconds(double ns) {
  // Below 100 ns one decimal tells something; above, whole nanoseconds do.
  return ns < 100 ? fixed_or_scientific(ns, 1) : fixed_or_scientific(std::round(ns), 0);
}

std::string nanoseconds_with_range(double median, std::optional<double> fastest, std::optional<double> slowest) {
  std::string text = nanoseconds(median);
  if (fastest && slowest && *fastest != *slowest) {
    text += " (" + nanoseconds(*fastest) + " to " + nanoseconds(*slowest) + ")";
  }
  return text;
}

}  // namespace allocgate::files
