// SPDX-License-Identifier: Apache-2.0
// What --help says beyond the options, and how it says the options: the
// examples, the exit status and the related pages of every subcommand, and
// option values named for what they are (FILE, N, RE2) with their defaults
// in words, not CLI11's own notation ("UINT:UINT in [0 - 1099511627776]=10",
// "Needs: --update"). The man pages are made from this --help (help2man), so
// they say the same.
#pragma once

#include <memory>

#include <CLI/CLI.hpp>

namespace allocgate::command {

/// The formatter every --help prints through: give it to the app before any
/// subcommand is added (a subcommand takes its parent's when it is made).
std::shared_ptr<CLI::Formatter> help_formatter();

/// Adds the examples, exit status and SEE ALSO to the app's --help and to
/// each subcommand's (and history's own subcommands').
void add_help_text(CLI::App& app);

}  // namespace allocgate::command
