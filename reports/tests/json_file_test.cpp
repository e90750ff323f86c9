#include "json_file.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "input_error.h"

namespace {

using namespace allocgate::reports;
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

TEST(JsonNumber, WritesWholeFiguresAsIntegers) {
  EXPECT_EQ(json_number(15022).dump(), "15022");
  EXPECT_EQ(json_number(0).dump(), "0");
  EXPECT_EQ(json_number(0.0625).dump(), "0.0625");
  EXPECT_EQ(json_number(38.8125).dump(), "38.8125");
}

TEST(ParseJson, ANumberBeyondADoubleIsMalformedNotACrash) {
  // The input libFuzzer reduced this to.
  EXPECT_THROW(parse_json(R"({"benchmarks": [{"name": "x", "allocs/op": 2.3308e+0487825648}]})", "x.json"),
               InputError);
}

TEST(ParseJson, SaysWhereItBroke) {
  try {
    parse_json("{\"a\": [1, 2,", "x.json");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "x.json: malformed JSON at byte 13");
  }
}

}  // namespace

namespace {

TEST(ParseJson, ReadsGoogleBenchmarksNonFiniteFiguresAsNull) {
  const auto json = allocgate::reports::parse_json(
      R"({"cv": NaN, "a": -nan, "b": inf, "s": "NaN stays: \"inf\"", "list": [nan, 1]})", "gb.json");
  EXPECT_TRUE(json["cv"].is_null());
  EXPECT_TRUE(json["a"].is_null());
  EXPECT_TRUE(json["b"].is_null());
  EXPECT_EQ(json["s"], "NaN stays: \"inf\"");
  EXPECT_TRUE(json["list"][0].is_null());
  EXPECT_EQ(json["list"][1], 1);
}

}  // namespace
