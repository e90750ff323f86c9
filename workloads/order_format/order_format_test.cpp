// SPDX-License-Identifier: Apache-2.0
#include "order_format.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "allocgate/gtest.h"
#include "registry/seeded.h"
#include "standard_library.h"

namespace {

using namespace allocgate::workloads::order_format;

std::string appended(const Order& order) {
  std::string out;
  append_order(out, order);
  return out;
}

TEST(OrderFormat, FormatsTheCaseStudysOrder) {
  const Order order{"ord-98234-xyz", 249.99};
  EXPECT_EQ(format_naive(order), "order_id:ord-98234-xyz;amount:249.99");
  EXPECT_EQ(format_pooled(default_pool(), order), "order_id:ord-98234-xyz;amount:249.99");
  EXPECT_EQ(appended(order), "order_id:ord-98234-xyz;amount:249.99");
}

TEST(OrderFormat, RoundsLikeTheStreamIncludingTies) {
  // 0.125 and 2.675 are ties or near-ties in decimal; both sides round the
  // exact binary value, so 2.675 (really 2.67499999...) becomes 2.67.
  for (const double amount :
       {0.125, 0.375, 2.675, 1.005, 0.005, -0.005, 1e21, 1e300, -0.0, std::numeric_limits<double>::max(),
        std::numeric_limits<double>::denorm_min(), std::numeric_limits<double>::infinity(),
        -std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()}) {
    const Order order{"o", amount};
    EXPECT_EQ(appended(order), format_naive(order)) << amount;
  }
}

TEST(OrderFormat, AllThreeAgreeOnRandomAmounts) {
  allocgate::workloads::Seeded random(7);
  BufferPool pool;
  for (int i = 0; i < 100'000; ++i) {
    double amount;
    switch (random.below(3)) {
      case 0:  // cents and mills, the common case
        amount = static_cast<double>(random.between(-10'000'000, 10'000'000)) / 1000.0;
        break;
      case 1: {  // any finite double, by its bits
        const std::uint64_t bits = random.below(0x7fefffffffffffffULL);
        std::memcpy(&amount, &bits, sizeof amount);
        break;
      }
      default:  // ties at the third decimal
        amount = static_cast<double>(random.between(0, 1'000'000)) / 100.0 + 0.005;
    }
    const Order order{"ord-" + std::to_string(i), amount};
    const std::string expected = format_naive(order);
    ASSERT_EQ(appended(order), expected) << amount;
    ASSERT_EQ(format_pooled(pool, order), expected) << amount;
  }
}

// The cents path against its plain twin, std::to_chars, where the two could
// part: amounts a hair from a half-cent on either side (the near-half
// fallback), at every size up to past 2^31 (where the cents path stops),
// negative ones and zeros, and any double by its bits.
TEST(OrderFormat, FixedTwoWritesWhatToCharsWrites) {
  allocgate::workloads::Seeded random(8);
  const auto check = [](double amount) {
    char fast[400], plain[400];
    const std::string_view a(fast, static_cast<std::size_t>(to_chars_fixed2(fast, fast + sizeof fast, amount) - fast));
    const char* const plain_end = std::to_chars(plain, plain + sizeof plain, amount, std::chars_format::fixed, 2).ptr;
    ASSERT_EQ(a, std::string_view(plain, static_cast<std::size_t>(plain_end - plain))) << amount;
  };
  for (const double amount :
       {0.0, -0.0, 0.004, -0.004, 0.005, 0.015, 0.125, 0.375, 2147483647.995, 2147483648.0, -2147483647.99, 1e-300,
        std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()}) {
    check(amount);
  }
  for (int i = 0; i < 200'000; ++i) {
    const double magnitude = std::ldexp(1.0, static_cast<int>(random.below(34)) - 1);
    const double half_cent =
        (std::floor(static_cast<double>(random.below(1'000'000)) * magnitude / 1e6 * 100) + 0.5) / 100;
    double amount;
    switch (random.below(4)) {
      case 0:
        amount = half_cent;
        break;
      case 1:
        amount = std::nextafter(half_cent, 0.0);
        break;
      case 2:
        amount = std::nextafter(half_cent, 1e300);
        break;
      default: {
        const std::uint64_t bits = random.below(0x7fefffffffffffffULL);
        std::memcpy(&amount, &bits, sizeof amount);
      }
    }
    check(random.below(2) == 0 ? amount : -amount);
  }
}

TEST(OrderFormatAllocations, PooledMakesOnlyTheReturnedString) {
  BufferPool pool;
  const Order order{"ord-98234-xyz", 249.99};
  std::string line = format_pooled(pool, order);  // warm-up: the pool's first buffer
  EXPECT_ALLOCATIONS_EQ(line = format_pooled(pool, order), 1);
  // 36 characters and the terminator: 37 bytes with libstdc++, 48 with libc++.
  EXPECT_ALLOCATED_BYTES_LE(line = format_pooled(pool, order), allocgate::test::string_block_bytes(36));
}

TEST(OrderFormatAllocations, AppendingToACallersBufferMakesNone) {
  std::string out;
  out.reserve(256);
  EXPECT_NO_ALLOCATIONS(append_order(out, Order{"ord-98234-xyz", 249.99}));
}

TEST(OrderFormatAllocations, NaiveMakesTwoPerCall) {
  // libstdc++ 12: the stream's buffer leaves its 15-byte small string for a
  // 512-byte block, and str() copies the 36-character result.
  std::string line;
  EXPECT_ALLOCATIONS_EQ(line = format_naive(Order{"ord-98234-xyz", 249.99}), 2);
}

}  // namespace
