// SPDX-License-Identifier: Apache-2.0
// A usage error said as a person would want it: the word that was not
// understood, the nearest one that would have been, and the --help to read.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

namespace allocgate::command {

/// The candidate nearest to word by edit distance, when it is near enough to
/// be a slip (at most a third of the word's letters, and at most 2, apart);
/// empty when none is.
std::string nearest(std::string_view word, const std::vector<std::string>& candidates);

/// The one line for a command line that did not parse: an unknown subcommand
/// or option is named, with a "did you mean", before whatever CLI11 said of
/// the rest; every line ends by pointing to the right --help.
std::string usage_error(CLI::App& app, const std::vector<std::string>& args, const CLI::Error& error);

}  // namespace allocgate::command
