// SPDX-License-Identifier: Apache-2.0
// One counted run of one test, whatever framework runs it (see
// counted_run.h).
#include "integrations/core/counted_run.h"

#include <algorithm>
#include <atomic>
#include <sstream>

#include "counting/reachability.h"
#include "counting/thread_state.h"
#include "integrations/core/static_guard.h"

namespace allocgate::integrations {
namespace {

// The visit of live_blocks: each leaked block's bytes on its stack.
void add_live(const allocgate::detail::TrackedBlock& block, void*) {
  if (block.stack != nullptr) {
    ++block.stack->live_count;
    block.stack->live_bytes += block.size;
  }
}

// What threads other than the owner of the process's tally (the thread that
// opened the first scope: the one that runs the tests) have allocated so
// far; 0 on any other thread, where the share is not told apart.
std::uint64_t other_threads_allocations() {
  const allocgate::detail::ProcessCounters& process = allocgate::detail::process_counters();
  if (process.owner.load(std::memory_order_relaxed) != &allocgate::detail::thread_state()) return 0;
  return process.shared.allocations.load(std::memory_order_relaxed);
}

}  // namespace

OneTime OneTime::now() {
  const allocgate::detail::ProcessCounters& process = allocgate::detail::process_counters();
  return {process.one_time_allocations.load(std::memory_order_relaxed),
          process.one_time_bytes.load(std::memory_order_relaxed)};
}

void take_out(AllocationStats& stats, const AllocationStats& from, const AllocationStats& to) {
  stats.allocations -= to.allocations - from.allocations;
  stats.bytes_allocated -= to.bytes_allocated - from.bytes_allocated;
  const std::int64_t made = std::max<std::int64_t>(to.net_bytes - from.net_bytes, 0);
  const std::uint64_t after = stats.peak_live_bytes > to.peak_live_bytes
                                  ? static_cast<std::uint64_t>(std::max<std::int64_t>(
                                        static_cast<std::int64_t>(stats.peak_live_bytes) - made, 0))
                                  : 0;
  stats.peak_live_bytes = std::max<std::uint64_t>(from.peak_live_bytes, after);
}

void TestRun::prepare_suite() {
  require_hook();
  allocgate::testing::detail::resolve_static_guards();
  allocgate::detail::prepare_reachability();
  allocgate::detail::clear_new_blocks();
  allocgate::detail::hold_freed_blocks();
}

TestRun::TestRun() = default;
TestRun::~TestRun() = default;

void TestRun::begin(bool with_stacks, void* not_the_tests) {
  // One capture for the whole run of tests, restarted per test: a table
  // reserved per test (1.2 MB, cleared) tripled the wall time of a suite
  // of small tests.
  if (with_stacks) {
    if (capture_) {
      capture_->restart();
    } else {
      // A test's workers are the test's: what they allocate has its lines too.
      capture_ = std::make_unique<CaptureSites>(4096, Unwinder::kCached, CaptureThreads::kEveryThread);
    }
  } else {
    capture_.reset();
  }
  thread_ = std::this_thread::get_id();
  allocgate::detail::start_tracking_blocks(capture_ != nullptr);  // stacks for a leak's lines
  if (not_the_tests != nullptr) allocgate::detail::disown_block(not_the_tests, 0);
  one_time_before_ = OneTime::now();
  scope_.emplace();
  others_before_ = other_threads_allocations();
}

TestRun::End TestRun::end(const void* outer_frame, bool mark) {
  if (capture_) capture_->stop();
  End end;
  if (mark) {
    end.live = allocgate::detail::split_live_blocks(outer_frame, capture_ ? add_live : nullptr, nullptr,
                                                    roots_taken_ ? &roots_before_ : nullptr);
  }
  roots_taken_ = false;
  allocgate::detail::stop_tracking_blocks();
  end.one_time = OneTime::now() - one_time_before_;
  end.other_thread_allocations = other_threads_allocations() - others_before_;
  scope_.reset();
  return end;
}

std::string TestRun::leak_lines(const allocgate::detail::LiveTotals& leaked, std::string_view source_root) const {
  if (!capture_) return {};
  std::ostringstream lines;
  const SiteProfile live = allocgate::detail::live_profile(*capture_, source_root);
  if (!live.sites.empty()) lines << live.top(5, true);
  if (live.allocations < leaked.blocks) {
    lines << "\n  " << leaked.blocks - live.allocations
          << " of the blocks have no stack: allocated while the capture was off, or past its table";
  }
  return lines.str();
}

}  // namespace allocgate::integrations
