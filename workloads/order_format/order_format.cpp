// SPDX-License-Identifier: Apache-2.0
#include "order_format.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <iomanip>
#include <sstream>

#include "registry/seeded.h"

namespace allocgate::workloads::order_format {

std::string format_naive(const Order& order) {
  std::ostringstream out;
  out << "order_id:" << order.id << ";amount:" << std::fixed << std::setprecision(2) << order.amount;
  return out.str();
}

char* to_chars_fixed2(char* first, char* last, double amount) {
  // Under 2^31, x * 100 as a double has an ulp of at most 2^-15, so it is
  // within 2^-15 of the exact product: when it is further than twice that
  // from a half, the integer nearest to it is the one nearest to the exact
  // product, whatever a tie would do. (NaN fails the first test.)
  constexpr double kLimit = 2147483648.0;
  constexpr double kFromHalf = 0.5 - 0x1p-14;
  if (std::fabs(amount) < kLimit && last - first >= 16) {
    const double scaled = amount * 100.0;
    // Adding a half is exact at these sizes; the conversion truncates.
    const auto rounded = static_cast<std::int64_t>(scaled + (scaled < 0 ? -0.5 : 0.5));
    const double off = scaled - static_cast<double>(rounded);  // exact
    if (off < kFromHalf && off > -kFromHalf) {
      if (std::signbit(amount)) *first++ = '-';  // -0.001 is "-0.00", as to_chars writes it
      const auto cents = static_cast<std::uint64_t>(rounded < 0 ? -rounded : rounded);
      first = std::to_chars(first, last, cents / 100).ptr;
      *first++ = '.';
      *first++ = static_cast<char>('0' + cents % 100 / 10);
      *first++ = static_cast<char>('0' + cents % 10);
      return first;
    }
  }
  return std::to_chars(first, last, amount, std::chars_format::fixed, 2).ptr;
}

void append_order(std::string& out, const Order& order) {
  // The longest fixed-point double with two decimals: 309 integer digits,
  // a sign, a point and two decimals. On the stack, not in a temporary string.
  char amount[320];
  const auto end = to_chars_fixed2(amount, amount + sizeof amount, order.amount);
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
    const double amount = i == 0 ? 249.99 : static_cast<double>(random.between(0, 100'000'000)) / 1000.0;
    orders.push_back(Order{"ord-" + std::to_string(98234 + i) + "-xyz", amount});
  }
  return orders;
}

}  // namespace allocgate::workloads::order_format
