#include "order_format.h"

#include <charconv>
#include <iomanip>
#include <sstream>

#include "registry/seeded.h"

namespace allocgate::workloads::order_format {

std::string format_naive(const Order& order) {
  std::ostringstream out;
  out << "order_id:" << order.id << ";amount:" << std::fixed << std::setprecision(2) << order.amount;
  return out.str();
}

void append_order(std::string& out, const Order& order) {
  // The longest fixed-point double with two decimals: 309 integer digits,
  // a sign, a point and two decimals. On the stack, not in a temporary string.
  char amount[320];
  const auto end = std::to_chars(amount, amount + sizeof amount, order.amount,
                                 std::chars_format::fixed, 2).ptr;
  out.append("order_id:");
  out.append(order.id);
  out.append(";amount:");
  out.append(amount, end);
}

std::string format_pooled(BufferPool& pool, const Order& order) {
  BufferPool::Lease lease = pool.acquire();
  append_order(lease.buffer(), order);
  return lease.buffer();  // the copy the caller keeps
}

BufferPool& default_pool() {
  static BufferPool pool;
  return pool;
}

std::vector<Order> make_orders(std::size_t n) {
  Seeded random(5);
  std::vector<Order> orders;
  orders.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double amount =
        i == 0 ? 249.99 : static_cast<double>(random.between(0, 100'000'000)) / 1000.0;
    orders.push_back(Order{"ord-" + std::to_string(98234 + i) + "-xyz", amount});
  }
  return orders;
}

}  // namespace allocgate::workloads::order_format
