// SPDX-License-Identifier: Apache-2.0
// The S3 ListObjectsV2 response (case study 1), two ways: render_naive builds
// it from per-field std::string helpers; render appends it in one pass to a
// caller-reused buffer, with timestamps formatted on the stack.
#pragma once

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
void append_escaped(std::string& out, std::string_view text);

/// n objects: keys photos/2026/album-<i%17>/img&<i>.jpg, LastModified one
/// second apart from 2026-11-30T09:51:58.123Z, sizes 1000+7i, the empty
/// object's ETag, STANDARD storage.
Listing make_listing(std::size_t n);

}  // namespace allocgate::workloads::xml_listing
