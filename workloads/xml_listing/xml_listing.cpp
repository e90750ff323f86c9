// SPDX-License-Identifier: Apache-2.0
#include "xml_listing.h"

#include <array>
#include <bit>
#include <charconv>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "common/text_writer.h"

namespace allocgate::workloads::xml_listing {
namespace {

constexpr std::string_view kDeclaration = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
constexpr std::string_view kRootOpen = "<ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">";
constexpr std::string_view kRootClose = "</ListBucketResult>";

// The replacement for c, or an empty view when c stands for itself.
constexpr std::string_view entity(char c) {
  switch (c) {
    case '&':
      return "&amp;";
    case '<':
      return "&lt;";
    case '>':
      return "&gt;";
    case '"':
      return "&quot;";
    case '\'':
      return "&apos;";
    case '\t':
      return "&#x9;";
    case '\n':
      return "&#xA;";
    case '\r':
      return "&#xD;";
    default:
      return {};
  }
}

}  // namespace

// --- naive ------------------------------------------------------------------

std::string escape_naive(const std::string& text) {
  std::string out;
  for (char c : text) {
    const std::string_view e = entity(c);
    if (e.empty()) {
      out += c;
    } else {
      out += std::string(e);
    }
  }
  return out;
}

namespace {

std::string element(const std::string& name, const std::string& value) {
  return "<" + name + ">" + value + "</" + name + ">";
}

}  // namespace

std::string render_naive(const Listing& listing) {
  std::string out = std::string(kDeclaration) + std::string(kRootOpen);
  out += element("Name", escape_naive(listing.bucket));
  out += element("Prefix", escape_naive(listing.prefix));
  out += element("KeyCount", std::to_string(listing.objects.size()));
  out += element("MaxKeys", std::to_string(listing.max_keys));
  out += element("IsTruncated", listing.is_truncated ? "true" : "false");
  for (const Object& o : listing.objects) {
    out += "<Contents>";
    out += element("Key", escape_naive(o.key));
    out += element("LastModified", rfc3339::format_naive(o.last_modified, rfc3339::Layout::milliseconds));
    out += element("ETag", escape_naive(o.etag));
    out += element("Size", std::to_string(o.size));
    out += element("StorageClass", escape_naive(o.storage_class));
    out += "</Contents>";
  }
  out += std::string(kRootClose);
  return out;
}

// --- optimized --------------------------------------------------------------

namespace {

// c's replacement at `to`, or c itself when it stands for itself: the plain
// twin's step.
char* put_escaped_byte(char* to, char c) noexcept {
  const std::string_view e = entity(c);
  if (e.empty()) {
    *to = c;
    return to + 1;
  }
  return put(to, e);
}

#if defined(__SSE2__)
// Bit i set where block byte i may need replacing: " & ' < > exactly, and
// every byte up to 0x0D (tab, newline and return among them; the others are
// rare and put_escaped_byte writes them as they are). Pairs that differ in
// one bit share a compare: 0x26 & and 0x27 ', 0x3C < and 0x3E >.
unsigned special_mask(__m128i block) noexcept {
  const __m128i quote = _mm_cmpeq_epi8(block, _mm_set1_epi8('"'));
  const __m128i amp_apos =
      _mm_cmpeq_epi8(_mm_and_si128(block, _mm_set1_epi8(static_cast<char>(0xFE))), _mm_set1_epi8('&'));
  const __m128i lt_gt =
      _mm_cmpeq_epi8(_mm_and_si128(block, _mm_set1_epi8(static_cast<char>(0xFD))), _mm_set1_epi8('<'));
  const __m128i control = _mm_cmpeq_epi8(_mm_min_epu8(block, _mm_set1_epi8(0x0D)), block);
  return static_cast<unsigned>(
      _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(quote, amp_apos), _mm_or_si128(lt_gt, control))));
}
#endif

}  // namespace

char* write_escaped_plain(char* to, std::string_view text) noexcept {
  for (const char c : text) to = put_escaped_byte(to, c);
  return to;
}

#if defined(__SSE2__)
namespace {

// Every byte's replacement, itself when it stands for itself, with its
// length: one eight-byte load and store and no branch for any byte, where a
// switch's jump went astray whenever one special followed another.
struct Replacement {
  char text[7];
  unsigned char size;
};
static_assert(sizeof(Replacement) == 8);

constexpr auto kReplacements = [] {
  std::array<Replacement, 256> table{};
  for (unsigned c = 0; c < 256; ++c) {
    const std::string_view e = entity(static_cast<char>(c));
    Replacement& r = table[c];
    if (e.empty()) {
      r.text[0] = static_cast<char>(c);
      r.size = 1;
    } else {
      for (std::size_t i = 0; i < e.size(); ++i) r.text[i] = e[i];
      r.size = static_cast<unsigned char>(e.size());
    }
  }
  return table;
}();

// c's replacement at `to`, eight bytes stored: the room's spare ones take
// what is past the replacement.
char* put_replacement(char* to, char c) noexcept {
  const Replacement& r = kReplacements[static_cast<unsigned char>(c)];
  std::memcpy(to, &r, sizeof r);
  return to + r.size;
}

__extension__ using U128 = unsigned __int128;

// The last 1 to 16 bytes of a text, as one 128-bit integer (first byte
// lowest), with the mask of its specials: stored whole each time (the room's
// sixteen spare bytes), cut at each special.
char* write_last(char* to, U128 bytes, unsigned specials, std::size_t left) noexcept {
  for (;;) {
    std::memcpy(to, &bytes, sizeof bytes);
    if (specials == 0) return to + left;
    const auto k = static_cast<unsigned>(std::countr_zero(specials));
    to = put_replacement(to + k, static_cast<char>(bytes >> (8 * k)));
    left -= k + 1;
    if (left == 0) return to;
    bytes >>= 8 * (k + 1);
    specials >>= k + 1;
  }
}

}  // namespace
#endif

char* write_escaped(char* to, std::string_view text) noexcept {
#if defined(__SSE2__)
  const char* p = text.data();
  const char* const end = p + text.size();
  if (text.size() < 8) {
    for (; p != end; ++p) to = put_replacement(to, *p);
    return to;
  }
  if (text.size() < 16) {
    // Two words, overlapping, make the text: nothing read outside it.
    std::uint64_t low, high;
    std::memcpy(&low, p, 8);
    std::memcpy(&high, end - 8, 8);
    const U128 bytes = static_cast<U128>(high) << (8 * (text.size() - 8)) | low;
    // The zero bytes past the text look like control bytes: masked off.
    const unsigned specials =
        special_mask(_mm_set_epi64x(static_cast<long long>(bytes >> 64), static_cast<long long>(bytes))) &
        ((1u << text.size()) - 1);
    return write_last(to, bytes, specials, text.size());
  }
  // Each block is stored whole, then cut at its first special: the bytes
  // past it are written again from the next block, loaded where it stopped.
  while (end - p >= 16) {
    const __m128i block = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(to), block);
    const unsigned specials = special_mask(block);
    if (specials == 0) {
      p += 16;
      to += 16;
      continue;
    }
    const auto k = static_cast<std::size_t>(std::countr_zero(specials));
    to = put_replacement(to + k, p[k]);
    p += k + 1;
  }
  // The last 1 to 15 bytes: the sixteen that end the text, shifted down to
  // them.
  const auto left = static_cast<std::size_t>(end - p);
  if (left == 0) return to;
  U128 bytes;
  std::memcpy(&bytes, end - 16, sizeof bytes);
  const __m128i last = _mm_loadu_si128(reinterpret_cast<const __m128i*>(end - 16));
  return write_last(to, bytes >> (8 * (16 - left)), special_mask(last) >> (16 - left), left);
#else
  return write_escaped_plain(to, text);
#endif
}

namespace {

// The room an object's element needs: its tags (kObjectTags), a number of at
// most 20 digits, a 24-byte timestamp and three escaped texts.
constexpr std::size_t kObjectTags = sizeof(
    "<Contents><Key></Key><LastModified></LastModified><ETag></ETag><Size></Size>"
    "<StorageClass></StorageClass></Contents>");
constexpr std::size_t kNumberMax = 20;  // the longest uint64_t
// The listing's own elements, before the objects.
constexpr std::size_t kHeadTags =
    sizeof("<Name></Name><Prefix></Prefix><KeyCount></KeyCount><MaxKeys></MaxKeys><IsTruncated>false</IsTruncated>");

std::size_t object_bound(const Object& o) {
  return kObjectTags + kNumberMax + rfc3339::kMaxLength + escaped_bound(o.key.size()) + escaped_bound(o.etag.size()) +
         escaped_bound(o.storage_class.size());
}

char* put_number(char* p, std::uint64_t value) noexcept { return std::to_chars(p, p + kNumberMax, value).ptr; }

}  // namespace

bool render(const Listing& listing, std::string& out) {
  TextWriter writer(out);
  char* p = writer.room(kDeclaration.size() + kRootOpen.size() + escaped_bound(listing.bucket.size()) +
                        escaped_bound(listing.prefix.size()) + 2 * kNumberMax + kHeadTags);
  p = put(p, kDeclaration);
  p = put(p, kRootOpen);
  p = write_escaped(put(p, "<Name>"), listing.bucket);
  p = write_escaped(put(p, "</Name><Prefix>"), listing.prefix);
  p = put_number(put(p, "</Prefix><KeyCount>"), listing.objects.size());
  p = put_number(put(p, "</KeyCount><MaxKeys>"), listing.max_keys);
  p = put(p, "</MaxKeys>");
  p = listing.is_truncated ? put(p, "<IsTruncated>true</IsTruncated>") : put(p, "<IsTruncated>false</IsTruncated>");
  writer.advance(p);
  for (const Object& o : listing.objects) {
    p = writer.room(object_bound(o));
    p = write_escaped(put(p, "<Contents><Key>"), o.key);
    p = put(p, "</Key><LastModified>");
    const auto [end, ec] =
        rfc3339::format_to(p, p + rfc3339::kMaxLength, o.last_modified, rfc3339::Layout::milliseconds);
    if (ec != std::errc{}) {
      writer.finish();
      return false;
    }
    p = write_escaped(put(end, "</LastModified><ETag>"), o.etag);
    p = put_number(put(p, "</ETag><Size>"), o.size);
    p = write_escaped(put(p, "</Size><StorageClass>"), o.storage_class);
    p = put(p, "</StorageClass></Contents>");
    writer.advance(p);
  }
  p = writer.room(kRootClose.size());
  writer.advance(put(p, kRootClose));
  writer.finish();
  return true;
}

Listing make_listing(std::size_t n) {
  Listing listing;
  listing.bucket = "example-bucket";
  listing.prefix = "photos/";
  listing.max_keys = 1000;
  listing.is_truncated = false;
  listing.objects.reserve(n);
  const rfc3339::TimePoint first{std::chrono::milliseconds{1'796'032'318'123}};
  for (std::size_t i = 0; i < n; ++i) {
    listing.objects.push_back(
        Object{"photos/2026/album-" + std::to_string(i % 17) + "/img&" + std::to_string(i) + ".jpg",
               first + std::chrono::seconds{static_cast<long long>(i)}, "\"d41d8cd98f00b204e9800998ecf8427e\"",
               1000 + 7 * static_cast<std::uint64_t>(i), "STANDARD"});
  }
  return listing;
}

}  // namespace allocgate::workloads::xml_listing
