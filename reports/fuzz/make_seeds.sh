#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Writes the report fuzzer's seeds for the inputs that once broke the readers,
# into $1: documents nested 100,000 deep, a stack of 100,000 frames, duplicate
# keys, a NUL byte, numbers no integer holds, wrong types and injected names.
# Generated, not committed: the deep ones are hundreds of kilobytes.
set -euo pipefail
out=$1
mkdir -p "$out"
repeat() { printf "%${2}s" "" | tr ' ' "$1"; }
report() {  # a one-case allocgate report with extra case fields $1 and context fields $2
  printf '{"context": {"allocgate_schema_version": 1, "allocgate_toolchain": "tc"%s}, "benchmarks": [{"name": "w/v/1", "workload": "w", "variant": "v", "allocs_per_op": 2%s}]}' "${2:-}" "$1"
}
printf '{"allocgate_bounds_version": %s%s, "toolchains": {}}' "$(repeat '[' 100000)" "$(repeat ']' 100000)" >"$out/deep-bounds.json"
printf '{"context": {"allocgate_schema_version": %s%s}, "benchmarks": []}' "$(repeat '[' 150000)" "$(repeat ']' 150000)" >"$out/deep-version.json"
report "" ", \"extra\": $(repeat '{' 1)\"a\": $(repeat '[' 200000)$(repeat ']' 200000)}" >"$out/deep-extra.json"
report ", \"stacks\": [{\"frames\": [$(printf '"f",%.0s' $(seq 1 99999))\"f\"], \"allocs_per_op\": 2}]" >"$out/tall-stack.json"
printf '{"allocgate_bounds_version": 1, "toolchains": {"tc": {"w/v/1": {"allocs_per_op": 0}, "w/v/1": {"allocs_per_op": 1000000}}}}' >"$out/duplicate-bound.json"
report ', "allocs_per_op": 0' >"$out/duplicate-field.json"
{ report ""; printf '\0garbage'; } >"$out/nul.json"
report ', "size": 1e300' >"$out/huge-size.json"
report ', "iterations": 1e300' >"$out/huge-iterations.json"
report ', "sites": [{"function": "f", "file": "f.cpp", "line": 1e300, "allocs_per_op": 1}]' >"$out/huge-line.json"
printf '{"context": {"date": "x"}, "benchmarks": [%s{"name": "BM", "run_name": "BM", "run_type": "iteration", "iterations": 9007199254740992, "allocs/op": 1}]}' \
  "$(printf '{"name": "BM", "run_name": "BM", "run_type": "iteration", "iterations": 9007199254740992, "allocs/op": 1},%.0s' $(seq 1 1100))" >"$out/summed-iterations.json"
printf '{"context": {"allocgate_schema_version": 4294967297}, "benchmarks": [{"name": "x", "allocs_per_op": 1}]}' >"$out/wrapped-version.json"
report "" ', "allocgate_workloads": {"w": {"summary": 3}}' >"$out/wrong-type-workloads.json"
report "" ', "allocgate_workloads": [1]' >"$out/wrong-type-workloads-array.json"
printf '{"context": {"allocgate_schema_version": 1, "allocgate_toolchain": "tc"}, "benchmarks": [{"name": "w/v/1\\n::add-mask::x\\u001b[2J<script>|`", "allocs_per_op": 5, "sites": [{"function": "f\\n::warning::x", "file": "a.cpp,line=1::x", "line": 3, "allocs_per_op": 5}]}]}' >"$out/injected-names.json"
