// SPDX-License-Identifier: Apache-2.0
// What a counted test suite is asked for, read from the environment and
// the flags (see run_options.h).
#include "integrations/core/run_options.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "escape.h"
#include "integrations/core/flag_value.h"

namespace allocgate::integrations {

std::optional<bool> switch_value(std::string_view value) {
  if (value.empty() || value == "true" || value == "1") return true;
  if (value == "false" || value == "0") return false;
  return std::nullopt;
}

namespace {

bool environment_switch(const char* name, bool& target, std::string& error) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return true;
  const std::optional<bool> on = switch_value(value);
  if (!on) {
    error =
        std::string("allocgate: ") + name + " takes 1 or 0 (true or false), not '" + files::terminal_text(value) + "'";
    return false;
  }
  target = *on;
  return true;
}

}  // namespace

bool read_test_options(TestOptions& options, const std::vector<std::string>& args, std::string_view prefix,
                       std::string& error) {
  if (const char* out = std::getenv("ALLOCGATE_OUT")) options.out = out;
  if (const char* root = std::getenv("ALLOCGATE_SOURCE_ROOT")) options.source_root = root;
  if (!environment_switch("ALLOCGATE_SITES", options.sites, error) ||
      !environment_switch("ALLOCGATE_FAIL_ON_LEAK", options.fail_on_leak, error)) {
    return false;
  }
  if (!args.empty()) options.executable = args.front();
  const std::string p(prefix);
  SweepSettings sweep(p + "fail-");
  if (!sweep.from_environment(error)) return false;
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    if (arg.substr(0, p.size()) != p) continue;
    if (const int taken = sweep.take_flag(arg, error); taken != 0) {
      if (taken < 0) return false;
      continue;
    }
    if (const char* v = flag_value(arg, p + "out")) {
      if (*v == '\0') {
        error = "allocgate: " + p + "out takes a file: " + p + "out=report.json";
        return false;
      }
      options.out = v;
      continue;
    }
    if (const char* v = flag_value(arg, p + "source-root")) {
      options.source_root = v;
      continue;
    }
    bool* target = nullptr;
    const char* value = flag_value(arg, p + "sites");
    if (value != nullptr) {
      target = &options.sites;
    } else if ((value = flag_value(arg, p + "fail-on-leak")) != nullptr) {
      target = &options.fail_on_leak;
    }
    if (target == nullptr) {
      error = "allocgate: unknown flag " + files::terminal_text(arg) + "; allocgate takes " + p + "out=FILE, " + p +
              "sites, " + p + "source-root=DIR, " + p + "fail-on-leak, " + sweep.flags_text();
      return false;
    }
    const std::optional<bool> on = switch_value(value);
    if (!on) {
      error = "allocgate: " + files::terminal_text(arg.substr(0, arg.find('='))) + " takes true or false, not '" +
              files::terminal_text(value) + "'";
      return false;
    }
    *target = *on;
  }
  options.sweep = sweep.settle(options.source_root);
  return true;
}

std::vector<std::string> process_arguments() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  const std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::string> arguments;
  for (std::size_t at = 0; at < all.size();) {
    const std::size_t end = all.find('\0', at);
    arguments.push_back(all.substr(at, end - at));
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return arguments;
}

std::string report_path(const std::string& out, const std::string& executable) {
  if (out.empty() || !std::filesystem::is_directory(out)) return out;
  const std::string program = executable.empty() ? "tests" : std::filesystem::path(executable).filename().string();
  return (std::filesystem::path(out) / (program + "." + std::to_string(::getpid()) + ".json")).string();
}

std::string cache_directory(const std::string& out) {
  std::error_code error;
  return !out.empty() && std::filesystem::is_directory(out, error) ? out : std::string();
}

TestFigures figures_of(const AllocationStats& stats, const TestRun::End& end) {
  TestFigures figures;
  figures.stats = stats;
  figures.leaked_blocks = end.live.leaked.blocks;
  figures.leaked_bytes = end.live.leaked.bytes;
  figures.kept_blocks = end.live.kept.blocks;
  figures.kept_bytes = end.live.kept.bytes;
  figures.one_time_allocations = end.one_time.allocations;
  figures.one_time_bytes = end.one_time.bytes;
  figures.other_thread_allocations = end.other_thread_allocations;
  return figures;
}

std::string leak_message(std::string_view test, const allocgate::detail::LiveTotals& leaked, const std::string& lines) {
  std::ostringstream message;
  message << files::terminal_text(test) << " leaked " << leaked.bytes << " bytes in " << leaked.blocks
          << (leaked.blocks == 1 ? " block" : " blocks")
          << " (allocated during the test, and at its end still live and reachable from nothing)";
  if (!lines.empty()) message << (lines.front() == '\n' ? "" : ", held by:\n") << lines;
  return message.str();
}

}  // namespace allocgate::integrations
