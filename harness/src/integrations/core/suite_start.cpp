// SPDX-License-Identifier: Apache-2.0
// The start of a counted Catch2 v2 or doctest suite (see suite_start.h).
#include "integrations/core/suite_start.h"

#include <cstdlib>
#include <exception>
#include <iostream>

#include "allocgate/scope.h"
#include "escape.h"
#include "integrations/core/counted_run.h"
#include "integrations/core/report_output.h"

namespace allocgate::integrations {

std::unique_ptr<FrameworkCode> start_suite(TestOptions& options, const std::vector<std::string>& args,
                                           std::string_view framework_namespace, std::string_view shown,
                                           bool (*is_boundary)(std::string_view mangled), std::string (*running)()) {
  std::string error;
  if (!read_test_options(options, args, "--allocgate-", error)) {
    std::cerr << files::terminal_text(error) << '\n';
    std::exit(2);
  }
  if (options.sweep.sweep) std::cerr << options.sweep.announcement << '\n';
  try {
    TestRun::prepare_suite();
  } catch (const HookNotLinked& e) {
    std::cerr << e.what() << '\n';
    std::exit(2);
  }
  std::unique_ptr<FrameworkCode> framework;
  try {
    framework =
        std::make_unique<FrameworkCode>(framework_namespace, is_boundary, nullptr, cache_directory(options.out));
    if (framework->without_debug_information()) {
      if (options.sweep.sweep || options.sweep.fail_at) {
        // Its inlined allocations would fail as the test's: findings that are not.
        std::cerr << "allocgate: the program has no debug information (built without -g): a failure sweep cannot "
                     "tell what "
                  << shown << "'s functions inlined into a test allocate, and would fail it as the test's\n";
        std::exit(2);
      }
      std::cerr << "allocgate: the program has no debug information (built without -g): what " << shown
                << "'s functions inlined into a test allocate is counted as the test's\n";
    }
  } catch (const std::exception& e) {
    std::cerr << "allocgate: " << files::terminal_text(e.what()) << '\n';
    std::exit(2);
  }
  if (!open_report(options.out, options.executable, running, error)) {
    std::cerr << error << '\n';
    std::exit(2);
  }
  return framework;
}

}  // namespace allocgate::integrations
