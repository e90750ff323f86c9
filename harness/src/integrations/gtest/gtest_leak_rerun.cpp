// SPDX-License-Identifier: Apache-2.0
// Running a leaking test again, alone, to name its lines; see the header.

#include "integrations/gtest/gtest_leak_rerun.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string_view>
#include <system_error>
#include <vector>

extern char** environ;

namespace allocgate::testing::detail {
namespace {

// GoogleTest's flags that choose which tests run, how often, in which order
// and where results go: the child runs the one test, once, writing nothing,
// and does not stop at a failure. --gtest_also_run_disabled_tests stays: the
// test may be a disabled one that the run was asked to run.
// GoogleTest takes -, --, / before the name and - for _ in it.
bool selects_or_writes(std::string_view arg) {
  const std::size_t start = arg.find_first_not_of("-/");
  if (start == 0 || start == std::string_view::npos) return false;  // not a flag
  std::string name(arg.substr(start, arg.find('=') - start));
  for (char& c : name) {
    if (c == '-') c = '_';
  }
  for (const char* flag : {"gtest_filter", "gtest_repeat", "gtest_shuffle", "gtest_random_seed", "gtest_output",
                           "gtest_list_tests", "gtest_fail_fast", "gtest_break_on_failure"}) {
    if (name == flag) return true;
  }
  return false;
}

// The variables that would make the child a shard, a second report, or run
// something else.
bool kept_in_the_childs_environment(std::string_view entry) {
  for (const std::string_view name :
       {"ALLOCGATE_OUT=", "ALLOCGATE_SITES=", "ALLOCGATE_FAIL_ON_LEAK=", "GTEST_SHARD_INDEX=", "GTEST_TOTAL_SHARDS=",
        "GTEST_SHARD_STATUS_FILE=", "GTEST_FILTER=", "GTEST_REPEAT=", "GTEST_OUTPUT=", "XML_OUTPUT_FILE=",
        "GTEST_SHUFFLE=", "GTEST_FAIL_FAST="}) {
    if (entry.substr(0, name.size()) == name) return false;
  }
  return true;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> p;
  p.reserve(strings.size() + 1);
  for (std::string& s : strings) p.push_back(s.data());
  p.push_back(nullptr);
  return p;
}

// Runs the child and waits for it: its wait status, or -1 with errno when
// it could not be started. Its output is not the parent's: it goes nowhere.
int run_child(std::vector<std::string> argv) {
  std::vector<std::string> env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    if (kept_in_the_childs_environment(*e)) env.emplace_back(*e);
  }
  // /proc/self/exe is this binary whatever argv[0] and the working directory say.
  std::error_code no_proc;
  const std::string program = std::filesystem::exists("/proc/self/exe", no_proc) ? "/proc/self/exe" : argv.front();
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  std::vector<char*> args = pointers(argv);
  std::vector<char*> envp = pointers(env);
  pid_t pid = 0;
  const int error = posix_spawn(&pid, program.c_str(), &actions, nullptr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) {
    errno = error;
    return -1;
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

// Each rerun starts the binary again; a suite where many tests leak is told
// its lines for the first few, and how to have them all.
constexpr int kMostReruns = 10;
int g_reruns = 0;

}  // namespace

std::string filter_selecting(std::string test) {
  for (char& c : test) {
    if (c == '-' || c == ':' || c == '*' || c == '?') c = '?';
  }
  return test;
}

std::string leak_sites_from_a_rerun(const std::string& test) {
  if (g_reruns == kMostReruns) {
    return "\n  (its lines: --allocgate_sites names them; the first " + std::to_string(kMostReruns) +
           " leaking tests were run again to name theirs)";
  }
  ++g_reruns;
  const std::vector<std::string> given = ::testing::internal::GetArgvs();
  if (given.empty()) return "";
  // TMPDIR, or /tmp when it names no directory.
  std::error_code error;
  std::filesystem::path directory = std::filesystem::temp_directory_path(error);
  if (error) directory = "/tmp";
  std::string file = (directory / "allocgate-leak-XXXXXX").string();
  const int fd = ::mkstemp(file.data());
  if (fd < 0) return std::string("\n  (its lines: no file for a rerun to write them to: ") + std::strerror(errno) + ")";
  ::close(fd);
  std::vector<std::string> argv{given.front()};
  for (std::size_t i = 1; i < given.size(); ++i) {
    if (!selects_or_writes(given[i])) argv.push_back(given[i]);
  }
  argv.push_back("--gtest_filter=" + filter_selecting(test));
  argv.push_back(std::string(kLeakSitesFlag) + "=" + file);
  argv.push_back(std::string(kLeakRerunOfFlag) + "=" + test);
  const int status = run_child(std::move(argv));
  const int spawn_error = errno;
  std::ifstream in(file, std::ios::binary);
  std::string lines((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  in.close();
  std::filesystem::remove(file, error);
  if (status < 0) {
    return std::string("\n  (its lines: the rerun to name them did not start: ") + std::strerror(spawn_error) + ")";
  }
  if (lines.empty() && WIFSIGNALED(status)) {
    return "\n  (its lines: run again alone to name them, the test was killed by signal " +
           std::to_string(WTERMSIG(status)) + "; --allocgate_sites names them in the same run)";
  }
  if (lines.empty()) {
    return "\n  (its lines: run again alone, the test leaked nothing: its leak depends on the tests before it; "
           "--allocgate_sites names the lines in the same run)";
  }
  if (lines.front() == '\n') return lines;  // none of its blocks has a stack
  return ", held by (the test run again alone, with stacks):\n" + lines;
}

}  // namespace allocgate::testing::detail
