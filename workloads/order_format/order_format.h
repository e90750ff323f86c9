// SPDX-License-Identifier: Apache-2.0
// "order_id:ord-98234-xyz;amount:249.99" (case study 5): an ostringstream per
// call, against a pooled buffer with the amount written from its cents (or by
// std::to_chars where that would round differently).
#pragma once

#include <string>
#include <vector>

#include "buffer_pool.h"

namespace allocgate::workloads::order_format {

struct Order {
  std::string id;
  double amount = 0;
};

/// The plain version: std::ostringstream, std::fixed, std::setprecision(2).
std::string format_naive(const Order& order);

/// Builds the line in a buffer borrowed from pool and returns a copy: the copy
/// is its one allocation (the buffer is reused).
std::string format_pooled(BufferPool& pool, const Order& order);

/// Appends the line to out: no allocation once out has room. Rounds exactly
/// as format_naive does (both round the exact binary value to nearest).
void append_order(std::string& out, const Order& order);

/// std::to_chars(first, last, amount, std::chars_format::fixed, 2), byte for
/// byte (its plain twin), with amounts under 2^31 that are not within 2^-14 of
/// a half-cent written from their integer number of cents.
char* to_chars_fixed2(char* first, char* last, double amount);

/// The pool format_pooled uses when the caller has none of its own.
BufferPool& default_pool();

/// n orders, seeded: ids ord-<98234+i>-xyz, amounts with up to three
/// decimals, so that rounding to two is exercised.
std::vector<Order> make_orders(std::size_t n);

}  // namespace allocgate::workloads::order_format
