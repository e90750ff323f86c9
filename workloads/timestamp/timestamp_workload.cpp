// SPDX-License-Identifier: Apache-2.0
// The timestamp workload in the registry.

#include <stdexcept>

#include "registry/text_case.h"
#include "registry/workload.h"
#include "timestamp.h"

namespace allocgate::workloads {
namespace {

using Times = std::vector<timestamp::TimePoint>;

void render_naive(const Times& times, std::string& text) { text = timestamp::render_naive(times); }

void render(const Times& times, std::string& text) {
  if (!timestamp::render(times, text)) throw std::logic_error("timestamp: input out of range");
}

}  // namespace

Workload timestamp_workload() {
  return Workload{"timestamp",
                  "RFC 3339 timestamps, seconds and milliseconds layouts, one line per time point",
                  {{"naive", &make_text_case<&timestamp::make_times, &render_naive>},
                   {"optimized", &make_text_case<&timestamp::make_times, &render>}},
                  {1, 100, 10000},
                  1};
}

}  // namespace allocgate::workloads
