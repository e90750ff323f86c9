#!/usr/bin/env bash
# The main job: build the release preset, run every workload case as a Google
# Benchmark with exact allocs/op, and print the table.
# Extra arguments go to the benchmark binary (e.g. --benchmark_filter=xml).
set -euo pipefail
cd "$(dirname "$0")/.."
ci/install-deps.sh

cmake --preset release >/dev/null
cmake --build --preset release --target allocgate_workloads_bench
build/release/workloads/allocgate_workloads_bench --benchmark_min_time=0.1 "$@"
