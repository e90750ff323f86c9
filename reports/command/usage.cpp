// SPDX-License-Identifier: Apache-2.0
#include "usage.h"

#include <algorithm>
#include <cctype>
#include <functional>

#include "escape.h"

namespace allocgate::command {
namespace {

// Levenshtein distance, with a transposition counting as one edit ("hsitory").
std::size_t distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

// "allocgate diff", "allocgate history show": the command a subcommand is.
std::string path_of(const CLI::App* app) {
  std::string path;
  for (; app != nullptr; app = app->get_parent()) {
    path.insert(0, app->get_parent() == nullptr ? std::string("allocgate") : " " + app->get_name());
  }
  return path;
}

// The long names ("--bounds") of the options app and its parents take.
std::vector<std::string> options_of(CLI::App* app) {
  std::vector<std::string> names;
  for (; app != nullptr; app = app->get_parent()) {
    for (const CLI::Option* option : app->get_options()) {
      for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
    }
  }
  return names;
}

bool takes(CLI::App* app, const std::string& option) {
  for (; app != nullptr; app = app->get_parent()) {
    if (app->get_option_no_throw(option) != nullptr) return true;
  }
  return false;
}

}  // namespace

std::string nearest(std::string_view word, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_distance = std::min<std::size_t>(2, std::max<std::size_t>(1, word.size() / 3)) + 1;
  for (const std::string& candidate : candidates) {
    const std::size_t d = distance(word, candidate);
    if (d < best_distance) best = candidate, best_distance = d;
  }
  return best;
}

std::string usage_error(CLI::App& app, const std::vector<std::string>& args, const CLI::Error& error) {
  // The subcommands the words name, in turn; the first other word stops them.
  CLI::App* current = &app;
  std::string problem;
  bool after_option = false;  // the word may be the option's value
  for (const std::string& arg : args) {
    if (arg == "--") break;
    // "-1" after "--last" is its value, a number, not an option.
    const bool number =
        arg.size() > 1 && arg[0] == '-' && (std::isdigit(static_cast<unsigned char>(arg[1])) || arg[1] == '.');
    if (arg.size() > 1 && arg[0] == '-' && !(number && after_option)) {
      const std::string name = arg.substr(0, arg.find('='));
      if (name != "-" && !takes(current, name)) {
        problem = "unknown option '" + name + "' for " + path_of(current);
        if (const std::string near = nearest(name, options_of(current)); !near.empty()) {
          problem += "; did you mean " + near + "?";
        }
        break;
      }
      after_option = arg.find('=') == std::string::npos;
      continue;
    }
    const std::vector<CLI::App*> subcommands = current->get_subcommands(std::function<bool(CLI::App*)>());
    const auto named =
        std::find_if(subcommands.begin(), subcommands.end(), [&](const CLI::App* sub) { return sub->check_name(arg); });
    if (named != subcommands.end()) {
      current = *named;
      after_option = false;
      continue;
    }
    const bool needs_subcommand = current->get_require_subcommand_min() > 0 && !subcommands.empty();
    if (needs_subcommand && !after_option) {
      std::vector<std::string> names;
      for (const CLI::App* sub : subcommands) names.push_back(sub->get_name());
      problem = "unknown subcommand '" + arg + "' for " + path_of(current);
      if (const std::string near = nearest(arg, names); !near.empty()) problem += "; did you mean " + near + "?";
      break;
    }
    after_option = false;
  }
  if (problem.empty()) problem = error.what();
  return "allocgate: " + files::terminal_text(problem) + " (see " + path_of(current) + " --help)\n";
}

}  // namespace allocgate::command
