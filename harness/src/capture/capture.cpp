// SPDX-License-Identifier: Apache-2.0
// CaptureSites: recording the stacks (the hook does, into the table reserved
// here). Symbolizing them is symbolize.cpp's, in allocgate::sites, so that the
// harness itself needs no libdw.

#include <execinfo.h>

#include <new>

#include "allocgate/guards.h"
#include "allocgate/sites.h"
#include "capture/reserved_table.h"
#include "capture/unwind.h"
#include "counting/thread_state.h"

namespace allocgate {

namespace {
// Return addresses whose unwind rules a capture keeps: more than the distinct
// call sites on the stacks of most programs' allocations.
constexpr std::size_t kCachedRules = 4096;
static_assert(sizeof(detail::FrameRule) == 32, "sites.h says what the rules take");

// Reserves the table's slots and its unwinder's rules, up front: the hook
// only ever writes into memory it already has.
void reserve(detail::StackTable& table, std::vector<unsigned char>& storage, std::vector<unsigned char>& rule_storage,
             std::size_t capacity, Unwinder unwinder) {
  storage.resize(capacity * sizeof(detail::CapturedStack));
  table.slots = new (storage.data()) detail::CapturedStack[capacity]();
  table.capacity = capacity;
  table.use_backtrace = unwinder == Unwinder::kBacktrace;
  if (!table.use_backtrace) {
    rule_storage.resize(kCachedRules * sizeof(detail::FrameRule));
    table.rules.slots = new (rule_storage.data()) detail::FrameRule[kCachedRules]();
    table.rules.capacity = kCachedRules;
  }
}

void clear(detail::StackTable& table) {
  for (std::size_t i = 0; i < table.capacity; ++i) {
    if (table.slots[i].hash != 0) table.slots[i] = detail::CapturedStack{};
  }
  table.dropped = 0;
  table.last_slot = nullptr;
  table.last_block = nullptr;
}
}  // namespace

CaptureSites::CaptureSites(std::size_t max_stacks, Unwinder unwinder, CaptureThreads threads) {
  PauseCounting pause;  // the table is the harness's, not the code's
  table_ = std::make_unique<detail::StackTable>();
  // Doubling towards SIZE_MAX would wrap to 0 and never end.
  const std::size_t wanted = max_stacks < kMaxStacksLimit ? max_stacks : kMaxStacksLimit;
  std::size_t capacity = 16;
  while (capacity < wanted) capacity *= 2;
  reserve(*table_, storage_, rule_storage_, capacity, unwinder);
  if (threads == CaptureThreads::kEveryThread) {
    others_ = std::make_unique<detail::ReservedTable>();
    reserve(others_->table, others_->storage, others_->rule_storage, capacity, unwinder);
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
  if (others_) detail::capture_other_threads(&others_->table);
  active_ = true;
}

void CaptureSites::restart() {
  stop();
  PauseCounting pause;
  clear(*table_);
  if (others_) clear(others_->table);
  begin();
}

CaptureSites::~CaptureSites() {
  stop();
  // Freed as it was allocated, paused: without block headers the hook cannot
  // tell that these blocks were never counted.
  PauseCounting pause;
  table_.reset();
  others_.reset();
  std::vector<unsigned char>().swap(storage_);
  std::vector<unsigned char>().swap(rule_storage_);
}

void CaptureSites::stop() noexcept {
  if (!active_) return;
  active_ = false;
  if (others_) detail::capture_other_threads(nullptr);  // before the table is read
  // No word of the capture's may keep a block alive (reachability.h).
  table_->last_block = nullptr;
  detail::ThreadState& t = detail::thread_state();
  t.capture = outer_;
  t.refresh_mode();
}

}  // namespace allocgate
