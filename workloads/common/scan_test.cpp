// SPDX-License-Identifier: Apache-2.0
// The word-at-a-time scans against their byte-at-a-time twins, on random
// text: separators anywhere, digits with and without other bytes among them,
// fields at every offset of buffers of every length, so that both word loads
// (from a field's start and from its end) and the fallback are taken.

#include "common/scan.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "registry/seeded.h"

namespace {

using namespace allocgate::workloads;

std::string random_text(Seeded& random, std::size_t length, std::string_view alphabet) {
  std::string text(length, ' ');
  for (char& c : text) c = alphabet[random.below(alphabet.size())];
  return text;
}

TEST(Scan, FindEachFindsWhatAByteLoopFinds) {
  Seeded random(11);
  for (int round = 0; round < 20000; ++round) {
    const std::string text = random_text(random, random.below(40), ", a1");
    const std::size_t max = random.below(6);
    const char* fast[8];
    const char* plain[8];
    const std::size_t n = find_each(text, ',', fast, max);
    ASSERT_EQ(n, find_each_plain(text, ',', plain, max)) << '"' << text << "\" max " << max;
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(fast[i], plain[i]) << '"' << text << '"';
  }
}

TEST(Scan, EqualMaskMarksWhatAByteLoopMarks) {
  Seeded random(13);
  for (int round = 0; round < 20000; ++round) {
    // Every length it takes, separators anywhere (the first and last bytes
    // too), within a larger buffer so that a read past the text would show as
    // a bit that is not the text's.
    const std::size_t length = 16 + random.below(kMaskedTextMax - 16 + 1);
    const std::string buffer = random_text(random, length + 32, ",a");
    const std::size_t offset = random.below(17);
    const std::string_view text(buffer.data() + offset, length);
    ASSERT_EQ(equal_mask(text, ','), equal_mask_plain(text, ',')) << '"' << text << '"';
  }
  EXPECT_EQ(equal_mask(std::string(16, ','), ','), 0xFFFFu);
  EXPECT_EQ(equal_mask(std::string(64, ','), ','), ~std::uint64_t{0});
  EXPECT_EQ(equal_mask("1234,5678,/v1/orders", ','), (1u << 4) | (1u << 9));
}

TEST(Scan, DigitMaskMarksWhatAByteLoopMarks) {
  Seeded random(14);
  for (int round = 0; round < 20000; ++round) {
    // Digits, the bytes either side of them ('/' and ':'), and bytes past 127.
    const std::string text = random_text(random, 16, "0123456789/:a\x80\xff ");
    ASSERT_EQ(digit_mask16(text.data()), digit_mask16_plain(text.data())) << '"' << text << '"';
  }
  EXPECT_EQ(digit_mask16("1234,5678,/v1/orders"), 0b0001'0001'1110'1111u);  // and the 1 of /v1
}

TEST(Scan, ShortDigitsValueReadsWhatADigitLoopReads) {
  Seeded random(15);
  for (int round = 0; round < 50000; ++round) {
    // A field of 1 to 8 digits anywhere in a text of at least 8 bytes, so
    // that both loads (to its end, from the text's start) are taken.
    const std::string field = random_text(random, 1 + random.below(8), "0123456789");
    const std::string before = random_text(random, random.below(10), "ab,9");
    const std::string after = random_text(random, random.below(10), "ab,9");
    std::string text = before + field + after;
    if (text.size() < 8) text += std::string(8 - text.size(), 'x');
    std::uint64_t plain = 0;
    ASSERT_EQ(read_digits_plain(field, UINT64_MAX, plain), DigitsResult::ok);
    ASSERT_EQ(short_digits_value(text.data(), before.size(), before.size() + field.size()), plain)
        << '"' << field << "\" in \"" << text << '"';
  }
}

TEST(Scan, ReadDigitsReadsWhatADigitLoopReads) {
  Seeded random(12);
  const std::uint64_t limits[] = {INT64_MAX, static_cast<std::uint64_t>(INT64_MAX) + 1, 99'999, UINT64_MAX};
  for (int round = 0; round < 50000; ++round) {
    // Mostly digits; sometimes a stray byte; lengths up to 22 (past 2^64).
    const bool clean = random.below(4) != 0;
    const std::string field = random_text(random, random.below(23), clean ? "0123456789" : "0123456789x/:");
    const std::string before = random_text(random, random.below(10), "ab,");
    const std::string after = random_text(random, random.below(10), "ab,");
    const std::string text = before + field + after;
    const std::string_view digits(text.data() + before.size(), field.size());
    const std::uint64_t limit = limits[random.below(std::size(limits))];
    std::uint64_t fast = 7, plain = 7;
    const DigitsResult a = read_digits(text, digits, limit, fast);
    const DigitsResult b = read_digits_plain(digits, limit, plain);
    ASSERT_EQ(a, b) << '"' << field << "\" in \"" << text << "\" limit " << limit;
    ASSERT_EQ(fast, plain) << '"' << field << '"';
  }
}

TEST(Scan, EightDigitFieldsAtTheEdgesOfTheirText) {
  std::uint64_t value = 0;
  EXPECT_EQ(read_digits("12345678", "12345678", UINT64_MAX, value), DigitsResult::ok);
  EXPECT_EQ(value, 12345678u);
  const std::string_view text = "1,2345678";
  EXPECT_EQ(read_digits(text, text.substr(0, 1), UINT64_MAX, value), DigitsResult::ok);  // loaded from its start
  EXPECT_EQ(value, 1u);
  EXPECT_EQ(read_digits(text, text.substr(2), UINT64_MAX, value), DigitsResult::ok);  // loaded from its end
  EXPECT_EQ(value, 2345678u);
  EXPECT_EQ(read_digits(text, text.substr(0, 2), UINT64_MAX, value), DigitsResult::not_digits);
  EXPECT_EQ(read_digits("99999", "99999", 9999, value), DigitsResult::overflow);
}

}  // namespace
