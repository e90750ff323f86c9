// SPDX-License-Identifier: Apache-2.0
#include "xml_listing.h"

#include <libxml/parser.h>
#include <libxml/tree.h>

#include <memory>
#include <string>

#include "allocgate/gtest.h"
#include "registry/seeded.h"
#include "standard_library.h"

namespace {

using namespace allocgate::workloads::xml_listing;
using allocgate::workloads::rfc3339::TimePoint;

std::string optimized(const Listing& listing) {
  std::string out;
  EXPECT_TRUE(render(listing, out));
  return out;
}

// text through one of the escapers, into the room it is promised, with a
// canary after the room that must survive.
std::string escaped(const std::string& text, char* (*escape)(char*, std::string_view) noexcept) {
  constexpr char kCanary = '\x5a';
  std::string room(escaped_bound(text.size()) + 8, kCanary);
  char* const end = escape(room.data(), text);
  for (std::size_t i = escaped_bound(text.size()); i < room.size(); ++i) {
    EXPECT_EQ(room[i], kCanary) << "wrote past its room at " << i;
  }
  return std::string(room.data(), end);
}

TEST(XmlListing, RendersTheS3Response) {
  Listing listing = make_listing(2);
  const std::string expected =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
      "<Name>example-bucket</Name><Prefix>photos/</Prefix><KeyCount>2</KeyCount>"
      "<MaxKeys>1000</MaxKeys><IsTruncated>false</IsTruncated>"
      "<Contents><Key>photos/2026/album-0/img&amp;0.jpg</Key>"
      "<LastModified>2026-11-30T09:51:58.123Z</LastModified>"
      "<ETag>&quot;d41d8cd98f00b204e9800998ecf8427e&quot;</ETag><Size>1000</Size>"
      "<StorageClass>STANDARD</StorageClass></Contents>"
      "<Contents><Key>photos/2026/album-1/img&amp;1.jpg</Key>"
      "<LastModified>2026-11-30T09:51:59.123Z</LastModified>"
      "<ETag>&quot;d41d8cd98f00b204e9800998ecf8427e&quot;</ETag><Size>1007</Size>"
      "<StorageClass>STANDARD</StorageClass></Contents>"
      "</ListBucketResult>";
  EXPECT_EQ(render_naive(listing), expected);
  EXPECT_EQ(optimized(listing), expected);
}

TEST(XmlListing, EscapesAsS3Does) {
  const std::string key = "a&b<c>d\"e'f\tg\nh\ri caf\xc3\xa9 \xe5\x86\x99\xe7\x9c\x9f";
  const std::string expected = "a&amp;b&lt;c&gt;d&quot;e&apos;f&#x9;g&#xA;h&#xD;i caf\xc3\xa9 \xe5\x86\x99\xe7\x9c\x9f";
  EXPECT_EQ(escape_naive(key), expected);
  EXPECT_EQ(escaped(key, &write_escaped), expected);
  EXPECT_EQ(escaped(key, &write_escaped_plain), expected);
}

// Texts of every length from 0 to 80 (the block loop, its tail, and texts
// too short for a block), of bytes drawn from all 256 or, half the time, from
// the specials and their one-bit neighbours: both writers equal the naive
// escape, and neither writes past the room escaped_bound promises.
TEST(XmlListing, BothEscapersEqualTheNaiveOneOnRandomTexts) {
  allocgate::workloads::Seeded random(5);
  static constexpr char kNearSpecials[] =
      "&'\"<>=?%()\t\n\r\x0b\x0c\x0e"
      "aZ\xa6\xbc\xbe";
  const std::string near_specials(kNearSpecials, sizeof kNearSpecials);  // its NUL among them
  for (int round = 0; round < 20000; ++round) {
    const std::size_t length = random.below(81);
    const bool dense = random.one_in(2);
    std::string text;
    for (std::size_t i = 0; i < length; ++i) {
      text += dense ? near_specials[random.below(near_specials.size())] : static_cast<char>(random.below(256));
    }
    const std::string expected = escape_naive(text);
    ASSERT_EQ(escaped(text, &write_escaped), expected) << "round " << round;
    ASSERT_EQ(escaped(text, &write_escaped_plain), expected) << "round " << round;
  }
}

TEST(XmlListing, ATimeOutsideFourDigitYearsIsAnError) {
  Listing listing = make_listing(3);
  listing.objects[1].last_modified = TimePoint{std::chrono::milliseconds{253'402'300'800'000}};  // 10000-01-01
  EXPECT_THROW(render_naive(listing), std::out_of_range);
  std::string out;
  EXPECT_FALSE(render(listing, out));
}

// Keys drawn from ASCII, the five XML specials, tab/newline/return and
// multi-byte UTF-8, for the equivalence and round-trip tests.
Listing random_listing(allocgate::workloads::Seeded& random, std::size_t n) {
  static const char* const kPieces[] = {"a",
                                        "Z",
                                        "9",
                                        "/",
                                        "&",
                                        "<",
                                        ">",
                                        "\"",
                                        "'",
                                        " ",
                                        "\t",
                                        "\n",
                                        "\r",
                                        "\xc3\xa9",
                                        "\xe5\x86\x99",
                                        "\xf0\x9f\x93\xb7",
                                        "-"};
  Listing listing;
  listing.bucket = "b&<>";
  listing.prefix = "p'\"";
  listing.is_truncated = random.one_in(2);
  for (std::size_t i = 0; i < n; ++i) {
    std::string key;
    const std::size_t length = 1 + random.below(40);
    for (std::size_t j = 0; j < length; ++j) key += kPieces[random.below(std::size(kPieces))];
    // Years 0000-9999: from 0000-01-01 to 9999-12-31 in milliseconds.
    const TimePoint t{std::chrono::milliseconds{random.between(-62'167'219'200'000, 253'402'300'799'999)}};
    std::string etag = "\"";  // built by appends: GCC 12 warns falsely on "\"" + string
    etag += std::to_string(random.below(1'000'000));
    etag += '"';
    listing.objects.push_back(
        Object{key, t, etag, random.below(1ULL << 62), random.one_in(3) ? "GLACIER" : "STANDARD"});
  }
  return listing;
}

TEST(XmlListing, OptimizedEqualsNaiveOnRandomListings) {
  allocgate::workloads::Seeded random(1);
  std::string reused;  // one buffer across all listings, as a server would
  for (int round = 0; round < 500; ++round) {
    const Listing listing = random_listing(random, random.below(60));
    ASSERT_TRUE(render(listing, reused));
    ASSERT_EQ(reused, render_naive(listing)) << "round " << round;
  }
}

// libxml2 owns its documents; free them with its own function.
struct XmlDocFree {
  void operator()(xmlDoc* doc) const { xmlFreeDoc(doc); }
};

std::string text_of(xmlNode* node) {
  xmlChar* content = xmlNodeGetContent(node);
  std::string text(reinterpret_cast<const char*>(content));
  xmlFree(content);
  return text;
}

TEST(XmlListing, ARealXmlParserReadsBackEveryKeyTimeAndSize) {
  allocgate::workloads::Seeded random(11);
  const Listing listing = random_listing(random, 200);
  const std::string xml = optimized(listing);
  std::unique_ptr<xmlDoc, XmlDocFree> doc(
      xmlReadMemory(xml.data(), static_cast<int>(xml.size()), "listing.xml", "UTF-8", XML_PARSE_NONET));
  ASSERT_NE(doc, nullptr) << "libxml2 rejected the document";
  xmlNode* root = xmlDocGetRootElement(doc.get());
  ASSERT_STREQ(reinterpret_cast<const char*>(root->name), "ListBucketResult");
  std::size_t i = 0;
  for (xmlNode* node = root->children; node != nullptr; node = node->next) {
    if (node->type != XML_ELEMENT_NODE || std::string_view(reinterpret_cast<const char*>(node->name)) != "Contents")
      continue;
    ASSERT_LT(i, listing.objects.size());
    const Object& o = listing.objects[i++];
    for (xmlNode* field = node->children; field != nullptr; field = field->next) {
      const std::string_view name(reinterpret_cast<const char*>(field->name));
      if (name == "Key") {
        EXPECT_EQ(text_of(field), o.key);
      }
      if (name == "LastModified") {
        EXPECT_EQ(text_of(field), allocgate::workloads::rfc3339::format_naive(
                                      o.last_modified, allocgate::workloads::rfc3339::Layout::milliseconds));
      }
      if (name == "Size") {
        EXPECT_EQ(text_of(field), std::to_string(o.size));
      }
      if (name == "ETag") {
        EXPECT_EQ(text_of(field), o.etag);
      }
    }
  }
  EXPECT_EQ(i, listing.objects.size());
}

TEST(XmlListingAllocations, OptimizedReachesZeroAtEverySize) {
  for (const std::size_t n : {std::size_t{10}, std::size_t{1000}, std::size_t{100000}}) {
    const Listing listing = make_listing(n);
    std::string out;
    ASSERT_TRUE(render(listing, out));  // warm-up: the buffer reaches its size
    EXPECT_NO_ALLOCATIONS(render(listing, out)) << n << " objects";
  }
}

TEST(XmlListingAllocations, NaiveAllocatesPerObject) {
  for (const std::size_t n : {std::size_t{10}, std::size_t{1000}, std::size_t{100000}}) {
    const Listing listing = make_listing(n);
    std::string out;
    const auto naive = allocgate::measure([&] { out = render_naive(listing); });
    // Per object at least: the escaped key (30 characters or more) and its
    // element, the formatted time (24 characters: the stream's string and
    // str()'s copy) and its element, the escaped ETag and its element, the
    // StorageClass element (37 characters): 8 past either library's
    // small-string buffer; and the Size element (17 characters) past
    // libstdc++'s 15, not libc++'s 22.
    const std::size_t per_object = 8 + (17 > allocgate::test::kShortStringCapacity ? 1 : 0);
    EXPECT_GE(naive.allocations, per_object * n) << n << " objects";
  }
}

}  // namespace
