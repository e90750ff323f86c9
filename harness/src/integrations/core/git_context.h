// SPDX-License-Identifier: Apache-2.0
// The commit a benchmark or test binary measured, in its report's context, so
// that `allocgate history add` files the run under it with no flag.
#pragma once

#include <optional>
#include <string>

namespace allocgate::integrations {

/// What the context says of the source: the commit, and whether the work
/// tree had changes to tracked files on top of it.
struct GitState {
  std::string commit;
  std::optional<bool> dirty;  ///< unknown when the commit came from the environment
};

/// ALLOCGATE_GIT_COMMIT or GITHUB_SHA when set to a commit's name (CI names
/// the commit it checked out; letters, digits and . _ / - only), else what git says of the work tree holding the
/// running executable, else of the one holding the current directory; nothing when neither is in one or git is not
/// installed. Runs git itself, never a shell.
std::optional<GitState> git_state();

/// Keeps what git said in `dir` (a directory of reports, one a process: ctest
/// runs each test as a process of its own) for the next process of the same
/// executable in the same work tree to read instead of running git: git_state()
/// then asks git only when the executable or the repository's HEAD, branch,
/// packed refs or index changed since (by their size, time and inode).
void keep_git_state_in(std::string dir);

}  // namespace allocgate::integrations

namespace allocgate::benchmark::detail {
/// Adds git_commit (and git_dirty) to Google Benchmark's JSON context
/// (defined in benchmark.cpp).
void add_git_context();
}  // namespace allocgate::benchmark::detail
