// SPDX-License-Identifier: Apache-2.0
// Reading JSON a part at a time: what the handler streams comes a member at a
// time, the rest whole; the filter's work (a byte order mark, NaN as null, a
// NUL) holds across the blocks the file is read in, and errors name the byte.

#include "json_stream.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "input_error.h"

namespace {

using namespace allocgate::files;
namespace fs = std::filesystem;

// Streams the root object and its "items" array; keeps what it is handed.
struct Collect final : JsonStreamHandler {
  bool stream(const JsonPath& path, bool is_array) override {
    return path.empty() || (path.size() == 1 && path[0].key == "items" && is_array);
  }
  void value(const JsonPath& path, nlohmann::json value) override {
    std::string where;
    for (const JsonPathPart& part : path) {
      // Appended a piece at a time: GCC 12 warns falsely (-Wrestrict) on "." + string.
      where += part.in_array ? '[' : '.';
      where += part.in_array ? std::to_string(part.index) + "]" : part.key;
    }
    seen.emplace_back(where, std::move(value));
  }
  std::vector<std::pair<std::string, nlohmann::json>> seen;
};

std::string error_of(const std::string& text) {
  Collect collect;
  try {
    stream_json_text(text, "x.json", collect);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(JsonStream, StreamedMembersComeOneByOneTheRestWhole) {
  Collect collect;
  stream_json_text(R"({"a": {"b": [1, 2]}, "items": [{"n": 1}, 2, "three"], "z": null})", "x.json", collect);
  ASSERT_EQ(collect.seen.size(), 5u);
  EXPECT_EQ(collect.seen[0].first, ".a");
  EXPECT_EQ(collect.seen[0].second, nlohmann::json::parse(R"({"b": [1, 2]})"));
  EXPECT_EQ(collect.seen[1].first, ".items[0]");
  EXPECT_EQ(collect.seen[1].second, nlohmann::json::parse(R"({"n": 1})"));
  EXPECT_EQ(collect.seen[2].first, ".items[1]");
  EXPECT_EQ(collect.seen[3].first, ".items[2]");
  EXPECT_EQ(collect.seen[3].second, "three");
  EXPECT_EQ(collect.seen[4].first, ".z");
}

TEST(JsonStream, AKeyTwiceInABuiltObjectAndDeepNestingAreRefused) {
  EXPECT_EQ(error_of(R"({"items": [{"n": 1, "n": 2}]})"), "x.json: the key \"n\" appears twice in one object");
  EXPECT_EQ(error_of(std::string(65, '[') + std::string(65, ']')), "x.json: JSON nested deeper than 64 levels");
  EXPECT_EQ(error_of(std::string(64, '[') + std::string(64, ']')), "no error");
}

// A file larger than the blocks it is read in, with a NaN, a byte order mark
// and an error placed across their boundaries.
class JsonStreamFile : public ::testing::Test {
 protected:
  std::string write(const std::string& text) {
    const fs::path file = fs::temp_directory_path() / ("allocgate-json-stream-" + std::to_string(::getpid()));
    std::ofstream(file, std::ios::binary) << text;
    files_.push_back(file);
    return file.string();
  }
  ~JsonStreamFile() override {
    for (const fs::path& f : files_) fs::remove(f);
  }
  std::vector<fs::path> files_;
};

TEST_F(JsonStreamFile, NonFiniteLiteralsAcrossEveryBlockBoundaryReadAsNull) {
  constexpr std::size_t kBlock = 1 << 16;
  for (std::size_t shift = 0; shift < 10; ++shift) {
    // "items" then padding that puts the literal `shift` bytes before a block's end.
    const std::string head = "\xEF\xBB\xBF{\"items\": [";
    const std::string padding(kBlock - head.size() - shift + 3, ' ');
    const std::string path = write(head + padding + "-Infinity, \"NaN inf\", nan]}");
    Collect collect;
    stream_json_file(path, collect);
    ASSERT_EQ(collect.seen.size(), 3u) << shift;
    EXPECT_TRUE(collect.seen[0].second.is_null()) << shift;
    EXPECT_EQ(collect.seen[1].second, "NaN inf") << shift;  // in a string: kept
    EXPECT_TRUE(collect.seen[2].second.is_null()) << shift;
  }
}

TEST_F(JsonStreamFile, BytesThatAreNotUtf8AcrossEveryBlockBoundaryReadAsU_FFFD) {
  constexpr std::size_t kBlock = 1 << 16;
  for (std::size_t shift = 0; shift < 6; ++shift) {
    // A Latin-1 byte, then a well-formed sequence of four bytes, across the boundary.
    const std::string head = "{\"items\": [";
    const std::string padding(kBlock - head.size() - shift, ' ');
    const std::string path = write(head + padding + "\"caf\xe9\xf0\x9f\x98\x80\", \"\xff\"]}");
    Collect collect;
    stream_json_file(path, collect);
    ASSERT_EQ(collect.seen.size(), 2u) << shift;
    EXPECT_EQ(collect.seen[0].second, "caf\uFFFD\U0001F600") << shift;
    EXPECT_EQ(collect.seen[1].second, "\uFFFD") << shift;
  }
}

TEST_F(JsonStreamFile, AnErrorPastTheFirstBlockNamesItsByteInTheFile) {
  const std::string text = "{\"items\": [NaN," + std::string(100000, ' ') + "]}";
  Collect collect;
  try {
    stream_json_file(write(text), collect);
    FAIL() << "no error";
  } catch (const InputError& e) {
    // The ']' after a ',' is where it broke: byte 100017 of the file, though NaN became null.
    EXPECT_NE(std::string(e.what()).find("malformed JSON at byte " + std::to_string(text.find(']') + 1)),
              std::string::npos)
        << e.what();
  }
  const std::string nul = std::string(70000, ' ') + '\0';
  EXPECT_NE(error_of(nul).find("malformed JSON at byte 70001 (a NUL byte)"), std::string::npos) << error_of(nul);
}

}  // namespace
