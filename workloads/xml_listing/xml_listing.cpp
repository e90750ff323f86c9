// SPDX-License-Identifier: Apache-2.0
#include "xml_listing.h"

#include <charconv>

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

void append_escaped(std::string& out, std::string_view text) {
  // Copy runs of plain bytes in one append; most keys have few specials.
  std::size_t run = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const std::string_view e = entity(text[i]);
    if (e.empty()) continue;
    out.append(text.data() + run, i - run);
    out.append(e);
    run = i + 1;
  }
  out.append(text.data() + run, text.size() - run);
}

namespace {

// Every tag is a literal, so open and close are spliced at compile time: no
// "<" + name + ">" temporaries.
template <std::size_t N>
struct Tag {
  consteval Tag(const char (&name)[N]) {
    open[0] = '<';
    close[0] = '<';
    close[1] = '/';
    for (std::size_t i = 0; i + 1 < N; ++i) {
      open[1 + i] = name[i];
      close[2 + i] = name[i];
    }
    open[N] = '>';
    close[N + 1] = '>';
  }
  char open[N + 1]{};
  char close[N + 2]{};
  std::string_view opening() const { return {open, N + 1}; }
  std::string_view closing() const { return {close, N + 2}; }
};

template <Tag tag>
void append_text_element(std::string& out, std::string_view value) {
  out.append(tag.opening());
  append_escaped(out, value);
  out.append(tag.closing());
}

template <Tag tag>
void append_number_element(std::string& out, std::uint64_t value) {
  char digits[20];  // the longest uint64_t
  const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
  out.append(tag.opening());
  out.append(digits, end);
  out.append(tag.closing());
}

}  // namespace

bool render(const Listing& listing, std::string& out) {
  out.clear();  // keeps the capacity of the previous response
  out.append(kDeclaration);
  out.append(kRootOpen);
  append_text_element<"Name">(out, listing.bucket);
  append_text_element<"Prefix">(out, listing.prefix);
  append_number_element<"KeyCount">(out, listing.objects.size());
  append_number_element<"MaxKeys">(out, listing.max_keys);
  out.append(listing.is_truncated ? "<IsTruncated>true</IsTruncated>" : "<IsTruncated>false</IsTruncated>");
  for (const Object& o : listing.objects) {
    out.append("<Contents>");
    append_text_element<"Key">(out, o.key);
    // The timestamp goes through a stack buffer, never a string.
    char time[32];
    const auto [end, ec] = rfc3339::format_to(time, time + sizeof time, o.last_modified, rfc3339::Layout::milliseconds);
    if (ec != std::errc{}) return false;
    out.append("<LastModified>");
    out.append(time, end);
    out.append("</LastModified>");
    append_text_element<"ETag">(out, o.etag);
    append_number_element<"Size">(out, o.size);
    append_text_element<"StorageClass">(out, o.storage_class);
    out.append("</Contents>");
  }
  out.append(kRootClose);
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
