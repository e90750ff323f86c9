// SPDX-License-Identifier: Apache-2.0
#include "git_context.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <string_view>
#include <vector>

extern char** environ;

namespace allocgate::integrations {
namespace {

// What `git -C dir ARGS...` prints on stdout, when it exits 0.
std::optional<std::string> git(const std::string& dir, std::vector<std::string> args) {
  args.insert(args.begin(), {"git", "-C", dir});
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  int out[2];
  if (::pipe2(out, O_CLOEXEC) != 0) return std::nullopt;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  const int spawned = ::posix_spawnp(&pid, "git", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(out[1]);
  std::string text;
  if (spawned == 0) {
    char buffer[4096];
    for (ssize_t n; (n = ::read(out[0], buffer, sizeof buffer)) > 0 && text.size() < (1 << 20);) text.append(buffer, n);
  }
  ::close(out[0]);
  if (spawned != 0) return std::nullopt;  // no git
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::nullopt;
  return text;
}

std::optional<GitState> state_of(const std::string& dir) {
  std::optional<std::string> commit = git(dir, {"rev-parse", "--verify", "HEAD"});
  if (!commit) return std::nullopt;
  while (!commit->empty() && (commit->back() == '\n' || commit->back() == '\r')) commit->pop_back();
  if (commit->size() != 40 && commit->size() != 64) return std::nullopt;  // SHA-1 or SHA-256 names only
  GitState state{*commit, std::nullopt};
  if (const auto changes = git(dir, {"status", "--porcelain", "--untracked-files=no"})) state.dirty = !changes->empty();
  return state;
}

// A commit name as CI gives one: letters, digits and . _ / - (a SHA, a tag,
// a ref), which goes into the JSON context as it is.
bool commit_name(std::string_view text) {
  if (text.empty() || text.size() > 256) return false;
  for (const char c : text) {
    const bool ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.' ||
                    c == '_' || c == '/' || c == '-';
    if (!ok) return false;
  }
  return true;
}

}  // namespace

std::optional<GitState> git_state() {
  for (const char* name : {"ALLOCGATE_GIT_COMMIT", "GITHUB_SHA"}) {
    if (const char* value = std::getenv(name); value != nullptr && commit_name(value)) {
      return GitState{value, std::nullopt};
    }
  }
  std::error_code error;
  const std::filesystem::path executable = std::filesystem::read_symlink("/proc/self/exe", error);
  if (!error) {
    if (auto state = state_of(executable.parent_path().string())) return state;
  }
  const std::filesystem::path here = std::filesystem::current_path(error);
  if (!error) return state_of(here.string());
  return std::nullopt;
}

}  // namespace allocgate::integrations
