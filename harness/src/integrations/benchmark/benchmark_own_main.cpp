// SPDX-License-Identifier: Apache-2.0
// What a program with a main() of its own gets (BENCHMARK_MAIN(), or a main
// that takes arguments of its own and calls Initialize and
// RunSpecifiedBenchmarks): the toolchain and commit in the JSON context,
// --allocgate_sites and ALLOCGATE_SITES, the exact console, and the names of
// benchmarks left uncounted. allocgate::benchmark_main's main() does all of
// this itself (run_benchmarks_main).

#include <benchmark/benchmark.h>

#include <atomic>
#include <cstdlib>
#include <iostream>

#include "allocgate/report_keys.h"
#include "allocgate/scope.h"
#include "allocgate/toolchain.h"
#include "integrations/benchmark/benchmark_loop.h"
#include "integrations/benchmark/benchmark_sites.h"
#include "integrations/core/git_context.h"
#include "integrations/core/wrapped.h"

using ::benchmark::BenchmarkReporter;
ALLOCGATE_WRAPPED(void, initialize, (int* argc, char** argv, void (*help)()), "_ZN9benchmark10InitializeEPiPPcPFvvE")
ALLOCGATE_WRAPPED(std::size_t, run, (), "_ZN9benchmark22RunSpecifiedBenchmarksEv")
ALLOCGATE_WRAPPED(std::size_t, run_display, (BenchmarkReporter * display),
                  "_ZN9benchmark22RunSpecifiedBenchmarksEPNS_17BenchmarkReporterE")
ALLOCGATE_WRAPPED(std::size_t, run_display_file, (BenchmarkReporter * display, BenchmarkReporter* file),
                  "_ZN9benchmark22RunSpecifiedBenchmarksEPNS_17BenchmarkReporterES1_")
// The overloads taking a spec string are not wrapped: their names hold the
// standard library's name for std::string, which differs between libstdc++
// and libc++. A main that calls them is counted; its sites are not
// attributed, and the exit check below says so.

namespace {

std::atomic<bool> allocgate_main{false};

[[noreturn]] void refuse(const char* message) {
  std::cerr << "allocgate: " << message << '\n';
  std::exit(2);
}

// At exit: captures no run claimed came from a run allocgate did not see.
void check_sites_attributed() {
  if (allocgate::benchmark::detail::unattributed_captures()) {
    std::cerr << "allocgate: --allocgate_sites: some benchmarks' sites were not written: this main runs them through "
                 "benchmark::RunSpecifiedBenchmarks(spec), which allocgate does not wrap; pass the spec as "
                 "--benchmark_filter and call RunSpecifiedBenchmarks() or RunSpecifiedBenchmarks(reporter)\n";
  }
}

std::atomic<bool> set_up_done{false};

// What a counted run needs before it starts, done once: allocgate's flags
// (from argv, when Initialize passes them) and environment, the hook, the
// JSON context. Done by the wrapped Initialize, or by the first run when a
// main never calls it.
void set_up(int* argc, char** argv) {
  if (set_up_done.exchange(true, std::memory_order_relaxed)) return;
  int no_arguments = 1;
  if (!allocgate::benchmark::detail::take_sites_flags(argc != nullptr ? *argc : no_arguments, argv, std::cerr)) {
    std::exit(1);  // as a flag Google Benchmark refuses
  }
  try {
    allocgate::require_hook();
  } catch (const allocgate::HookNotLinked& e) {
    refuse(e.what());
  }
  ::benchmark::AddCustomContext(allocgate::keys::kToolchain, allocgate::kToolchain);
  ::benchmark::AddCustomContext(allocgate::keys::kHookLive, "true");
  allocgate::benchmark::detail::add_git_context();  // history add files the run under its commit
  if (allocgate::benchmark::detail::sites_options().enabled) std::atexit(check_sites_attributed);
}

}  // namespace

namespace allocgate::benchmark::detail {

void set_allocgate_main() noexcept { allocgate_main.store(true, std::memory_order_relaxed); }

}  // namespace allocgate::benchmark::detail

namespace allocgate::benchmark::detail::wrapped {

void initialize(int* argc, char** argv, void (*help)()) {
  if (!allocgate_main.load(std::memory_order_relaxed)) set_up(argc, argv);
  real::initialize(argc, argv, help);
}

std::size_t run() { return run_display_file(nullptr, nullptr); }

std::size_t run_display(BenchmarkReporter* display) { return run_display_file(display, nullptr); }

std::size_t run_display_file(BenchmarkReporter* display, BenchmarkReporter* file) {
  if (allocgate_main.load(std::memory_order_relaxed)) return real::run_display_file(display, file);
  if (!set_up_done.load(std::memory_order_relaxed)) {
    // The run is counted all the same; what Initialize reads is said.
    std::cerr << "allocgate: this main calls benchmark::RunSpecifiedBenchmarks without benchmark::Initialize: "
                 "neither Google Benchmark's flags nor allocgate's (--allocgate_sites) are read, only the "
                 "environment (ALLOCGATE_SITES, BENCHMARK_OUT); call benchmark::Initialize(&argc, argv) first\n";
    set_up(nullptr, nullptr);
  }
  return run_counted(display, file).benchmarks;
}

}  // namespace allocgate::benchmark::detail::wrapped

namespace allocgate::benchmark::detail {

std::size_t run_real(BenchmarkReporter* display, BenchmarkReporter* file) {
  return real::run_display_file(display, file);
}

}  // namespace allocgate::benchmark::detail
