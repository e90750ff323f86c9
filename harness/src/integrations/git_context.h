// SPDX-License-Identifier: Apache-2.0
// The commit a benchmark binary measured, in its JSON context, so that
// `allocgate history add bench.json` files the run under it with no flag.
#pragma once

#include <optional>
#include <string>

namespace allocgate::benchmark::detail {

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

/// Adds git_commit (and git_dirty) to Google Benchmark's JSON context.
void add_git_context();

}  // namespace allocgate::benchmark::detail
