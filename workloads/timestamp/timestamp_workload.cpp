// The timestamp workload in the registry.

#include <stdexcept>

#include "registry/workload.h"
#include "timestamp.h"

namespace allocgate::workloads {
namespace {

using timestamp::TimePoint;

class NaiveCase : public Case {
 public:
  explicit NaiveCase(std::size_t n) : times_(timestamp::make_times(n)) {}
  void run() override { text_ = timestamp::render_naive(times_); }
  std::string output() const override { return text_; }

 private:
  std::vector<TimePoint> times_;
  std::string text_;
};

class OptimizedCase : public Case {
 public:
  explicit OptimizedCase(std::size_t n) : times_(timestamp::make_times(n)) {}
  void run() override {
    if (!timestamp::render(times_, text_)) throw std::logic_error("timestamp: input out of range");
  }
  std::string output() const override { return text_; }

 private:
  std::vector<TimePoint> times_;
  std::string text_;  // reused across runs
};

std::unique_ptr<Case> prepare(std::string_view variant, std::size_t size) {
  if (variant == "naive") return std::make_unique<NaiveCase>(size);
  if (variant == "optimized") return std::make_unique<OptimizedCase>(size);
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
