// The timestamp workload in the registry.

#include <stdexcept>

#include "registry/text_case.h"
#include "registry/workload.h"
#include "timestamp.h"

namespace allocgate::workloads {
namespace {

std::unique_ptr<Case> prepare(std::string_view variant, std::size_t size) {
  if (variant == "naive") {
    return make_text_case(timestamp::make_times(size), [](const auto& times, std::string& text) {
      text = timestamp::render_naive(times);
    });
  }
  if (variant == "optimized") {
    return make_text_case(timestamp::make_times(size), [](const auto& times, std::string& text) {
      if (!timestamp::render(times, text)) throw std::logic_error("timestamp: input out of range");
    });
  }
  throw_unknown_variant("timestamp", variant);
}

}  // namespace

Workload timestamp_workload() {
  return Workload{"timestamp",
                  "RFC 3339 timestamps, seconds and milliseconds layouts, one line per time point",
                  {"naive", "optimized"},
                  {1, 100, 10000},
                  1,
                  &prepare};
}

}  // namespace allocgate::workloads
