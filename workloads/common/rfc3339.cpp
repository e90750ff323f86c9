// SPDX-License-Identifier: Apache-2.0
#include "common/rfc3339.h"

#include <ctime>
#include <iomanip>
#include <sstream>
#include <stdexcept>

namespace allocgate::workloads::rfc3339 {

using std::chrono::days;
using std::chrono::floor;
using std::chrono::milliseconds;

// --- naive ------------------------------------------------------------------

std::string format_naive(TimePoint t, Layout layout) {
  const auto ms = t.time_since_epoch().count();
  // Floor division: a time before 1970 belongs to the second before it.
  const std::time_t seconds = static_cast<std::time_t>(ms / 1000 - (ms % 1000 < 0 ? 1 : 0));
  const int millis = static_cast<int>(ms - static_cast<long long>(seconds) * 1000);
  std::tm tm{};
  if (gmtime_r(&seconds, &tm) == nullptr) throw std::out_of_range("timestamp: time out of range");
  const long long year = 1900LL + tm.tm_year;
  if (year < kMinYear || year > kMaxYear) throw std::out_of_range("timestamp: year out of range");

  std::ostringstream out;
  out << std::setfill('0') << std::setw(4) << year << '-' << std::setw(2) << tm.tm_mon + 1 << '-' << std::setw(2)
      << tm.tm_mday << 'T' << std::setw(2) << tm.tm_hour << ':' << std::setw(2) << tm.tm_min << ':' << std::setw(2)
      << tm.tm_sec;
  if (layout == Layout::milliseconds) out << '.' << std::setw(3) << millis;
  out << 'Z';
  return out.str();
}

// --- optimized --------------------------------------------------------------

namespace {

constexpr char kDigitPairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

// Two digits of v (0-99) with one table load instead of a division each.
char* put2(char* p, unsigned v) noexcept {
  p[0] = kDigitPairs[2 * v];
  p[1] = kDigitPairs[2 * v + 1];
  return p + 2;
}

}  // namespace

std::to_chars_result format_to(char* first, char* last, TimePoint t, Layout layout) noexcept {
  const std::size_t length = layout == Layout::milliseconds ? 24 : 20;
  if (last - first < static_cast<std::ptrdiff_t>(length)) return {last, std::errc::value_too_large};

  // <chrono>'s civil calendar: pure arithmetic, valid for negative times.
  const auto day = floor<days>(t);
  const std::chrono::year_month_day date{day};
  const int year = static_cast<int>(date.year());
  if (year < kMinYear || year > kMaxYear) return {first, std::errc::result_out_of_range};
  const std::chrono::hh_mm_ss<milliseconds> time{t - day};

  char* p = first;
  p = put2(p, static_cast<unsigned>(year / 100));
  p = put2(p, static_cast<unsigned>(year % 100));
  *p++ = '-';
  p = put2(p, static_cast<unsigned>(date.month()));
  *p++ = '-';
  p = put2(p, static_cast<unsigned>(date.day()));
  *p++ = 'T';
  p = put2(p, static_cast<unsigned>(time.hours().count()));
  *p++ = ':';
  p = put2(p, static_cast<unsigned>(time.minutes().count()));
  *p++ = ':';
  p = put2(p, static_cast<unsigned>(time.seconds().count()));
  if (layout == Layout::milliseconds) {
    const auto ms = static_cast<unsigned>(time.subseconds().count());
    *p++ = '.';
    *p++ = static_cast<char>('0' + ms / 100);
    p = put2(p, ms % 100);
  }
  *p++ = 'Z';
  return {p, std::errc{}};
}

bool append(std::string& out, TimePoint t, Layout layout) {
  char buf[32];  // on the stack: the formatting itself never touches the heap
  const auto [end, ec] = format_to(buf, buf + sizeof buf, t, layout);
  if (ec != std::errc{}) return false;
  out.append(buf, end);
  return true;
}

}  // namespace allocgate::workloads::rfc3339
