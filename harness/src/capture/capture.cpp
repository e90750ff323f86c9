// SPDX-License-Identifier: Apache-2.0
// CaptureSites: recording the stacks (the hook does, into the table reserved
// here). Symbolizing them is symbolize.cpp's, in allocgate::sites, so that the
// harness itself needs no libdw.

#include <execinfo.h>

#include <new>

#include "allocgate/guards.h"
#include "allocgate/sites.h"
#include "capture/unwind.h"
#include "counting/thread_state.h"

namespace allocgate {

namespace {
// Return addresses whose unwind rules a capture keeps: more than the distinct
// call sites on the stacks of most programs' allocations.
constexpr std::size_t kCachedRules = 4096;
static_assert(sizeof(detail::FrameRule) == 32, "sites.h says what the rules take");
}  // namespace

CaptureSites::CaptureSites(std::size_t max_stacks, Unwinder unwinder) {
  PauseCounting pause;  // the table is the harness's, not the code's
  table_ = std::make_unique<detail::StackTable>();
  // Doubling towards SIZE_MAX would wrap to 0 and never end.
  const std::size_t wanted = max_stacks < kMaxStacksLimit ? max_stacks : kMaxStacksLimit;
  std::size_t capacity = 16;
  while (capacity < wanted) capacity *= 2;
  storage_.resize(capacity * sizeof(detail::CapturedStack));
  table_->slots = new (storage_.data()) detail::CapturedStack[capacity]();
  table_->capacity = capacity;
  table_->use_backtrace = unwinder == Unwinder::kBacktrace;
  if (!table_->use_backtrace) {
    rule_storage_.resize(kCachedRules * sizeof(detail::FrameRule));
    table_->rules.slots = new (rule_storage_.data()) detail::FrameRule[kCachedRules]();
    table_->rules.capacity = kCachedRules;
  }
  // glibc loads its unwinder on the first backtrace(), allocating as it does:
  // do that here, not inside the hook.
  void* warm[2];
  backtrace(warm, 2);
  begin();
}

void CaptureSites::begin() {
  table_->caller_depth = detail::backtrace_stack(table_->callers, detail::kMaxUnwindFrames);
  // Every stack captured from here on passes through this one's callers:
  // walked once now, joined by each captured stack instead of walked again.
  if (!table_->use_backtrace) detail::anchor_stack(table_->rules, table_->anchor);
  detail::ThreadState& t = detail::thread_state();
  outer_ = t.capture;
  t.capture = table_.get();
  t.refresh_mode();
  active_ = true;
}

void CaptureSites::restart() {
  stop();
  PauseCounting pause;
  for (std::size_t i = 0; i < table_->capacity; ++i) {
    if (table_->slots[i].hash != 0) table_->slots[i] = detail::CapturedStack{};
  }
  table_->dropped = 0;
  table_->last_slot = nullptr;
  table_->last_block = nullptr;
  begin();
}

CaptureSites::~CaptureSites() {
  stop();
  // Freed as it was allocated, paused: without block headers the hook cannot
  // tell that these blocks were never counted.
  PauseCounting pause;
  table_.reset();
  std::vector<unsigned char>().swap(storage_);
  std::vector<unsigned char>().swap(rule_storage_);
}

void CaptureSites::stop() noexcept {
  if (!active_) return;
  active_ = false;
  // No word of the capture's may keep a block alive (reachability.h).
  table_->last_block = nullptr;
  detail::ThreadState& t = detail::thread_state();
  t.capture = outer_;
  t.refresh_mode();
}

}  // namespace allocgate
