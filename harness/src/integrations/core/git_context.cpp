// SPDX-License-Identifier: Apache-2.0
// The commit a report names, read from git once and kept (see
// git_context.h).
#include "integrations/core/git_context.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>
#include <vector>

#include "atomic_write.h"

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

// Whether git could find a repository for `dir`: a .git (a directory, or a
// worktree's or submodule's file) in it or above it, or one named by the
// environment. A directory in none (a build tree outside any checkout, as
// ctest runs a test a process there) spares git's start, twice a process.
bool maybe_in_a_repository(const std::filesystem::path& dir) {
  if (std::getenv("GIT_DIR") != nullptr || std::getenv("GIT_WORK_TREE") != nullptr) return true;
  std::error_code error;
  for (std::filesystem::path at = std::filesystem::absolute(dir, error); !error && !at.empty(); at = at.parent_path()) {
    if (std::filesystem::symlink_status(at / ".git", error).type() != std::filesystem::file_type::not_found) {
      return true;
    }
    error.clear();
    if (at == at.root_path()) return false;
  }
  return true;  // not told: git is asked
}

std::optional<GitState> state_of(const std::string& dir) {
  if (!maybe_in_a_repository(dir)) return std::nullopt;
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

std::string& kept_in() {
  static std::string dir;
  return dir;
}

// A file's identity and last change, "-" when absent.
std::string stamp(const std::filesystem::path& file) {
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0) return "-";
  std::ostringstream out;
  out << st.st_dev << ':' << st.st_ino << ':' << st.st_size << ':' << st.st_mtim.tv_sec << '.' << st.st_mtim.tv_nsec;
  return out.str();
}

// The first line of a small file, as it is.
std::string first_line(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  return line.size() <= 1024 ? line : std::string();
}

// What git's answer for `dir` depends on, as files the next process can
// stat: the executable, and the repository's HEAD, the branch it names, the
// packed refs and the index (git's own record of the work tree's files).
// Empty when `dir` is in no work tree with a .git directory of its own (a
// worktree's or submodule's .git file): git is asked every time.
std::string state_key(const std::filesystem::path& executable) {
  std::filesystem::path git;
  for (std::filesystem::path dir = executable.parent_path(); !dir.empty(); dir = dir.parent_path()) {
    if (std::filesystem::is_directory(dir / ".git")) {
      git = dir / ".git";
      break;
    }
    if (dir == dir.root_path()) break;
  }
  if (git.empty()) return {};
  const std::string head = first_line(git / "HEAD");
  std::string key = executable.string() + '\n' + stamp(executable) + '\n' + git.string() + '\n' + head + '\n' +
                    stamp(git / "HEAD") + '\n' + stamp(git / "packed-refs") + '\n' + stamp(git / "index");
  if (head.rfind("ref: refs/", 0) == 0 && head.find("..") == std::string::npos)
    key += '\n' + stamp(git / head.substr(5));
  return key;
}

// The kept state, "KEY\n---\nCOMMIT DIRTY", when its key is this one.
std::optional<GitState> kept_state(const std::filesystem::path& file, const std::string& key) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  const std::string kept = text.str();
  const std::string head = key + "\n---\n";
  if (kept.size() > 16384 || kept.compare(0, head.size(), head) != 0) return std::nullopt;
  std::istringstream rest(kept.substr(head.size()));
  std::string commit, dirty;
  if (!(rest >> commit >> dirty) || (commit.size() != 40 && commit.size() != 64) || !commit_name(commit)) {
    return std::nullopt;
  }
  GitState state{commit, std::nullopt};
  if (dirty != "-") state.dirty = dirty == "1";
  return state;
}

}  // namespace

void keep_git_state_in(std::string dir) { kept_in() = std::move(dir); }

std::optional<GitState> git_state() {
  for (const char* name : {"ALLOCGATE_GIT_COMMIT", "GITHUB_SHA"}) {
    if (const char* value = std::getenv(name); value != nullptr && commit_name(value)) {
      return GitState{value, std::nullopt};
    }
  }
  std::error_code error;
  const std::filesystem::path executable = std::filesystem::read_symlink("/proc/self/exe", error);
  if (!error) {
    const std::string key = kept_in().empty() ? std::string() : state_key(executable);
    const std::filesystem::path kept = std::filesystem::path(kept_in()) / ".allocgate-git-state";
    if (!key.empty()) {
      if (auto state = kept_state(kept, key)) return state;
    }
    if (auto state = state_of(executable.parent_path().string())) {
      // Keyed by the repository as git left it: `git status` rewrites a
      // stale index, and a key taken before would never match again.
      if (const std::string after = key.empty() ? key : state_key(executable); !after.empty()) {
        try {  // for the next process; without it, git is asked again
          files::write_file_atomically(kept, after + "\n---\n" + state->commit + ' ' +
                                                 (!state->dirty   ? "-"
                                                  : *state->dirty ? "1"
                                                                  : "0") +
                                                 '\n');
        } catch (const std::exception&) {
        }
      }
      return state;
    }
  }
  const std::filesystem::path here = std::filesystem::current_path(error);
  if (!error) return state_of(here.string());
  return std::nullopt;
}

}  // namespace allocgate::integrations
