// SPDX-License-Identifier: Apache-2.0
// The failure sweep's settings, read from the environment and the flags.
#include "integrations/core/sweep_settings.h"

#include <cstdlib>
#include <exception>
#include <iostream>
#include <random>
#include <sstream>

#include "escape.h"
#include "integrations/core/flag_value.h"
#include "integrations/core/run_options.h"

namespace allocgate::integrations {

namespace {

constexpr std::string_view kSettings[] = {"each", "at", "rest", "seed", "timeout"};

}  // namespace

bool SweepSettings::set(std::string_view setting, const std::string& value, std::string_view spelled,
                        std::string& error) {
  const auto bad = [&](const char* wants) {
    error = "allocgate: " + std::string(spelled) + " takes " + wants + ", not '" + files::terminal_text(value) + "'";
    return false;
  };
  const auto number = [&](std::uint64_t most) -> std::optional<std::uint64_t> {
    if (value.empty() || value.size() > 19 || value.find_first_not_of("0123456789") != std::string::npos) return {};
    const std::uint64_t n = std::stoull(value);
    if (n > most) return {};
    return n;
  };
  if (setting == "each") {
    SweepOptions check;
    if (!parse_fail_each(value, check)) return bad("sites, all or a count of points a test");
    each_ = value;
  } else if (setting == "at") {
    const auto n = number(~std::uint64_t{0} - 1);
    if (!n) return bad("an allocation's number, from 0");
    fail_at_ = *n;
  } else if (setting == "rest") {
    const std::optional<bool> on = switch_value(value);
    if (!on) return bad("1 or 0 (true or false)");
    fail_rest_ = *on;
  } else if (setting == "seed") {
    const auto n = number(~std::uint64_t{0});
    if (!n) return bad("a number");
    options_.seed = *n;
    seeded_ = true;
  } else if (setting == "timeout") {
    const auto n = number(24 * 3600);
    if (!n || *n == 0) return bad("seconds, 1 to 86400");
    options_.timeout_seconds = static_cast<unsigned>(*n);
  }
  return true;
}

bool SweepSettings::from_environment(std::string& error) {
  for (const std::string_view setting : kSettings) {
    std::string name = "ALLOCGATE_FAIL_";
    for (const char c : setting) name += static_cast<char>(c - 'a' + 'A');
    const char* value = std::getenv(name.c_str());
    if (value != nullptr && *value != '\0' && !set(setting, value, name, error)) return false;
  }
  return true;
}

int SweepSettings::take_flag(std::string_view arg, std::string& error) {
  for (const std::string_view setting : kSettings) {
    const std::string flag = prefix_ + std::string(setting);
    const char* value = flag_value(arg, flag);
    if (value == nullptr) continue;
    const std::string given = *value != '\0' ? value : setting == "rest" ? "1" : "";
    return set(setting, given, flag, error) ? 1 : -1;
  }
  return 0;
}

SweepRequest SweepSettings::settle(const std::string& source_root) {
  SweepRequest request;
  request.fail_at = fail_at_;
  request.fail_rest = fail_rest_;
  if (!each_) return request;
  SweepOptions options = options_;
  parse_fail_each(*each_, options);
  options.rest = fail_rest_;
  options.source_root = source_root;
  if (options.points == SweepOptions::Points::kSample && !seeded_) {
    options.seed = (std::uint64_t{std::random_device{}()} << 32) | std::random_device{}();
  }
  std::ostringstream said;
  said << "allocgate: each test swept under allocation failure: ";
  switch (options.points) {
    case SweepOptions::Points::kSites:
      said << "the first allocation of each distinct stack";
      break;
    case SweepOptions::Points::kAll:
      said << "every allocation";
      break;
    case SweepOptions::Points::kSample:
      said << "a sample of " << options.sample << " allocations a test, seed " << options.seed << " (" << prefix_
           << "seed=" << options.seed << " draws it again)";
      break;
  }
  said << (fail_rest_ ? ", it and every later one failing" : " failing, one at a time");
  request.announcement = said.str();
  request.sweep = std::move(options);
  return request;
}

std::optional<SweepResult> begin_swept_run(const SweepRequest& request, std::optional<FailureSweep>& sweep,
                                           const std::string& test) {
  if (request.fail_at) FailureSweep::arm_here(*request.fail_at, request.fail_rest);
  if (!request.sweep) return std::nullopt;
  if (!sweep) sweep.emplace(*request.sweep);
  if (sweep->in_child()) return std::nullopt;
  try {
    return sweep->sweep_test(test);
  } catch (const std::exception& e) {
    std::cerr << "allocgate: the failure sweep stopped: " << files::terminal_text(e.what()) << '\n';
    std::exit(1);
  }
}

std::string sweep_failure(const std::string& test, SweepResult& result, const char* toolchain,
                          const std::string& before, const std::string& after) {
  const std::string shown = files::terminal_text(test);
  if (result.nondeterministic) {
    std::cerr << "allocgate: " << shown
              << ": its allocations differ from run to run; its failure sweep is not trusted\n";
  }
  if (FailureSweep::mark_on_purpose(test, toolchain, result) == 0) return {};
  return "allocation failures:\n" + FailureSweep::findings_text(shown, result, before, after);
}

std::string shell_word(std::string_view text) {
  std::string word = "'";
  for (const char ch : text) {
    if (ch == '\'') {
      word += "'\\''";
    } else {
      word += ch;
    }
  }
  return word + "'";
}

std::string SweepSettings::flags_text() const {
  return prefix_ + "each[=sites|all|N], " + prefix_ + "rest, " + prefix_ + "seed=S, " + prefix_ +
         "timeout=SECONDS and " + prefix_ + "at=K";
}

}  // namespace allocgate::integrations
