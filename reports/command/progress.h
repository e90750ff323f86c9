// SPDX-License-Identifier: Apache-2.0
// `allocgate run`'s progress on stderr: "[16/60] timestamp/naive/1 (timed),
// 12 s in, about 33 s left". Quiet while the run is young (a quick run
// prints nothing); the first line it prints says what the steps are, since
// a timed run takes each case twice (counted, then timed).
#pragma once

#include <chrono>
#include <cmath>
#include <cstddef>
#include <functional>
#include <ostream>
#include <string>

namespace allocgate::command {

class Progress {
 public:
  using Clock = std::chrono::steady_clock;

  /// `cases` cases, each taken `passes` times (1: counted; 2: counted, then
  /// timed). `now` is the clock (a test's own).
  Progress(std::ostream& out, std::size_t cases, std::size_t passes,
           std::function<Clock::time_point()> now = &Clock::now)
      : out_(out), cases_(cases), passes_(passes), now_(std::move(now)), start_(now_()) {}

  /// One step done: `what`, e.g. "timestamp/naive/1 (counted)".
  void step(const std::string& what) {
    ++done_;
    const auto elapsed = std::chrono::duration<double>(now_() - start_).count();
    if (elapsed <= 1) return;
    const std::size_t total = cases_ * passes_;
    if (!said_) {
      out_ << "allocgate: " << cases_ << " case(s)"
           << (passes_ > 1 ? ", each counted then timed: " + std::to_string(total) + " steps" : "") << "\n";
      said_ = true;
    }
    out_ << "[" << done_ << "/" << total << "] " << what << ", " << seconds(elapsed) << " in";
    if (done_ < total) {
      out_ << ", about " << seconds(elapsed / static_cast<double>(done_) * static_cast<double>(total - done_))
           << " left";
    }
    out_ << std::endl;
  }

 private:
  static std::string seconds(double s) {
    const long whole = std::lround(s);
    if (whole < 60) return std::to_string(whole) + " s";
    return std::to_string(whole / 60) + " min " + std::to_string(whole % 60) + " s";
  }

  std::ostream& out_;
  std::size_t cases_, passes_;
  std::function<Clock::time_point()> now_;
  Clock::time_point start_;
  std::size_t done_ = 0;
  bool said_ = false;
};

}  // namespace allocgate::command
