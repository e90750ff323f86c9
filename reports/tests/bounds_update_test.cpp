// SPDX-License-Identifier: Apache-2.0
// `allocgate diff --update` as CI runs it: several jobs updating one bounds
// file at once, and jobs killed in the middle. No section is lost, and the
// file is always the old content or the new, never a mix or nothing.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bounds_file.h"
#include "command.h"

namespace {

namespace fs = std::filesystem;
using allocgate::bounds::read_bounds;

const std::string kAllocgate = ALLOCGATE_BIN;

std::string slurp(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A report of `cases` cases of `allocs` allocations each, for toolchain tc.
std::string report(int cases, int allocs) {
  std::string entries;
  for (int i = 0; i < cases; ++i) {
    entries += std::string(i ? "," : "") + R"({"name": "w/v/)" + std::to_string(i) + R"(", "allocs_per_op": )" +
               std::to_string(allocs) + "}";
  }
  return R"({"context": {"allocgate_schema_version": 1, "allocgate_toolchain": "tc"}, "benchmarks": [)" + entries +
         "]}";
}

// Starts allocgate with these arguments; returns its pid.
pid_t spawn(const std::vector<std::string>& args) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    std::vector<char*> argv{const_cast<char*>(kAllocgate.c_str())};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, STDOUT_FILENO);
    ::execv(kAllocgate.c_str(), argv.data());
    ::_exit(127);
  }
  return pid;
}

int wait_for(pid_t pid) {
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
}

class BoundsUpdate : public allocgate::reports::testing::ScratchDirTest {
 protected:
  // The files in the directory other than the given ones: temporaries left behind.
  std::vector<std::string> leftovers(const std::vector<std::string>& expected) const {
    std::vector<std::string> extra;
    for (const auto& entry : fs::directory_iterator(dir_)) {
      const std::string name = entry.path().filename().string();
      if (std::find(expected.begin(), expected.end(), name) == expected.end()) extra.push_back(name);
    }
    return extra;
  }
};

TEST_F(BoundsUpdate, EightToolchainsUpdatingAtOnceLoseNoSection) {
  const std::string bounds = (dir_ / "bounds.json").string();
  const std::string input = write("report.json", report(300, 1));
  for (int round = 0; round < 5; ++round) {
    fs::remove(bounds);
    std::vector<pid_t> updaters;
    for (int t = 0; t < 8; ++t) {
      updaters.push_back(
          spawn({"diff", "--update", "--toolchain", "toolchain-" + std::to_string(t), "--bounds", bounds, input}));
    }
    for (const pid_t pid : updaters) EXPECT_EQ(wait_for(pid), 0);
    const auto file = read_bounds(bounds);
    ASSERT_EQ(file.toolchains.size(), 8u) << "round " << round;
    for (const auto& [toolchain, cases] : file.toolchains) EXPECT_EQ(cases.size(), 300u) << toolchain;
  }
  EXPECT_EQ(leftovers({"bounds.json", "report.json"}), std::vector<std::string>{});
}

TEST_F(BoundsUpdate, AnUpdaterKilledAnywhereLeavesTheOldFileOrTheNew) {
  const std::string bounds = (dir_ / "bounds.json").string();
  // Two reports whose bounds differ in every case; --allow-loosen moves
  // between them, so each update rewrites the whole file.
  const std::string low = write("low.json", report(2000, 1)), high = write("high.json", report(2000, 2));
  ASSERT_EQ(wait_for(spawn({"diff", "--update", "--bounds", bounds, low})), 0);
  const std::string low_bounds = slurp(bounds);
  ASSERT_EQ(wait_for(spawn({"diff", "--update", "--allow-loosen", "--bounds", bounds, high})), 0);
  const std::string high_bounds = slurp(bounds);
  ASSERT_NE(low_bounds, high_bounds);

  // Kill times spread over one update's whole run, from exec to exit: the
  // quickest of three, so that a run slowed by a loaded machine does not
  // stretch the delays past most updates' end.
  auto one_update = std::chrono::microseconds::max();
  for (int i = 0; i < 3; ++i) {
    const auto start = std::chrono::steady_clock::now();
    wait_for(spawn({"diff", "--update", "--allow-loosen", "--bounds", bounds, i % 2 ? high : low}));
    one_update = std::min(
        one_update, std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start));
  }
  std::mt19937 random(20261130);
  std::uniform_int_distribution<long> delay(0, one_update.count());
  int killed = 0, finished = 0;
  for (int i = 0; i < 100; ++i) {
    const pid_t pid = spawn({"diff", "--update", "--allow-loosen", "--bounds", bounds, i % 2 ? low : high});
    std::this_thread::sleep_for(std::chrono::microseconds(delay(random)));
    ::kill(pid, SIGKILL);
    (wait_for(pid) == -SIGKILL ? killed : finished) += 1;
    const std::string after = slurp(bounds);
    ASSERT_TRUE(after == low_bounds || after == high_bounds) << "kill " << i << " left " << after.size() << " bytes";
  }
  std::cout << "killed " << killed << " updaters, " << finished << " finished first\n";
  EXPECT_GT(killed, 20);  // the kills landed inside updates, not only after them
  // The next update cleans up whatever a kill left between naming and renaming.
  ASSERT_EQ(wait_for(spawn({"diff", "--update", "--bounds", bounds, low})), 0);
  EXPECT_EQ(leftovers({"bounds.json", "low.json", "high.json"}), std::vector<std::string>{});
}

// The sweep of a killed updater's temporaries leaves the user's own files,
// whatever they hold, however like a temporary's their names.
TEST_F(BoundsUpdate, TheSweepRemovesOnlyAllocgatesOwnTemporaries) {
  const std::string bounds = (dir_ / "bounds.json").string();
  const std::string low = write("low.json", report(3, 1));
  ASSERT_EQ(wait_for(spawn({"diff", "--update", "--bounds", bounds, low})), 0);
  const std::string content = slurp(bounds);
  const std::vector<std::string> users = {".bounds.json.backup", ".bounds.json.orig12", ".bounds.json.abc123",
                                          ".bounds.json.allocgate-notes"};
  for (const std::string& name : users) std::ofstream(dir_ / name) << content;
  std::ofstream(dir_ / ".bounds.json.allocgate-X1y2Z3") << content;  // a killed updater's
  ASSERT_EQ(wait_for(spawn({"diff", "--update", "--bounds", bounds, low})), 0);
  std::vector<std::string> expected{"bounds.json", "low.json"};
  expected.insert(expected.end(), users.begin(), users.end());
  EXPECT_EQ(leftovers(expected), std::vector<std::string>{});
  for (const std::string& name : users) EXPECT_EQ(slurp(dir_ / name), content) << name;
}

}  // namespace
