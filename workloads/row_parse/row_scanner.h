// SPDX-License-Identifier: Apache-2.0
// The scanner's common row, inline so that it joins the caller's loop: a row
// of one operation costs about as much as a call, so the call itself, its
// saved registers and a second check of the line's length were more than a
// quarter of its instructions.
//
// The common row is 16 to 32 bytes with both numbers unsigned, of 1 to 8
// digits, within its first 16 bytes, and a non-empty path. Every other line,
// and every error, goes to the general scanner in row_parse.cpp, which tells
// the errors apart; this file only says "not mine".
//
// Included by row_parse.h; not on its own.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace allocgate::workloads::row_parse::detail {

/// Where the common row's fields are: its numbers' values and where its path
/// starts.
struct CommonRow {
  std::int64_t user_id;
  std::int64_t bytes;
  std::size_t path_at;
};

#if defined(__SSE2__)
/// Two numbers of up to eight digits, each a little-endian word of digit
/// values (0-9), the most significant in the lowest byte, zeros before it:
/// both values at once, in three multiply-adds of 16-bit lanes (pairs, fours,
/// eights) where a word at a time took two 64-bit multiplications and their
/// constants each.
inline void digit_values(std::uint64_t a, std::uint64_t b, std::int64_t& a_value, std::int64_t& b_value) noexcept {
  const __m128i words = _mm_set_epi64x(static_cast<long long>(b), static_cast<long long>(a));
  const __m128i zero = _mm_setzero_si128();
  const __m128i ten_one = _mm_setr_epi16(10, 1, 10, 1, 10, 1, 10, 1);
  const __m128i pairs = _mm_packs_epi32(_mm_madd_epi16(_mm_unpacklo_epi8(words, zero), ten_one),
                                        _mm_madd_epi16(_mm_unpackhi_epi8(words, zero), ten_one));
  const __m128i fours = _mm_madd_epi16(pairs, _mm_setr_epi16(100, 1, 100, 1, 100, 1, 100, 1));
  const __m128i eights =
      _mm_madd_epi16(_mm_packs_epi32(fours, fours), _mm_setr_epi16(10000, 1, 10000, 1, 10000, 1, 10000, 1));
  a_value = static_cast<std::uint32_t>(_mm_cvtsi128_si32(eights));
  b_value = static_cast<std::uint32_t>(_mm_cvtsi128_si32(_mm_srli_si128(eights, 4)));
}
#endif

/// True, with `row` filled, when `line` is a common row.
inline bool scan_common(std::string_view line, CommonRow& row) noexcept {
#if defined(__SSE2__)
  const std::size_t n = line.size();
  if (n - 16 > 16) return false;  // 16 to 32 bytes; unsigned: under 16 wraps around
  const char* const p = line.data();
  const __m128i head = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  const __m128i tail = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + n - 16));
  const __m128i comma = _mm_set1_epi8(',');
  const std::uint32_t commas = static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(head, comma))) |
                               static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(tail, comma))) << (n - 16);
  // Exactly two: clearing the lowest leaves one bit.
  const std::uint32_t after_first = commas & (commas - 1);
  if (after_first == 0 || (after_first & (after_first - 1)) != 0) return false;
  const auto first = static_cast<unsigned>(std::countr_zero(commas));
  const auto second = static_cast<unsigned>(std::countr_zero(after_first));
  // 1 to 8 digits each: both counts less one under 8, so their bitwise or
  // is (unsigned: an empty field wraps around); and a path after them.
  if (((first - 1) | (second - first - 2)) >= 8 || second + 1 >= n) return false;
  // Every byte before the second comma but the first is a digit: its value
  // less '0' is at most 9 as an unsigned byte, and no other byte's is. The
  // head has sixteen: a number past them fails here too.
  const __m128i values = _mm_sub_epi8(head, _mm_set1_epi8('0'));
  const auto digits =
      static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(values, _mm_set1_epi8(9)), values)));
  const std::uint32_t number_bytes = ((1u << second) - 1) & ~(1u << first);
  if ((digits & number_bytes) != number_bytes) return false;

  constexpr std::uint64_t kZeros = 0x3030303030303030ULL;
  // The user id is the first word's low `first` bytes: less '0' each (a
  // borrow only moves up, into the bytes shifted out), then shifted to the
  // word's top, zero digits below.
  std::uint64_t word;
  std::memcpy(&word, p, 8);
  const std::uint64_t user_id = (word - kZeros) << (8 * (8 - first));
  // The byte count: the word that ends at the second comma, or for a comma
  // before byte 8 the first word shifted up to end there; the bytes below
  // the field cleared before '0' is taken from the field's.
  const unsigned start = second < 8 ? 0 : second - 8;
  std::memcpy(&word, p + start, 8);
  word <<= 8 * (start + 8 - second);
  const std::uint64_t field = ~std::uint64_t{0} << (8 * (8 - (second - first - 1)));
  digit_values(user_id, (word & field) - (kZeros & field), row.user_id, row.bytes);
  row.path_at = second + 1;
  return true;
#else
  (void)line;
  (void)row;
  return false;
#endif
}

/// A path of 4 to 32 bytes into a string whose buffer holds it: two loads and
/// two stores of one chunk each, overlapping in the middle, both loaded
/// before `to` changes, since `path` may view `to` itself.
template <class Chunk>
void copy_overlapping(std::string_view path, std::string& to) noexcept {
  const std::size_t n = path.size();
  Chunk head, tail;
  std::memcpy(&head, path.data(), sizeof(Chunk));
  std::memcpy(&tail, path.data() + n - sizeof(Chunk), sizeof(Chunk));
  to.resize(n);  // within the capacity: sets the length, allocates nothing
  std::memcpy(to.data(), &head, sizeof(Chunk));
  std::memcpy(to.data() + n - sizeof(Chunk), &tail, sizeof(Chunk));
}

/// Any path, into a string that may have to grow. Out of line.
void assign_path(std::string_view path, std::string& to);

/// The only copy the scanner makes, into storage the caller owns: no
/// allocation once its buffer is large enough. assign() checks for overlap
/// and calls memcpy, which took a quarter of a row's time.
inline void set_path(std::string_view path, std::string& to) {
  struct Sixteen {
    char bytes[16];
  };
  const std::size_t n = path.size();
  if (n < 4 || n > 32 || n > to.capacity()) {
    assign_path(path, to);
  } else if (n >= 16) {
    copy_overlapping<Sixteen>(path, to);
  } else if (n >= 8) {
    copy_overlapping<std::uint64_t>(path, to);
  } else {
    copy_overlapping<std::uint32_t>(path, to);
  }
}

}  // namespace allocgate::workloads::row_parse::detail
