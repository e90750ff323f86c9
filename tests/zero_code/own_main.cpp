// SPDX-License-Identifier: Apache-2.0
// A suite's own main(), as Google Benchmark's user guide writes it.
#include <benchmark/benchmark.h>

BENCHMARK_MAIN();
