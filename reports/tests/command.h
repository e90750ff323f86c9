// SPDX-License-Identifier: Apache-2.0
// Helpers for the tests that run allocgate and benchmark binaries as a user
// would: a command's exit code and output, and a source line found by its text.
#pragma once

#include <unistd.h>

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace allocgate::reports::testing {

struct Result {
  int code = -1;
  std::string output;  // stdout and stderr
};

inline Result run(const std::string& command) {
  Result result;
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return result;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) result.output.append(buffer, n);
  const int status = ::pclose(pipe);
  result.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

/// The number of the first line of `file` that contains `text`, found the way
/// a developer would; 0 when none does.
inline unsigned line_of(const std::string& file, const std::string& text) {
  std::ifstream source(file);
  unsigned number = 0;
  for (std::string line; std::getline(source, line);) {
    ++number;
    if (line.find(text) != std::string::npos) return number;
  }
  return 0;
}

/// A test with a fresh directory of its own (named after the suite, the test
/// and the process, so concurrent ctest runs, of one build or several, do
/// not meet), removed when it ends.
class ScratchDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() / (std::string("allocgate-") + test->test_suite_name() + "-" +
                                                     test->name() + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  /// Writes text, byte for byte, to a file in the directory; returns its path.
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(dir_ / name, std::ios::binary) << text;
    return path(name);
  }

  std::filesystem::path dir_;
};

}  // namespace allocgate::reports::testing
