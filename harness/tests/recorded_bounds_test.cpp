// SPDX-License-Identifier: Apache-2.0
// EXPECT_ALLOCATIONS_WITHIN_BOUNDS: a statement against the bounds file the
// gate reads, per toolchain; ALLOCGATE_UPDATE=1 records and tightens, never
// loosens, and concurrent recorders lose no entry.

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "allocgate/gtest.h"
#include "standard_library.h"

namespace {

namespace fs = std::filesystem;
using allocgate::testing::check_recorded;
using allocgate::testing::measure_statement;

// n strings too long for the small-string buffer: n allocations.
void allocate(int n) {
  for (int i = 0; i < n; ++i) {
    std::string s(40, 's');
    asm volatile("" : : "g"(s.data()) : "memory");
  }
}

class RecordedBounds : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("allocgate-recorded-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "-" +
            std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    file_ = (dir_ / "bounds.json").string();
    ::unsetenv("ALLOCGATE_BOUNDS");
    ::unsetenv("ALLOCGATE_UPDATE");
  }
  void TearDown() override {
    ::unsetenv("ALLOCGATE_UPDATE");
    fs::remove_all(dir_);
  }
  ::testing::AssertionResult check(const char* name, int allocations) {
    return check_recorded("allocate(n)", measure_statement([&] { allocate(allocations); }), name, allocgate::kToolchain,
                          file_.c_str());
  }
  std::string text() const {
    std::ifstream in(file_);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  fs::path dir_;
  std::string file_;
};

TEST_F(RecordedBounds, AMissingBoundFailsWithTheCommandThatRecordsIt) {
  const auto result = check("cache/insert", 2);
  ASSERT_FALSE(result);
  EXPECT_NE(std::string(result.message()).find("record the bounds of cache/insert with: ALLOCGATE_UPDATE=1"),
            std::string::npos)
      << result.message();
  EXPECT_FALSE(fs::exists(file_));  // nothing written without the switch
}

TEST_F(RecordedBounds, RecordsThenHoldsThenCatchesARegressionAtItsLine) {
  ::setenv("ALLOCGATE_UPDATE", "1", 1);
  EXPECT_TRUE(check("cache/insert", 2));
  ::unsetenv("ALLOCGATE_UPDATE");
  // Two strings of 40 characters: 82 bytes with libstdc++, 96 with libc++.
  const std::string bytes = std::to_string(2 * allocgate::test::string_block_bytes(40));
  EXPECT_NE(text().find(std::string("\"") + allocgate::kToolchain + "\": {\n      \"cache/insert\": {\n" +
                        "        \"allocs_per_op\": 2,\n" + "        \"bytes_per_op\": " + bytes + "\n"),
            std::string::npos)
      << text();
  EXPECT_TRUE(check("cache/insert", 2));
  EXPECT_TRUE(check("cache/insert", 1));  // fewer is within the bound
  const auto regressed = check("cache/insert", 3);
  ASSERT_FALSE(regressed);
  const std::string message = regressed.message();
  EXPECT_NE(message.find("exceeds the bound recorded for cache/insert [" + std::string(allocgate::kToolchain) +
                         "] in " + file_ + ": allocations 3 > bound 2"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("recorded_bounds_test.cpp:"), std::string::npos) << message;  // the top site
}

TEST_F(RecordedBounds, RecordingTightensButNeverLoosens) {
  ::setenv("ALLOCGATE_UPDATE", "1", 1);
  EXPECT_TRUE(check("cache/insert", 3));
  EXPECT_TRUE(check("cache/insert", 1));  // tightened to 1
  const auto more = check("cache/insert", 2);
  EXPECT_FALSE(more);
  EXPECT_NE(std::string(more.message()).find("(not recorded: bounds only tighten)"), std::string::npos);
  ::unsetenv("ALLOCGATE_UPDATE");
  EXPECT_TRUE(check("cache/insert", 1));
  EXPECT_FALSE(check("cache/insert", 2));
}

TEST_F(RecordedBounds, TheEnvironmentNamesTheFileAndTheMacroReadsIt) {
  ::setenv("ALLOCGATE_BOUNDS", file_.c_str(), 1);
  std::ofstream(file_) << R"({"allocgate_bounds_version": 1, "toolchains": {")" << allocgate::kToolchain
                       << R"(": {"two": {"allocs_per_op": 2}}}})";
  EXPECT_ALLOCATIONS_WITHIN_BOUNDS("two", allocate(2));
  EXPECT_TRUE(check_recorded("allocate(2)", measure_statement([] { allocate(2); }), "two", allocgate::kToolchain, ""));
  ::unsetenv("ALLOCGATE_BOUNDS");
  const auto none =
      check_recorded("allocate(2)", measure_statement([] { allocate(2); }), "two", allocgate::kToolchain, "");
  EXPECT_NE(std::string(none.message()).find("set ALLOCGATE_BOUNDS"), std::string::npos) << none.message();
}

TEST_F(RecordedBounds, AnotherToolchainsBoundDoesNotApply) {
  std::ofstream(file_)
      << R"({"allocgate_bounds_version": 1, "toolchains": {"other-1-lib-1": {"two": {"allocs_per_op": 2}}}})";
  const auto result = check("two", 2);
  ASSERT_FALSE(result);
  EXPECT_NE(std::string(result.message()).find("no bound recorded for two [" + std::string(allocgate::kToolchain)),
            std::string::npos);
}

TEST_F(RecordedBounds, BadBoundsFilesAreOneLineFailures) {
  std::ofstream(file_) << "{\"allocgate_bounds_version\": 1, \"toolchains\": [";
  const auto result = check("two", 2);
  ASSERT_FALSE(result);
  EXPECT_NE(std::string(result.message()).find("malformed JSON"), std::string::npos) << result.message();
}

// "p3/n2". Appended, not concatenated: GCC 12 warns falsely (-Wrestrict) on
// "literal" + std::string here.
std::string recorder_name(int process, int n) {
  std::string name = "p";
  name += std::to_string(process);
  name += "/n";
  name += std::to_string(n);
  return name;
}

// ctest -j: test processes recording into one file at once lose no entry.
TEST_F(RecordedBounds, ConcurrentRecordersLoseNothing) {
  constexpr int kProcesses = 8, kNamesEach = 5;
  ::setenv("ALLOCGATE_UPDATE", "1", 1);
  std::vector<pid_t> children;
  for (int p = 0; p < kProcesses; ++p) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      bool ok = true;
      for (int n = 0; n < kNamesEach; ++n) {
        const std::string name = recorder_name(p, n);
        ok = ok && check(name.c_str(), 1 + n % 3);
      }
      ::_exit(ok ? 0 : 1);
    }
    children.push_back(pid);
  }
  for (const pid_t pid : children) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  ::unsetenv("ALLOCGATE_UPDATE");
  for (int p = 0; p < kProcesses; ++p) {
    for (int n = 0; n < kNamesEach; ++n) {
      const std::string name = recorder_name(p, n);
      EXPECT_TRUE(check(name.c_str(), 1 + n % 3)) << name;
    }
  }
}

}  // namespace
