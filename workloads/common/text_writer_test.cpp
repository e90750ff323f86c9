// SPDX-License-Identifier: Apache-2.0
#include "common/text_writer.h"

#include <string>

#include "allocgate/gtest.h"
#include "registry/seeded.h"

namespace {

using allocgate::workloads::put;
using allocgate::workloads::TextWriter;

// Writes pieces of random lengths (asking for more room than each uses, as
// the workloads do) into one reused string, and the same pieces with
// append() into a fresh one: the strings are equal each round, whatever the
// reused string held before, longer or shorter.
TEST(TextWriter, WritesWhatAppendWouldIntoAReusedString) {
  allocgate::workloads::Seeded random(8);
  std::string reused = "left over from before";
  for (int round = 0; round < 2000; ++round) {
    std::string expected;
    TextWriter writer(reused);
    const std::size_t pieces = random.below(40);
    for (std::size_t i = 0; i < pieces; ++i) {
      const std::string piece(random.below(300), static_cast<char>('a' + random.below(26)));
      char* p = writer.room(piece.size() + random.below(64));
      writer.advance(put(p, piece));
      expected += piece;
    }
    writer.finish();
    ASSERT_EQ(reused, expected) << "round " << round;
  }
}

TEST(TextWriter, LiteralsAndEmptyViewsArePut) {
  std::string out;
  TextWriter writer(out);
  char* p = writer.room(16);
  p = put(p, "<a>");
  p = put(p, std::string_view{});  // a null data(): nothing copied
  writer.advance(put(p, std::string_view("b")));
  writer.finish();
  EXPECT_EQ(out, "<a>b");
}

// Once a buffer has held an output, writing one of the same size allocates
// nothing: room beyond the old length comes from the capacity.
TEST(TextWriterAllocations, AWarmBufferNeverAllocates) {
  const auto write = [](std::string& out) {
    TextWriter writer(out);
    for (int i = 0; i < 1000; ++i) writer.advance(put(writer.room(100), "0123456789"));
    writer.finish();
  };
  std::string out;
  write(out);
  EXPECT_EQ(out.size(), 10'000u);
  EXPECT_NO_ALLOCATIONS(write(out));
  EXPECT_EQ(out.size(), 10'000u);
}

}  // namespace
