// SPDX-License-Identifier: Apache-2.0
#include "timestamp.h"

#include "common/text_writer.h"

namespace allocgate::workloads::timestamp {

std::string render_naive(std::span<const TimePoint> times) {
  std::string out;
  for (const TimePoint t : times) {
    out += format_naive(t, Layout::seconds) + " " + format_naive(t, Layout::milliseconds) + "\n";
  }
  return out;
}

bool render(std::span<const TimePoint> times, std::string& out) {
  constexpr std::size_t kLine = rfc3339::length(Layout::seconds) + 1 + rfc3339::length(Layout::milliseconds) + 1;
  TextWriter writer(out);  // keeps the buffer: the point of reusing it
  for (const TimePoint t : times) {
    Civil civil;  // the calendar once, for both layouts
    if (!to_civil(t, civil)) {
      writer.finish();
      return false;
    }
    char* p = writer.room(kLine);
    p = rfc3339::write(p, civil, Layout::seconds);
    *p++ = ' ';
    p = rfc3339::write(p, civil, Layout::milliseconds);
    *p++ = '\n';
    writer.advance(p);
  }
  writer.finish();
  return true;
}

std::vector<TimePoint> make_times(std::size_t n) {
  // 2026-11-30T09:51:58.123Z, the listing case study's first LastModified.
  const TimePoint base{std::chrono::milliseconds{1'796'032'318'123}};
  std::vector<TimePoint> times;
  times.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    times.push_back(base + std::chrono::milliseconds{static_cast<long long>(i) * 1'000'003});
  }
  return times;
}

}  // namespace allocgate::workloads::timestamp
