// SPDX-License-Identifier: Apache-2.0
// What a counted test suite is asked for, whatever framework runs it: the
// environment variables every integration reads, and the flags of the
// frameworks whose flags are spelled --kebab-case (Catch2, doctest). And the
// pieces of a run's record the integrations share. Framework-free:
// prebuilt in allocgate::integration_support.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "allocgate/stats.h"
#include "counting/block_tracker.h"
#include "integrations/core/counted_run.h"
#include "integrations/core/suite_report.h"
#include "integrations/core/sweep_settings.h"

namespace allocgate::integrations {

struct TestOptions {
  std::string out;            ///< ALLOCGATE_OUT, --allocgate-out: the report
  std::string source_root;    ///< ALLOCGATE_SOURCE_ROOT, --allocgate-source-root: sites' paths relative to it
  bool sites = false;         ///< ALLOCGATE_SITES, --allocgate-sites: each case's allocating lines in the report
  bool fail_on_leak = false;  ///< ALLOCGATE_FAIL_ON_LEAK, --allocgate-fail-on-leak: a leak fails its test
  std::string executable;     ///< args[0]
  /// ALLOCGATE_FAIL_EACH, --allocgate-fail-each and the sweep's other
  /// settings (sweep_settings.h).
  SweepRequest sweep;
};

/// A switch's value: "" (the flag alone), true/1 or false/0.
std::optional<bool> switch_value(std::string_view value);

/// Reads the environment, then `args` (args[0] the executable): flags
/// spelled `prefix` + "out=FILE", "source-root=DIR", "sites[=true|false]",
/// "fail-on-leak[=true|false]" and the failure sweep's "fail-each" and
/// others (sweep_settings.h). False,
/// with a one-line `error`, on a bad value or an unknown flag of that prefix.
bool read_test_options(TestOptions& options, const std::vector<std::string>& args, std::string_view prefix,
                       std::string& error);

/// The process's command line, as Linux keeps it: for a framework that
/// hands a listener none.
std::vector<std::string> process_arguments();

/// Where the report goes: `out`, or, when `out` is a directory, a report of
/// this process in it named after the program and the process id (ctest
/// runs each test of a discovered suite, or each shard, as a process of its
/// own, and `allocgate merge DIR/*.json` joins them).
std::string report_path(const std::string& out, const std::string& executable);

/// Where a process keeps what the next process of the same program may
/// take rather than find again (framework_code_cache.h): the directory its
/// report goes into (`out` a directory, as ctest's process per test has it),
/// or "" (none: a report of one file, or none, leaves nothing beside it).
std::string cache_directory(const std::string& out);

/// A run's figures from its counted stats and its end.
TestFigures figures_of(const AllocationStats& stats, const TestRun::End& end);

/// The failure a leak check reports: what leaked (the test's name escaped for
/// a terminal), and the lines holding it.
std::string leak_message(std::string_view test, const allocgate::detail::LiveTotals& leaked, const std::string& lines);

}  // namespace allocgate::integrations
