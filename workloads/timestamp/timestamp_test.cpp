// SPDX-License-Identifier: Apache-2.0
#include "timestamp.h"

#include <array>
#include <chrono>
#include <stdexcept>
#include <string>

#include "allocgate/gtest.h"
#include "registry/seeded.h"
#include "standard_library.h"

namespace {

using namespace allocgate::workloads::timestamp;
using std::chrono::milliseconds;

TimePoint at(long long ms) { return TimePoint{milliseconds{ms}}; }

std::string optimized(TimePoint t, Layout layout) {
  char buf[32];
  const auto [end, ec] = format_to(buf, buf + sizeof buf, t, layout);
  if (ec != std::errc{}) throw std::out_of_range("format_to failed");
  return std::string(buf, end);
}

// Milliseconds since the epoch of y-m-d 00:00:00.000 UTC.
long long day_ms(int y, unsigned m, unsigned d) {
  using namespace std::chrono;
  return duration_cast<milliseconds>(sys_days{year{y} / month{m} / day{d}}.time_since_epoch()).count();
}

TEST(Timestamp, KnownTimesInBothLayouts) {
  struct Known {
    long long ms;
    const char* seconds;
    const char* millis;
  };
  const Known known[] = {
      {0, "1970-01-01T00:00:00Z", "1970-01-01T00:00:00.000Z"},
      {1'796'032'318'123, "2026-11-30T09:51:58Z", "2026-11-30T09:51:58.123Z"},
      {-1, "1969-12-31T23:59:59Z", "1969-12-31T23:59:59.999Z"},
      {day_ms(2000, 2, 29) + 43'200'007, "2000-02-29T12:00:00Z", "2000-02-29T12:00:00.007Z"},
      {day_ms(0, 1, 1), "0000-01-01T00:00:00Z", "0000-01-01T00:00:00.000Z"},
      {day_ms(9999, 12, 31) + 86'399'999, "9999-12-31T23:59:59Z", "9999-12-31T23:59:59.999Z"},
      {day_ms(1600, 2, 29) + 1, "1600-02-29T00:00:00Z", "1600-02-29T00:00:00.001Z"},
  };
  for (const Known& k : known) {
    EXPECT_EQ(optimized(at(k.ms), Layout::seconds), k.seconds);
    EXPECT_EQ(optimized(at(k.ms), Layout::milliseconds), k.millis);
    EXPECT_EQ(format_naive(at(k.ms), Layout::seconds), k.seconds);
    EXPECT_EQ(format_naive(at(k.ms), Layout::milliseconds), k.millis);
  }
}

TEST(Timestamp, YearsOutsideFourDigitsAreErrorsNotOverruns) {
  for (const long long ms : {day_ms(10000, 1, 1), day_ms(-1, 12, 31) + 86'399'999, day_ms(-200000, 1, 1)}) {
    std::array<char, 32> buf;
    buf.fill('#');
    const auto result = format_to(buf.data(), buf.data() + buf.size(), at(ms), Layout::milliseconds);
    EXPECT_EQ(result.ec, std::errc::result_out_of_range);
    EXPECT_EQ(buf[0], '#');  // nothing written
    EXPECT_THROW(format_naive(at(ms), Layout::seconds), std::out_of_range);
    std::string out = "kept";
    EXPECT_FALSE(append(out, at(ms), Layout::seconds));
    EXPECT_EQ(out, "kept");
  }
}

TEST(Timestamp, ABufferTooSmallIsAnError) {
  char buf[24];
  EXPECT_EQ(format_to(buf, buf + 23, at(0), Layout::milliseconds).ec, std::errc::value_too_large);
  EXPECT_EQ(format_to(buf, buf + 24, at(0), Layout::milliseconds).ec, std::errc{});
  EXPECT_EQ(format_to(buf, buf + 19, at(0), Layout::seconds).ec, std::errc::value_too_large);
}

TEST(Timestamp, OptimizedEqualsNaiveOnRandomTimesOverYears1To9999) {
  const long long lo = day_ms(1, 1, 1);
  const long long hi = day_ms(9999, 12, 31) + 86'399'999;
  allocgate::workloads::Seeded random(2);
  for (int i = 0; i < 100'000; ++i) {
    const TimePoint t = at(random.between(lo, hi));
    for (const Layout layout : {Layout::seconds, Layout::milliseconds}) {
      ASSERT_EQ(optimized(t, layout), format_naive(t, layout)) << t.time_since_epoch().count();
    }
  }
}

TEST(Timestamp, OptimizedEqualsNaiveAroundEveryLeapDayAndMonthEnd) {
  for (const int y : {4, 100, 400, 1600, 1900, 1969, 1970, 2000, 2024, 2100, 9996}) {
    for (unsigned m = 1; m <= 12; ++m) {
      const long long first = day_ms(y, m, 1);
      for (const long long ms : {first - 1, first, first + 1, first + 86'400'000 * 28LL + 999}) {
        ASSERT_EQ(optimized(at(ms), Layout::milliseconds), format_naive(at(ms), Layout::milliseconds));
      }
    }
  }
}

// Every day of years 0000-9999 against the standard library's calendar (a
// different algorithm from to_civil's), at a time of day that moves through
// every hour, minute, second and millisecond value.
TEST(Timestamp, ToCivilEqualsTheStandardCalendarOnEveryDay) {
  using namespace std::chrono;
  const sys_days first = year{0} / January / 1;
  const sys_days last = year{9999} / December / 31;
  long long of_day = 0;
  for (sys_days day = first; day <= last; day += days{1}) {
    of_day = (of_day + 3'601'001 + 61'001 * 7) % 86'400'000;
    const TimePoint t = time_point_cast<milliseconds>(day) + milliseconds{of_day};
    Civil civil{};
    ASSERT_TRUE(to_civil(t, civil));
    const year_month_day date{day};
    const hh_mm_ss<milliseconds> time{milliseconds{of_day}};
    ASSERT_EQ(civil.year, static_cast<unsigned>(static_cast<int>(date.year()))) << day.time_since_epoch().count();
    ASSERT_EQ(civil.month, static_cast<unsigned>(date.month()));
    ASSERT_EQ(civil.day, static_cast<unsigned>(date.day()));
    ASSERT_EQ(civil.hour, time.hours().count());
    ASSERT_EQ(civil.minute, time.minutes().count());
    ASSERT_EQ(civil.second, time.seconds().count());
    ASSERT_EQ(civil.millisecond, time.subseconds().count());
  }
  Civil civil{};
  EXPECT_FALSE(to_civil(time_point_cast<milliseconds>(first) - milliseconds{1}, civil));
  EXPECT_FALSE(to_civil(time_point_cast<milliseconds>(last) + days{1}, civil));
}

TEST(TimestampAllocations, FormattingIntoAStackBufferAllocatesNothing) {
  char buf[32];
  EXPECT_NO_ALLOCATIONS(format_to(buf, buf + sizeof buf, at(1'796'032'318'123), Layout::milliseconds));
  std::string out;
  out.reserve(64);
  EXPECT_NO_ALLOCATIONS(append(out, at(0), Layout::seconds));
}

TEST(TimestampAllocations, NaiveAllocatesPerTimestampOptimizedStaysAtZero) {
  for (const std::size_t n : {std::size_t{1}, std::size_t{100}, std::size_t{10000}}) {
    const auto times = make_times(n);
    std::string out;
    render(times, out);  // warm-up: the buffer reaches its size
    EXPECT_NO_ALLOCATIONS(render(times, out)) << n << " timestamps";
    const auto naive = allocgate::measure([&] { out = render_naive(times); });
    // Per time point, at least the two formatted strings.
    EXPECT_GE(naive.allocations, 2 * n) << n << " timestamps";
  }
}

TEST(TimestampAllocations, NaiveCostsAnExactNumberPerCall) {
  // The ostringstream's string outgrows its small-string buffer (15
  // characters in libstdc++, 22 in libc++) for a block of its own, and str()
  // copies the result into another: 2 allocations per call, or none when the
  // timestamp fits the buffer (20 and 24 characters: both past libstdc++'s;
  // only the second past libc++'s).
  const auto per_call = [](std::size_t length) { return length > allocgate::test::kShortStringCapacity ? 2 : 0; };
  std::string s;
  EXPECT_ALLOCATIONS_EQ(s = format_naive(at(0), Layout::seconds), per_call(20));
  EXPECT_ALLOCATIONS_EQ(s = format_naive(at(0), Layout::milliseconds), per_call(24));
}

}  // namespace
