// SPDX-License-Identifier: Apache-2.0
// Running another program: heaptrack for `profile --heaptrack`, and the
// benchmark that compares its cost with allocgate's capture.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace allocgate::reports {

/// Whether an executable of this name is on PATH.
bool on_path(const std::string& program);

/// Runs args[0] from PATH and waits for it; returns its exit status (128 if
/// a signal ended it) and what it wrote to stdout. Its stderr goes to ours.
/// Throws InputError when it cannot be started.
std::pair<int, std::string> run_process(const std::vector<std::string>& args);

}  // namespace allocgate::reports
