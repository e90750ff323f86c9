// SPDX-License-Identifier: Apache-2.0
#include "common/rfc3339.h"

#include <cstdint>
#include <cstring>
#include <ctime>
#include <iomanip>
#include <sstream>
#include <stdexcept>

namespace allocgate::workloads::rfc3339 {

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

// The times with four-digit years: 0000-01-01T00:00:00.000Z and
// 9999-12-31T23:59:59.999Z, in milliseconds since the epoch.
constexpr long long kFirstMs = -62'167'219'200'000;
constexpr long long kLastMs = 253'402'300'799'999;
constexpr std::uint64_t kMsPerDay = 86'400'000;
// Days from 0000-01-01 to 0000-03-01, where the computational year starts
// (so that a leap day ends it).
constexpr std::uint32_t kJanuaryToMarch = 60;
// Four hundred years: shifts every day of years 0000-9999 to a positive count
// from 0000-03-01 (0000-01-01 is 60 days before it).
constexpr std::uint32_t kEraDays = 146'097;

constexpr char kDigitPairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

// Two digits of v (0-99) with one table load instead of a division each.
char* put2(char* p, unsigned v) noexcept {
  std::memcpy(p, kDigitPairs + 2 * v, 2);
  return p + 2;
}

}  // namespace

bool to_civil(TimePoint t, Civil& civil) noexcept {
  const long long ms = t.time_since_epoch().count();
  if (ms < kFirstMs || ms > kLastMs) return false;
  // Unsigned from here: every count below is non-negative and fits 32 bits
  // but the first, so the divisions by constants are multiplications.
  const std::uint64_t since_year_zero = static_cast<std::uint64_t>(ms - kFirstMs);
  const auto days = static_cast<std::uint32_t>(since_year_zero / kMsPerDay);
  const auto of_day = static_cast<std::uint32_t>(since_year_zero % kMsPerDay);

  // Neri and Schneider, "Euclidean affine functions and their application to
  // calendar algorithms" (2022): days since 0000-03-01, plus one era.
  const std::uint32_t n = days - kJanuaryToMarch + kEraDays;
  const std::uint32_t n1 = 4 * n + 3;
  const std::uint32_t century = n1 / kEraDays;
  const std::uint32_t n2 = (n1 % kEraDays) | 3;
  const std::uint64_t p2 = std::uint64_t{2'939'745} * n2;
  const auto year_of_century = static_cast<std::uint32_t>(p2 >> 32);
  const std::uint32_t day_of_year = static_cast<std::uint32_t>(p2) / 2'939'745 / 4;
  const std::uint32_t n3 = 2141 * day_of_year + 197'913;
  const std::uint32_t march_month = n3 >> 16;          // 3 to 14
  const std::uint32_t day = (n3 & 0xFFFF) / 2141 + 1;  // 1 to 31
  const bool january_or_february = day_of_year >= 306;
  civil.year = 100 * century + year_of_century + january_or_february - 400;
  civil.month = january_or_february ? march_month - 12 : march_month;
  civil.day = day;

  const std::uint32_t seconds = of_day / 1000;
  civil.millisecond = of_day % 1000;
  civil.hour = seconds / 3600;
  civil.minute = seconds % 3600 / 60;
  civil.second = seconds % 60;
  return true;
}

char* write(char* p, const Civil& civil, Layout layout) noexcept {
  p = put2(p, civil.year / 100);
  p = put2(p, civil.year % 100);
  *p++ = '-';
  p = put2(p, civil.month);
  *p++ = '-';
  p = put2(p, civil.day);
  *p++ = 'T';
  p = put2(p, civil.hour);
  *p++ = ':';
  p = put2(p, civil.minute);
  *p++ = ':';
  p = put2(p, civil.second);
  if (layout == Layout::milliseconds) {
    *p++ = '.';
    *p++ = static_cast<char>('0' + civil.millisecond / 100);
    p = put2(p, civil.millisecond % 100);
  }
  *p++ = 'Z';
  return p;
}

std::to_chars_result format_to(char* first, char* last, TimePoint t, Layout layout) noexcept {
  if (last - first < static_cast<std::ptrdiff_t>(length(layout))) return {last, std::errc::value_too_large};
  Civil civil;
  if (!to_civil(t, civil)) return {first, std::errc::result_out_of_range};
  return {write(first, civil, layout), std::errc{}};
}

bool append(std::string& out, TimePoint t, Layout layout) {
  char buf[32];  // on the stack: the formatting itself never touches the heap
  const auto [end, ec] = format_to(buf, buf + sizeof buf, t, layout);
  if (ec != std::errc{}) return false;
  out.append(buf, end);
  return true;
}

}  // namespace allocgate::workloads::rfc3339
