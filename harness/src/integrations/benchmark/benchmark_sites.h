// SPDX-License-Identifier: Apache-2.0
// --allocgate_sites for benchmark binaries: each CountAllocations captures the
// stacks of its thread's allocations; the reporter attributes the captures to
// the benchmark just reported; at the end the sites per iteration go into the
// JSON file (or, without one, to the console).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>

#include "allocgate/sites.h"

namespace allocgate::benchmark::detail {

struct SitesOptions {
  bool enabled = false;
  std::string source_root;  ///< paths are made relative to it; empty: to each frame's source tree
  std::string json_file;    ///< --benchmark_out when its format is json
};

SitesOptions& sites_options();

/// Takes --allocgate_sites[=true|false] and --allocgate_source_root=DIR out of
/// argv (Google Benchmark refuses flags it does not know) and notes the JSON
/// output file (--benchmark_out, or Google Benchmark's BENCHMARK_OUT). The
/// environment's ALLOCGATE_SITES=1 and ALLOCGATE_SOURCE_ROOT=DIR say the same
/// for a main that takes no flags; a flag overrides them. Returns false, with
/// a message on err, for a malformed flag or value. argv may be null, with
/// argc 1: the environment alone (a main that never calls Initialize).
bool take_sites_flags(int& argc, char** argv, std::ostream& err);

/// A finished capture: one thread's run of one benchmark, `iterations` long.
void add_capture(const CaptureSites& capture, std::int64_t iterations);

/// The captures since the last call belong to the benchmark named run_name
/// (all its trial runs, repetitions and threads: the figures per iteration
/// are the same in each for deterministic code, and are averaged).
void attribute_captures(const std::string& run_name);

/// Some captures were never attributed to a benchmark: they came from runs no
/// wrapped reporter saw.
bool unattributed_captures();

/// Adds each benchmark's sites and stacks per iteration to the JSON file's
/// iteration entries (written to a temporary file, then renamed), or prints
/// the top sites on `console` when there is no JSON file.
void write_sites(std::ostream& console);

}  // namespace allocgate::benchmark::detail
