// SPDX-License-Identifier: Apache-2.0
// A test-only workload, registered only in the test builds of the allocgate
// command: it proves that a workload named in one CMake list appears in
// `list`, `run`, the report and the gate, and gives the gate a regression to
// catch. Its job: n object keys, one per line.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace allocgate::canary {

/// n keys, each too long for the small-string buffer.
std::vector<std::string> make_keys(std::size_t n);

/// A fresh string, one temporary per key.
void render_naive(const std::vector<std::string>& keys, std::string& out);

/// Into the reused buffer: no allocation once it has grown.
void render(const std::vector<std::string>& keys, std::string& out);

/// render() plus one needless copy of each key: the regression the gate must
/// catch, its line named in the gate's output.
void render_regressed(const std::vector<std::string>& keys, std::string& out);

}  // namespace allocgate::canary
