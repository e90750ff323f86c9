// SPDX-License-Identifier: Apache-2.0
#include "json_file.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <simdjson.h>

#include "input_error.h"

namespace {

using namespace allocgate::files;
namespace fs = std::filesystem;

std::string slurp(const fs::path& file) {
  std::ifstream in(file);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

class JsonFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("allocgate-json-file-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override {
    fs::permissions(dir_, fs::perms::owner_all);
    fs::remove_all(dir_);
  }
  fs::path dir_;
};

TEST_F(JsonFile, ReplacesTheFileWholeAndLeavesNoTemporary) {
  const fs::path file = dir_ / "bounds.json";
  write_file_atomically(file, "old\n");
  ::chmod(file.c_str(), 0640);
  write_file_atomically(file, "new\n");
  EXPECT_EQ(slurp(file), "new\n");
  EXPECT_EQ(fs::status(file).permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);  // mode kept
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);
}

TEST_F(JsonFile, AWriteThatFailsHalfwayLeavesTheOldFileAlone) {
  const fs::path file = dir_ / "bounds.json";
  write_file_atomically(file, "old\n");
  // A file size limit makes the write fail after 16 bytes, even for root.
  std::signal(SIGXFSZ, SIG_IGN);
  rlimit saved{};
  ::getrlimit(RLIMIT_FSIZE, &saved);
  rlimit small = saved;
  small.rlim_cur = 16;
  ::setrlimit(RLIMIT_FSIZE, &small);
  EXPECT_THROW(write_file_atomically(file, std::string(4096, 'n')), InputError);
  ::setrlimit(RLIMIT_FSIZE, &saved);
  EXPECT_EQ(slurp(file), "old\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);  // no temporary left
}

TEST_F(JsonFile, AMissingDirectoryIsBadInputAndNothingIsWritten) {
  const fs::path file = dir_ / "no-such-dir" / "bounds.json";
  try {
    write_file_atomically(file, "x");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("bounds.json: cannot write: No such file or directory"), std::string::npos);
  }
  EXPECT_FALSE(fs::exists(file));
}

TEST_F(JsonFile, WritesThroughASymlinkToItsTarget) {
  const fs::path target = dir_ / "real" / "bounds.json";
  fs::create_directories(target.parent_path());
  write_file_atomically(target, "old\n");
  const fs::path link = dir_ / "bounds.json";
  fs::create_symlink("real/bounds.json", link);
  write_file_atomically(link, "new\n");
  EXPECT_TRUE(fs::is_symlink(link));  // still a link
  EXPECT_EQ(slurp(target), "new\n");  // and the target has the content
  EXPECT_EQ(replaced_file(link), dir_ / "real/bounds.json");
}

TEST_F(JsonFile, ASymlinkLoopIsBadInput) {
  fs::create_symlink("b.json", dir_ / "a.json");
  fs::create_symlink("a.json", dir_ / "b.json");
  EXPECT_THROW(write_file_atomically(dir_ / "a.json", "x"), InputError);
}

TEST_F(JsonFile, AFileWithOtherHardLinksIsNotDetached) {
  const fs::path file = dir_ / "bounds.json";
  write_file_atomically(file, "old\n");
  fs::create_hard_link(file, dir_ / "other-name.json");
  try {
    write_file_atomically(file, "new\n");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("has 2 hard links"), std::string::npos) << e.what();
  }
  EXPECT_EQ(slurp(dir_ / "other-name.json"), "old\n");  // both names still one file
  EXPECT_EQ(fs::hard_link_count(file), 2u);
}

TEST_F(JsonFile, KeepsTheOwnerAndGroup) {
  if (::geteuid() != 0) GTEST_SKIP() << "giving a file to another owner needs root";
  const fs::path file = dir_ / "bounds.json";
  write_file_atomically(file, "old\n");
  ASSERT_EQ(::chown(file.c_str(), 4321, 8765), 0);
  write_file_atomically(file, "new\n");
  struct stat st {};
  ASSERT_EQ(::stat(file.c_str(), &st), 0);
  EXPECT_EQ(st.st_uid, 4321u);
  EXPECT_EQ(st.st_gid, 8765u);
}

// Only what is provably a killed writer's temporary goes: its name, and
// content its writer recognises. A user's files of any similar name stay.
TEST_F(JsonFile, StaleTemporariesAreRemovedAndNothingElse) {
  const fs::path file = dir_ / "bounds.json";
  write_file_atomically(file, "x\n");
  const auto ours = [](const fs::path& p) { return slurp(p) == "whole output\n"; };
  std::ofstream(dir_ / ".bounds.json.allocgate-Ab3dE9") << "whole output\n";
  std::ofstream(dir_ / ".bounds.json.allocgate-Zz9zZ9") << "the user's, in our name";
  std::ofstream(dir_ / ".bounds.json.Ab3dE9") << "whole output\n";  // an older pattern: a user's name now
  std::ofstream(dir_ / ".bounds.json.backup") << "whole output\n";
  std::ofstream(dir_ / ".bounds.json.orig12") << "whole output\n";
  std::ofstream(dir_ / ".bounds.json.allocgate-Ab3d.9") << "whole output\n";
  std::ofstream(dir_ / ".other.json.allocgate-Ab3dE9") << "whole output\n";
  fs::create_directory(dir_ / ".bounds.json.allocgate-dir123");
  std::ofstream(dir_ / "linked") << "whole output\n";
  fs::create_hard_link(dir_ / "linked", dir_ / ".bounds.json.allocgate-Linked");
  remove_stale_temporaries(file, ours);
  EXPECT_FALSE(fs::exists(dir_ / ".bounds.json.allocgate-Ab3dE9"));
  for (const char* kept : {".bounds.json.allocgate-Zz9zZ9", ".bounds.json.Ab3dE9", ".bounds.json.backup",
                           ".bounds.json.orig12", ".bounds.json.allocgate-Ab3d.9", ".other.json.allocgate-Ab3dE9",
                           ".bounds.json.allocgate-dir123", ".bounds.json.allocgate-Linked"}) {
    EXPECT_TRUE(fs::exists(dir_ / kept)) << kept;
  }
  EXPECT_EQ(slurp(file), "x\n");
}

// A file of 1 MiB or more is parsed without its whitespace (json_file.cpp):
// what it reads and what it says about a broken one are the file's own.
std::string large_document(const std::string& tail) {
  std::string text = "{\n  \"pad\": [\n";
  while (text.size() < (std::size_t{3} << 20) / 2) text += "    \"  spaced  string \\\" \",\n    12.5,\n";
  return text + "    0\n  ],\n" + tail + "\n}\n";
}

TEST_F(JsonFile, ALargeFileReadsAsItsText) {
  const fs::path file = dir_ / "large.json";
  const std::string text = large_document("  \"last\": \"a  b\"");
  std::ofstream(file) << text;
  const JsonDocument document = read_json_document(file);
  EXPECT_EQ(to_nlohmann(document.root()), nlohmann::json::parse(text));
}

TEST_F(JsonFile, ALargeFileThatIsBrokenSaysWhereInTheFile) {
  const fs::path file = dir_ / "large.json";
  const std::string text = large_document("  \"last\": [1, 2,");
  std::ofstream(file) << text;
  const auto error = [&] {
    try {
      read_json_document(file);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  // The closing brace where a value belongs, counted in the file's bytes
  // (from 1), not in its text without whitespace.
  EXPECT_EQ(error(), file.string() + ": malformed JSON at byte " + std::to_string(text.rfind('}') + 1));
  std::ofstream(file) << large_document("  \"pad\": 1");
  EXPECT_EQ(error(), file.string() + ": the key \"pad\" appears twice in one object");
}

TEST(JsonNumber, WritesWholeFiguresAsIntegers) {
  EXPECT_EQ(json_number(15022).dump(), "15022");
  EXPECT_EQ(json_number(0).dump(), "0");
  EXPECT_EQ(json_number(0.0625).dump(), "0.0625");
  EXPECT_EQ(json_number(38.8125).dump(), "38.8125");
}

TEST(ParseJson, ANumberBeyondADoubleIsMalformedNotACrash) {
  // The input libFuzzer reduced this to.
  EXPECT_THROW(parse_json(R"({"benchmarks": [{"name": "x", "allocs/op": 2.3308e+0487825648}]})", "x.json"), InputError);
}

TEST(ParseJson, RefusesNestingBeyondTheLimitBeforeAnythingRecurses) {
  const auto nested = [](int depth) { return std::string(depth, '[') + std::string(depth, ']'); };
  EXPECT_NO_THROW(parse_json(nested(kMaxJsonDepth), "x.json"));
  EXPECT_THROW(parse_json(nested(kMaxJsonDepth + 1), "x.json"), InputError);
  try {
    parse_json("{\"v\": " + nested(200000) + "}", "x.json");  // 400 KB: used to overflow the stack
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "x.json: JSON nested deeper than 64 levels");
  }
}

TEST(ParseJson, AKeyTwiceInOneObjectIsBadInput) {
  EXPECT_THROW(parse_json(R"({"a": {"x": 1, "y": 2, "x": 3}})", "x.json"), InputError);
  EXPECT_THROW(parse_json(R"({"a": 1, "b": [{"c": 1}], "a": 2})", "x.json"), InputError);
  // The same key in sibling or nested objects is fine.
  EXPECT_NO_THROW(parse_json(R"({"a": {"a": 1}, "b": [{"a": 1}, {"a": 2}]})", "x.json"));
}

TEST(ParseJson, ANulByteIsBadInputWhereverItIs) {
  using namespace std::string_literals;
  for (const std::string& text : {"{\"a\": 1}\0garbage"s, "{\"a\": \0 1}"s, "\0"s}) {
    EXPECT_THROW(parse_json(text, "x.json"), InputError) << text.size();
  }
}

// The one-line error parse_json gives for text.
std::string parse_error(const std::string& text) {
  try {
    parse_json(text, "x.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "(parsed)";
}

TEST(ParseJson, AnIntegerBeyondSixtyFourBitsIsMalformed) {
  // nlohmann would read it as a double; simdjson refuses it, and says why.
  for (const char* text : {R"({"a": 100000000000000000000000})", R"({"a": -9223372036854775809})"}) {
    EXPECT_EQ(parse_error(text), "x.json: malformed JSON: Problem while parsing a number") << text;
  }
}

TEST(ParseJson, ARawControlCharacterInAStringIsMalformed) {
  EXPECT_EQ(parse_error("{\"a\": \"x\x01y\"}"), "x.json: malformed JSON at byte 9");
}

TEST(ParseJson, ReadsIntegersOfEveryRangeAsNlohmannDoes) {
  const auto json = parse_json(R"({"zero": 0, "big": 18446744073709551615, "negative": -9223372036854775808,
                                  "real": 0.5})",
                               "x.json");
  EXPECT_EQ(json, nlohmann::json::parse(R"({"zero": 0, "big": 18446744073709551615,
                                            "negative": -9223372036854775808, "real": 0.5})"));
  EXPECT_TRUE(json["zero"].is_number_unsigned());
  EXPECT_TRUE(json["big"].is_number_unsigned());
  EXPECT_TRUE(json["negative"].is_number_integer() && !json["negative"].is_number_unsigned());
  EXPECT_TRUE(json["real"].is_number_float());
}

// Google Benchmark writes a name or a path as it found it: a Latin-1 byte is
// read as U+FFFD, as allocgate writes what it cannot encode, not refused.
TEST(ParseJson, ReadsAByteThatIsNotUtf8AsTheReplacementCharacter) {
  const auto json = allocgate::files::parse_json("{\"executable\": \"build-caf\xe9/bench\", \"cv\": NaN}", "gb.json");
  EXPECT_EQ(json["executable"], "build-caf\uFFFD/bench");
  EXPECT_TRUE(json["cv"].is_null());
}

TEST(ParseJson, SaysWhereItBroke) { EXPECT_EQ(parse_error("{\"a\": [1, 2,"), "x.json: malformed JSON at byte 13"); }

}  // namespace

namespace {

TEST(ParseJson, ReadsGoogleBenchmarksNonFiniteFiguresAsNull) {
  const auto json = allocgate::files::parse_json(
      R"({"cv": NaN, "a": -nan, "b": inf, "s": "NaN stays: \"inf\"", "list": [nan, 1]})", "gb.json");
  EXPECT_TRUE(json["cv"].is_null());
  EXPECT_TRUE(json["a"].is_null());
  EXPECT_TRUE(json["b"].is_null());
  EXPECT_EQ(json["s"], "NaN stays: \"inf\"");
  EXPECT_TRUE(json["list"][0].is_null());
  EXPECT_EQ(json["list"][1], 1);
}

}  // namespace
