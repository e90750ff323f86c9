// SPDX-License-Identifier: Apache-2.0
// The S3 ListObjectsV2 response (case study 1), two ways: render_naive builds
// it from per-field std::string helpers; render writes it in one pass into a
// caller-reused buffer (common/text_writer.h), escaping sixteen bytes at a
// time and formatting numbers and timestamps in place.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/rfc3339.h"

namespace allocgate::workloads::xml_listing {

struct Object {
  std::string key;
  rfc3339::TimePoint last_modified;
  std::string etag;  // with its quotes, as S3 stores it
  std::uint64_t size = 0;
  std::string storage_class;
};

struct Listing {
  std::string bucket;
  std::string prefix;
  std::uint32_t max_keys = 1000;
  bool is_truncated = false;
  std::vector<Object> objects;
};

/// The plain version. Throws std::out_of_range for a LastModified outside
/// years 0000-9999.
std::string render_naive(const Listing& listing);

/// Replaces out's contents with the response. Allocates only when out must
/// grow, so a buffer reused across calls reaches zero allocations. Returns
/// false for a LastModified outside years 0000-9999 (out then holds a prefix).
bool render(const Listing& listing, std::string& out);

/// Text escaped as S3 escapes it: & < > " ' as entities, tab, newline and
/// carriage return as character references, everything else (UTF-8
/// included) as is.
std::string escape_naive(const std::string& text);

/// The room write_escaped needs for n bytes: each may become a six-byte
/// entity, and it stores sixteen bytes at a time.
constexpr std::size_t escaped_bound(std::size_t n) { return 6 * n + 16; }

/// Writes text escaped at `to`, which has room for escaped_bound(text.size())
/// bytes; returns the end of what it wrote. Finds the bytes to replace sixteen
/// at a time (SSE2) and copies the runs between them as blocks.
char* write_escaped(char* to, std::string_view text) noexcept;

/// The plain twin of write_escaped: a byte at a time.
char* write_escaped_plain(char* to, std::string_view text) noexcept;

/// n objects: keys photos/2026/album-<i%17>/img&<i>.jpg, LastModified one
/// second apart from 2026-11-30T09:51:58.123Z, sizes 1000+7i, the empty
/// object's ETag, STANDARD storage.
Listing make_listing(std::size_t n);

}  // namespace allocgate::workloads::xml_listing
