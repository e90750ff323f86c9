// SPDX-License-Identifier: Apache-2.0
// The cache of a framework's code (integrations/core/framework_code_cache.h):
// taken back, moved to where each module is loaded, only when it names
// exactly the modules this process has; any line that does not parse and it
// is not taken.

#include "integrations/core/framework_code_cache.h"

#include <gtest/gtest.h>

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace allocgate::integrations {
namespace {

using detail::CodeRange;

ModuleCode module(std::string build_id, std::uintptr_t start) {
  ModuleCode m;
  m.build_id = std::move(build_id);
  m.start = start;
  return m;
}

class FrameworkCodeCache : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string name = (std::filesystem::temp_directory_path() / "allocgate-cache-XXXXXX").string();
    ASSERT_NE(mkdtemp(name.data()), nullptr);
    dir_ = name;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  const std::filesystem::path& dir() const { return dir_; }

  // Two modules: the program's, with a function and a boundary of the
  // framework's, and a library without debug information.
  std::vector<ModuleCode> written() const {
    ModuleCode program = module("00aa", 0x10000);
    program.framework = {{0x10100, 0x10200}, {0x10300, 0x10340}};
    program.boundaries = {{0x10400, 0x10480}};
    ModuleCode library = module("00bb", 0x7f0000000000);
    library.framework = {{0x7f0000000010, 0x7f0000000020}};
    library.without_debug_information = true;
    return {program, library};
  }
  std::filesystem::path file() const { return framework_code_cache(dir(), "doctest", "00aa"); }

 private:
  std::filesystem::path dir_;
};

TEST_F(FrameworkCodeCache, IsAHiddenFileNamedAfterTheNamespaceAndTheProgram) {
  EXPECT_EQ(file().filename(), ".allocgate-framework-code.doctest.00aa");
}

TEST_F(FrameworkCodeCache, ComesBackMovedToWhereEachModuleIsLoadedNow) {
  write_framework_code_cache(file(), "doctest", written());
  const auto read =
      read_framework_code_cache(file(), "doctest", {module("00bb", 0x7e0000000000), module("00aa", 0x20000)});
  ASSERT_TRUE(read.has_value());
  ASSERT_EQ(read->size(), 2u);
  const ModuleCode& program = (*read)[0];
  EXPECT_EQ(program.build_id, "00aa");
  ASSERT_EQ(program.framework.size(), 2u);
  EXPECT_EQ(program.framework[0].begin, 0x20100u);
  EXPECT_EQ(program.framework[1].end, 0x20340u);
  ASSERT_EQ(program.boundaries.size(), 1u);
  EXPECT_EQ(program.boundaries[0].begin, 0x20400u);
  EXPECT_FALSE(program.without_debug_information);
  const ModuleCode& library = (*read)[1];
  ASSERT_EQ(library.framework.size(), 1u);
  EXPECT_EQ(library.framework[0].begin, 0x7e0000000010u);
  EXPECT_TRUE(library.without_debug_information);
}

TEST_F(FrameworkCodeCache, IsNotTakenForAnotherSetOfModules) {
  write_framework_code_cache(file(), "doctest", written());
  // A library of another build (an upgrade), one more, one fewer.
  EXPECT_FALSE(read_framework_code_cache(file(), "doctest", {module("00aa", 1), module("00cc", 2)}));
  EXPECT_FALSE(read_framework_code_cache(file(), "doctest", {module("00aa", 1), module("00bb", 2), module("00cc", 3)}));
  EXPECT_FALSE(read_framework_code_cache(file(), "doctest", {module("00aa", 1)}));
  // Another framework's.
  EXPECT_FALSE(read_framework_code_cache(file(), "Catch", {module("00aa", 1), module("00bb", 2)}));
  EXPECT_TRUE(read_framework_code_cache(file(), "doctest", {module("00aa", 1), module("00bb", 2)}));
}

TEST_F(FrameworkCodeCache, IsNotTakenWhenALineDoesNotParse) {
  const std::vector<ModuleCode> loaded = {module("00aa", 1), module("00bb", 2)};
  // "f 18 30" overlaps the last module's range (10 to 20): the ranges are
  // written sorted and merged, so it is not one of ours.
  for (const std::string line : {"f 10", "f 20 10", "f 10 10", "f 10 20 30", "f zz 10", "f 18 30", "f 30 +40",
                                 "f 30 40 ", "module 00AA 0", "module 00cc 2", "x 1 2", "module", ""}) {
    write_framework_code_cache(file(), "doctest", written());
    std::ofstream(file(), std::ios::app) << line << '\n';
    EXPECT_FALSE(read_framework_code_cache(file(), "doctest", loaded)) << '"' << line << '"';
  }
  EXPECT_FALSE(read_framework_code_cache(dir() / "none", "doctest", loaded));  // no cache
}

TEST_F(FrameworkCodeCache, KeepsEachModulesRangesSortedWithTouchingAndOverlappingOnesJoined) {
  // A program's inlined calls, some 10^5 in a large suite, mostly follow
  // one another: the cache holds the code they cover, not each call.
  std::vector<ModuleCode> modules = written();
  modules[0].framework = {{0x10300, 0x10340}, {0x10100, 0x10200}, {0x10200, 0x10280}, {0x10120, 0x10130}};
  write_framework_code_cache(file(), "doctest", modules);
  const auto read = read_framework_code_cache(file(), "doctest", {module("00aa", 0x10000), module("00bb", 0)});
  ASSERT_TRUE(read.has_value());
  const std::vector<CodeRange>& framework = (*read)[0].framework;
  ASSERT_EQ(framework.size(), 2u);
  EXPECT_EQ(framework[0].begin, 0x10100u);
  EXPECT_EQ(framework[0].end, 0x10280u);
  EXPECT_EQ(framework[1].begin, 0x10300u);
  EXPECT_EQ(framework[1].end, 0x10340u);
}

TEST_F(FrameworkCodeCache, IsNotTakenWhenItsLastLineIsCutShort) {
  write_framework_code_cache(file(), "doctest", written());
  std::ofstream(file(), std::ios::app) << "f 30 40";  // a writer stopped mid-line: no newline
  EXPECT_FALSE(read_framework_code_cache(file(), "doctest", {module("00aa", 1), module("00bb", 2)}));
}

TEST_F(FrameworkCodeCache, LeavesOutEmptyRangesAndIsNotWrittenForARangeBelowItsModule) {
  std::vector<ModuleCode> modules = written();
  modules[0].framework.push_back({0x10500, 0x10500});  // an inlined call with no code left
  write_framework_code_cache(file(), "doctest", modules);
  const auto read = read_framework_code_cache(file(), "doctest", {module("00aa", 0x10000), module("00bb", 0)});
  ASSERT_TRUE(read.has_value());
  EXPECT_EQ((*read)[0].framework.size(), 2u);
  std::filesystem::remove(file());
  modules[0].framework.push_back({0x100, 0x200});
  write_framework_code_cache(file(), "doctest", modules);
  EXPECT_FALSE(std::filesystem::exists(file()));
}

}  // namespace
}  // namespace allocgate::integrations
