// SPDX-License-Identifier: Apache-2.0
// Internal: the table a capture reserves for the threads with no capture of
// their own (CaptureThreads::kEveryThread), with the memory it owns.
#pragma once

#include <vector>

#include "counting/thread_state.h"

namespace allocgate::detail {

// Its stacks are whole: they have no callers in common with the capture's
// thread, and its unwinder joins no anchor (an anchor is one thread's stack).
struct ReservedTable {
  StackTable table;
  std::vector<unsigned char> storage;
  std::vector<unsigned char> rule_storage;
};

}  // namespace allocgate::detail
