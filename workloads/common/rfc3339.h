// SPDX-License-Identifier: Apache-2.0
// RFC 3339 timestamps for UTC time points (case study 2), two ways, shared by
// the timestamp workload and xml_listing's LastModified:
// format_naive returns a std::string built with gmtime_r and an ostringstream;
// format_to writes into a caller's buffer with no allocation and no locale,
// from to_civil's fields (which a caller writing one time point in several
// layouts computes once).
#pragma once

#include <charconv>
#include <chrono>
#include <cstddef>
#include <string>

namespace allocgate::workloads::rfc3339 {

using TimePoint = std::chrono::sys_time<std::chrono::milliseconds>;

enum class Layout {
  seconds,       ///< 2006-01-02T15:04:05Z
  milliseconds,  ///< 2006-01-02T15:04:05.000Z
};

/// The longest output of any layout; a char[32] always suffices.
inline constexpr std::size_t kMaxLength = 24;

/// Years 0000 to 9999 are representable (RFC 3339 has four year digits).
inline constexpr int kMinYear = 0;
inline constexpr int kMaxYear = 9999;

/// The plain version: what one writes first. Throws std::out_of_range for a
/// year outside 0000-9999.
std::string format_naive(TimePoint t, Layout layout);

/// Writes t into [first, last) like std::to_chars: on success returns the end
/// of the text and errc{}; returns errc::value_too_large when the buffer is
/// too small and errc::result_out_of_range when the year is outside 0000-9999,
/// writing nothing in both cases. Never allocates, never reads the locale.
std::to_chars_result format_to(char* first, char* last, TimePoint t, Layout layout) noexcept;

/// t taken apart once, to be written in more than one layout.
struct Civil {
  unsigned year, month, day, hour, minute, second, millisecond;
};

/// t's date and time of day; false when its year is outside 0000-9999.
/// Arithmetic only: a range check, then the Neri-Schneider calendar.
bool to_civil(TimePoint t, Civil& civil) noexcept;

/// How many bytes write() writes for a layout.
constexpr std::size_t length(Layout layout) { return layout == Layout::milliseconds ? 24 : 20; }

/// Writes civil at p in layout (length(layout) bytes); returns the end.
char* write(char* p, const Civil& civil, Layout layout) noexcept;

/// Appends t to out; false (out unchanged) when the year is out of range.
/// Allocates only when out must grow.
bool append(std::string& out, TimePoint t, Layout layout);

}  // namespace allocgate::workloads::rfc3339
