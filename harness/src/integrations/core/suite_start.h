// SPDX-License-Identifier: Apache-2.0
// The start of a counted suite whose framework's runner is compiled into the
// program's own code (Catch2 v2, doctest), where each allocation's stack
// tells the framework's work from the test's. Framework-free: prebuilt in
// allocgate::integration_support.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "integrations/core/framework_code.h"
#include "integrations/core/run_options.h"

namespace allocgate::integrations {

/// Reads allocgate's options from the environment and `args` into
/// `options`, checks that the hook is linked, finds the framework's code
/// (`framework_namespace`, its calls of a test's body told by `is_boundary`;
/// `shown` names the framework in a message), and opens the report's path
/// (`running` names the test a report cut short was in). Anything refused
/// ends the process with status 2 and one line on standard error, before the
/// first test. A failure sweep asked for (sweep_settings.h) is said here.
std::unique_ptr<FrameworkCode> start_suite(TestOptions& options, const std::vector<std::string>& args,
                                           std::string_view framework_namespace, std::string_view shown,
                                           bool (*is_boundary)(std::string_view mangled), std::string (*running)());

}  // namespace allocgate::integrations
