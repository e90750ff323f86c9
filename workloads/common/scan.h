// SPDX-License-Identifier: Apache-2.0
// What the fastest variants use to take a short line apart: the separators
// found eight bytes at a time, and decimal digits read without a library
// call. Both are the plain loops' twins, checked against them on random
// input (scan_test.cpp).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace allocgate::workloads {

static_assert(std::endian::native == std::endian::little, "the byte masks below read words little-endian");

/// The bytes of `word` equal to `c`, as a mask with the high bit of each such
/// byte set. Exact: no carry crosses from one byte into the next.
inline std::uint64_t bytes_equal(std::uint64_t word, char c) noexcept {
  constexpr std::uint64_t kLow7 = 0x7F7F7F7F7F7F7F7FULL;
  const std::uint64_t x = word ^ (0x0101010101010101ULL * static_cast<unsigned char>(c));
  return ~(((x & kLow7) + kLow7) | x | kLow7);
}

/// Where the first `max` bytes equal to `c` are in `text`, in order; returns
/// how many were found (at most max). Ask for one more than a line should
/// have to tell "exactly" from "more".
inline std::size_t find_each(std::string_view text, char c, const char** found, std::size_t max) noexcept {
  const char* p = text.data();
  const char* const end = p + text.size();
  std::size_t n = 0;
  if (max == 0) return 0;
  for (; end - p >= 8; p += 8) {
    std::uint64_t word;
    std::memcpy(&word, p, sizeof word);
    for (std::uint64_t m = bytes_equal(word, c); m != 0; m &= m - 1) {
      found[n++] = p + (std::countr_zero(m) >> 3);
      if (n == max) return n;
    }
  }
  for (; p < end; ++p) {
    if (*p == c) {
      found[n++] = p;
      if (n == max) return n;
    }
  }
  return n;
}

/// The longest text equal_mask takes: one bit a byte in its 64-bit mask.
inline constexpr std::size_t kMaskedTextMax = 64;

/// Bit i of the result is set where text[i] == c, for a text of 16 to
/// kMaskedTextMax bytes: sixteen bytes a compare (SSE2), the last sixteen
/// loaded from the text's end, so that nothing past it is read. Without SSE2,
/// a byte at a time.
inline std::uint64_t equal_mask(std::string_view text, char c) noexcept {
  const char* const p = text.data();
  const std::size_t n = text.size();
  std::uint64_t mask = 0;
#if defined(__SSE2__)
  const __m128i wanted = _mm_set1_epi8(c);
  const auto sixteen = [&](std::size_t at) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + at));
    return std::uint64_t{static_cast<std::uint16_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, wanted)))} << at;
  };
  for (std::size_t at = 0; at + 16 < n; at += 16) mask |= sixteen(at);
  mask |= sixteen(n - 16);  // overlaps the last block: the same bits again
#else
  for (std::size_t i = 0; i < n; ++i) mask |= std::uint64_t{p[i] == c} << i;
#endif
  return mask;
}

/// The plain twin of equal_mask, for any text of up to 64 bytes.
inline std::uint64_t equal_mask_plain(std::string_view text, char c) noexcept {
  std::uint64_t mask = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == c) mask |= std::uint64_t{1} << i;
  }
  return mask;
}

/// Bit i of the result is set where p[i] is an ASCII digit, for i < 16:
/// sixteen bytes in one compare (SSE2), all of them read.
inline std::uint32_t digit_mask16(const char* p) noexcept {
  std::uint32_t mask = 0;
#if defined(__SSE2__)
  const __m128i values = _mm_sub_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)), _mm_set1_epi8('0'));
  // A digit's value is at most 9 as an unsigned byte; any other byte's is not.
  const __m128i digit = _mm_cmpeq_epi8(_mm_min_epu8(values, _mm_set1_epi8(9)), values);
  mask = static_cast<std::uint16_t>(_mm_movemask_epi8(digit));
#else
  for (int i = 0; i < 16; ++i) mask |= std::uint32_t{p[i] >= '0' && p[i] <= '9'} << i;
#endif
  return mask;
}

/// The plain twin of digit_mask16.
inline std::uint32_t digit_mask16_plain(const char* p) noexcept {
  std::uint32_t mask = 0;
  for (int i = 0; i < 16; ++i) {
    if (p[i] >= '0' && p[i] <= '9') mask |= 1u << i;
  }
  return mask;
}

enum class DigitsResult { ok, not_digits, overflow };

namespace detail {

// Eight ASCII digits in a little-endian word, the first (most significant)
// in the lowest byte, to their value: pairs, then fours, then the eight, in
// three multiplications (as simdjson and fast_float read them).
inline std::uint32_t eight_digits_value(std::uint64_t word) noexcept {
  constexpr std::uint64_t kPairs = 0x000000FF000000FFULL;
  word -= 0x3030303030303030ULL;
  word = word * 10 + (word >> 8);
  word = ((word & kPairs) * (100 + (1000000ULL << 32)) + ((word >> 16) & kPairs) * (1 + (10000ULL << 32))) >> 32;
  return static_cast<std::uint32_t>(word);
}

// Whether every byte of the word is an ASCII digit.
inline bool eight_digits(std::uint64_t word) noexcept {
  constexpr std::uint64_t kHigh = 0xF0F0F0F0F0F0F0F0ULL;
  return (word & kHigh) == 0x3030303030303030ULL && ((word + 0x0606060606060606ULL) & kHigh) == 0x3030303030303030ULL;
}

}  // namespace detail

/// The value of text[begin, end), 1 to 8 bytes the caller has found to be
/// ASCII digits, where text[0, max(end, 8)) may be read: one word, loaded to
/// end where the field ends (or from the text's start, shifted there), the
/// bytes before the field made leading zeros.
inline std::uint32_t short_digits_value(const char* text, std::size_t begin, std::size_t end) noexcept {
  std::uint64_t word;
  if (end >= 8) {
    std::memcpy(&word, text + end - 8, sizeof word);
  } else {
    std::memcpy(&word, text, sizeof word);
    word <<= 8 * (8 - end);
  }
  const std::size_t n = end - begin;
  const std::uint64_t before = n == 8 ? 0 : (std::uint64_t{1} << (8 * (8 - n))) - 1;
  return detail::eight_digits_value((word & ~before) | (0x3030303030303030ULL & before));
}

/// Reads `digits`, one or more ASCII digits and nothing else, into a
/// non-negative value at most `limit`. A non-digit is reported before an
/// overflow, wherever each is. `digits` lies within `text`, which may be read
/// around it: a field of up to eight digits is then read as one word, loaded
/// from where it starts or where it ends, its other bytes made leading zeros.
inline DigitsResult read_digits(std::string_view text, std::string_view digits, std::uint64_t limit,
                                std::uint64_t& value) noexcept {
  const std::size_t n = digits.size();
  if (n == 0) return DigitsResult::not_digits;
  const char* const begin = digits.data();
  const char* const end = begin + n;
  if (n <= 8 && (text.data() + text.size() - begin >= 8 || end - text.data() >= 8)) {
    std::uint64_t word;
    const std::uint64_t zeros = 0x3030303030303030ULL;
    if (end - text.data() >= 8) {  // the field is the word's last n bytes
      std::memcpy(&word, end - 8, sizeof word);
      const std::uint64_t before = n == 8 ? 0 : (std::uint64_t{1} << (8 * (8 - n))) - 1;
      word = (word & ~before) | (zeros & before);
    } else {  // the field is the word's first n bytes: shift them to its end
      std::memcpy(&word, begin, sizeof word);
      if (n < 8) word = (word << (8 * (8 - n))) | (zeros >> (8 * n));
    }
    if (!detail::eight_digits(word)) return DigitsResult::not_digits;
    const std::uint64_t v = detail::eight_digits_value(word);
    if (v > limit) return DigitsResult::overflow;
    value = v;
    return DigitsResult::ok;
  }
  std::uint64_t v = 0;
  bool overflow = false;
  for (const char ch : digits) {
    const unsigned d = static_cast<unsigned char>(ch) - static_cast<unsigned>('0');
    if (d > 9) return DigitsResult::not_digits;
    overflow |= __builtin_mul_overflow(v, 10u, &v) || __builtin_add_overflow(v, d, &v);
  }
  if (overflow || v > limit) return DigitsResult::overflow;
  value = v;
  return DigitsResult::ok;
}

/// The plain twin of read_digits: a digit at a time, nothing read around.
inline DigitsResult read_digits_plain(std::string_view digits, std::uint64_t limit, std::uint64_t& value) noexcept {
  if (digits.empty()) return DigitsResult::not_digits;
  std::uint64_t v = 0;
  bool overflow = false;
  for (const char ch : digits) {
    if (ch < '0' || ch > '9') return DigitsResult::not_digits;
    const std::uint64_t d = static_cast<std::uint64_t>(ch - '0');
    if (v > (UINT64_MAX - d) / 10) overflow = true;
    if (!overflow) v = v * 10 + d;
  }
  if (overflow || v > limit) return DigitsResult::overflow;
  value = v;
  return DigitsResult::ok;
}

/// The plain twin of find_each: a byte at a time.
inline std::size_t find_each_plain(std::string_view text, char c, const char** found, std::size_t max) noexcept {
  std::size_t n = 0;
  for (std::size_t i = 0; i < text.size() && n < max; ++i) {
    if (text[i] == c) found[n++] = text.data() + i;
  }
  return n;
}

}  // namespace allocgate::workloads
