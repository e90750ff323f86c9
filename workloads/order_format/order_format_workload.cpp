// SPDX-License-Identifier: Apache-2.0
// The order_format workload in the registry. Each operation formats n orders;
// the naive and pooled variants keep each line in its own string (as a caller
// that hands the strings on would), the append variant writes all lines into
// one reused buffer.

#include "order_format.h"
#include "registry/workload.h"

namespace allocgate::workloads {
namespace {

using order_format::Order;

// Keeps one string per order; assigning a returned string moves it in, so the
// measured allocations are the formatting function's own.
class PerLineCase : public Case {
 public:
  PerLineCase(std::size_t n, bool pooled) : orders_(order_format::make_orders(n)), lines_(n), pooled_(pooled) {}
  void run() override {
    for (std::size_t i = 0; i < orders_.size(); ++i) {
      lines_[i] = pooled_ ? order_format::format_pooled(order_format::default_pool(), orders_[i])
                          : order_format::format_naive(orders_[i]);
    }
  }
  std::string output() const override {
    std::string text;
    for (const std::string& line : lines_) text.append(line).push_back('\n');
    return text;
  }

 private:
  std::vector<Order> orders_;
  std::vector<std::string> lines_;
  bool pooled_;
};

class AppendCase : public Case {
 public:
  explicit AppendCase(std::size_t n) : orders_(order_format::make_orders(n)) {}
  void run() override {
    text_.clear();
    for (const Order& order : orders_) {
      order_format::append_order(text_, order);
      text_.push_back('\n');
    }
  }
  std::string output() const override { return text_; }

 private:
  std::vector<Order> orders_;
  std::string text_;  // reused across runs
};

}  // namespace

Workload order_format_workload() {
  return Workload{"order_format",
                  "order_id:ord-98234-xyz;amount:249.99 lines, the amount with two decimals",
                  {{"naive", &make_case<PerLineCase, false>},
                   {"pooled", &make_case<PerLineCase, true>},
                   {"append", &make_case<AppendCase>}},
                  {1, 100, 10000},
                  1};
}

}  // namespace allocgate::workloads
