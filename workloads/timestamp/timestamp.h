// RFC 3339 timestamps for UTC time points (case study 2), two ways:
// format_naive returns a std::string built with gmtime_r and an ostringstream;
// format_to writes into a caller's buffer with no allocation and no locale.
#pragma once

#include <charconv>
#include <chrono>
#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace allocgate::workloads::timestamp {

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

/// Appends t to out; false (out unchanged) when the year is out of range.
/// Allocates only when out must grow.
bool append(std::string& out, TimePoint t, Layout layout);

// --- the workload's job: N time points as "seconds milliseconds" lines ------

/// The plain way: a fresh string, built from format_naive's strings.
std::string render_naive(std::span<const TimePoint> times);

/// Into the caller's buffer, reused across calls: no allocation once it has
/// grown to the output's size. False (out holds a prefix) on an out-of-range year.
bool render(std::span<const TimePoint> times, std::string& out);

/// n time points about 16 minutes apart from 2026-11-30T09:51:58.123Z.
std::vector<TimePoint> make_times(std::size_t n);

}  // namespace allocgate::workloads::timestamp
