// SPDX-License-Identifier: Apache-2.0
// The wrapped loop entry points of Google Benchmark (see benchmark_loop.h):
// every benchmark's timed loop counted, with nothing in the benchmark.

#include "integrations/benchmark/benchmark_loop.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <new>
#include <utility>

#include "allocgate/benchmark.h"
#include "allocgate/guards.h"
#include "allocgate/scope.h"
#include "allocgate/sites.h"
#include "integrations/benchmark/benchmark_sites.h"
#include "integrations/core/wrapped.h"

using ::benchmark::State;
ALLOCGATE_WRAPPED(void, start, (State * state), "_ZN9benchmark5State16StartKeepRunningEv")
ALLOCGATE_WRAPPED(void, finish, (State * state), "_ZN9benchmark5State17FinishKeepRunningEv")
ALLOCGATE_WRAPPED(void, pause, (State * state), "_ZN9benchmark5State11PauseTimingEv")
ALLOCGATE_WRAPPED(void, resume, (State * state), "_ZN9benchmark5State12ResumeTimingEv")

namespace {

// A T made and ended in place on demand. Trivially destructible, so a
// thread_local of it needs no destructor registration (which would allocate
// on the thread's first loop).
template <class T>
class Slot {
 public:
  template <class... Args>
  T& emplace(Args&&... args) {
    T* made = new (storage_) T(std::forward<Args>(args)...);
    live_ = true;
    return *made;
  }
  void reset() noexcept {
    if (!live_) return;
    live_ = false;
    get().~T();
  }
  T& get() noexcept { return *std::launder(reinterpret_cast<T*>(storage_)); }
  bool live() const noexcept { return live_; }

 private:
  alignas(T) unsigned char storage_[sizeof(T)];
  bool live_ = false;
};

// The loop this thread is in, while it is counted. PauseTiming ends a timed
// stretch and ResumeTiming begins the next: each has a scope of its own, and
// the loop's figures are their sums, its peak the highest stretch's. (One
// scope across the pauses would miss the frees made while paused, and its
// peak would climb by what each stretch left for the pause to free.)
struct Loop {
  State* state = nullptr;
  Slot<allocgate::CaptureSites> capture;  // with --allocgate_sites
  Slot<allocgate::AllocationScope> stretch;
  Slot<allocgate::PauseCounting> paused;  // between PauseTiming and ResumeTiming
  allocgate::AllocationStats earlier;     // the stretches before the current one

  // Ends the current stretch, adding its figures to the loop's.
  void end_stretch() noexcept {
    if (!stretch.live()) return;
    const allocgate::AllocationStats s = stretch.get().stats();
    stretch.reset();
    earlier.allocations += s.allocations;
    earlier.deallocations += s.deallocations;
    earlier.bytes_allocated += s.bytes_allocated;
    earlier.bytes_freed += s.bytes_freed;
    earlier.net_bytes += s.net_bytes;
    earlier.unsized_deallocations += s.unsized_deallocations;
    earlier.peak_live_bytes = std::max(earlier.peak_live_bytes, s.peak_live_bytes);
  }
};

thread_local Loop loop;
thread_local const State* explicitly_counted = nullptr;

// A loop left without FinishKeepRunning (a range-for left with break after
// SkipWithError) is closed when the thread's next loop begins: its figures
// are not reported (an errored run has none).
void close(Loop& l) noexcept {
  l.paused.reset();
  l.stretch.reset();
  l.earlier = {};
  if (l.capture.live()) {
    const allocgate::PauseCounting uncounted;  // the capture frees its tables
    l.capture.reset();
  }
  l.state = nullptr;
}

}  // namespace

namespace allocgate::benchmark::detail {

void set_explicitly_counted(const State* state) noexcept { explicitly_counted = state; }

void set_counters(State& state, const AllocationStats& stats) {
  PauseCounting pause;  // the counters map allocates its nodes
  using ::benchmark::Counter;
  state.counters[kAllocsPerOp] = Counter(static_cast<double>(stats.allocations), Counter::kAvgIterations);
  state.counters[kBytesPerOp] = Counter(static_cast<double>(stats.bytes_allocated), Counter::kAvgIterations);
  // A peak that counts blocks freed without their size would be too high:
  // better absent (see stats.h).
  if (stats.sizes_known()) {
    state.counters[kPeakBytes] = Counter(static_cast<double>(stats.peak_live_bytes));
    state.counters[keys::kLeakedBytesPerOp] =
        Counter(static_cast<double>(std::max<std::int64_t>(stats.net_bytes, 0)), Counter::kAvgIterations);
  }
}

}  // namespace allocgate::benchmark::detail

// The functions the program's calls reach instead.
namespace allocgate::benchmark::detail::wrapped {

void start(State* state) {
  Loop& l = loop;
  if (l.state != nullptr) close(l);
  const bool counted = explicitly_counted != state;
  if (counted) {
    l.state = state;
    if (sites_options().enabled) {
      const PauseCounting uncounted;  // the capture's tables are not the benchmark's
      l.capture.emplace(4096);
    }
  }
  real::start(state);  // starts the clock last
  if (counted) l.stretch.emplace();
}

void finish(State* state) {
  Loop& l = loop;
  if (l.state != state) {
    real::finish(state);
    return;
  }
  l.end_stretch();
  if (l.capture.live()) l.capture.get().stop();
  real::finish(state);  // stops the clock first
  if (!state->error_occurred()) {
    set_counters(*state, l.earlier);
    if (l.capture.live()) add_capture(l.capture.get(), state->iterations());
  }
  close(l);
}

void pause(State* state) {
  Loop& l = loop;
  if (l.state == state && l.stretch.live()) {
    l.end_stretch();
    l.paused.emplace();  // the capture, if any, skips what the pause allocates
  }
  real::pause(state);
}

void resume(State* state) {
  real::resume(state);
  Loop& l = loop;
  if (l.state == state && l.paused.live()) {
    l.paused.reset();
    l.stretch.emplace();
  }
}

}  // namespace allocgate::benchmark::detail::wrapped
