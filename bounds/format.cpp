#include "format.h"

#include <array>
#include <charconv>
#include <cmath>

namespace allocgate::reports {

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
  const auto end = std::fabs(value) >= 100
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

std::string ratio(double r) {
  std::array<char, 48> text{};
  const auto end = std::to_chars(text.data(), text.data() + text.size() - 1, r, std::chars_format::fixed, 2).ptr;
  *end = 'x';
  return std::string(text.data(), end + 1);
}

std::string nanoseconds(double ns) {
  std::array<char, 48> text{};
  // Below 100 ns one decimal tells something; above, whole nanoseconds do.
  const auto end = ns < 100 ? std::to_chars(text.data(), text.data() + text.size(), ns, std::chars_format::fixed, 1).ptr
                            : std::to_chars(text.data(), text.data() + text.size(), std::round(ns),
                                            std::chars_format::fixed, 0).ptr;
  return std::string(text.data(), end);
}

}  // namespace allocgate::reports
