#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# pkg-config consumers of the installed allocgate: a Meson project
# (dependency('allocgate-gtest'), dependency('allocgate-benchmark-main')) and a
# plain Makefile. Each builds against an install in a prefix, counts exactly,
# and gates its benchmark with the installed allocgate command.
# Usage: run_pkgconfig.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -euo pipefail
build=$1
source=$2
work=$3
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
PKG_CONFIG_PATH=$(dirname "$(find "$work/prefix" -name allocgate.pc)")
export PKG_CONFIG_PATH
export PATH=$work/prefix/bin:$PATH

# The benchmark's allocs/op, exactly, and the gate over it: recorded, then held.
gate() {
  local bench=$1 out=$2
  "$bench" --benchmark_min_time=0.01 --benchmark_out="$out/bench.json" >/dev/null
  jq -e '[.benchmarks[] | {(.name): .["allocs/op"]}] | add ==
         {"BM_StringCreation": 0, "BM_StringCopy": 0, "BM_LongStringCopy": 1}' "$out/bench.json" >/dev/null ||
    { echo "$bench: allocs/op not exact:" >&2; jq '.benchmarks[] | {name, "allocs/op"}' "$out/bench.json" >&2; exit 1; }
  allocgate diff --update --bounds "$out/bounds.json" "$out/bench.json" >/dev/null
  allocgate diff --strict --bounds "$out/bounds.json" "$out/bench.json"
}

echo "== meson" >&2
cp -r "$source" "$work/meson"
meson setup "$work/meson/build" "$work/meson" >/dev/null
meson compile -C "$work/meson/build" >/dev/null
meson test -C "$work/meson/build" --print-errorlogs >/dev/null
gate "$work/meson/build/string_bench" "$work/meson"

echo "== make" >&2
cp -r "$source" "$work/make"
make -C "$work/make" string_bench >/dev/null
gate "$work/make/string_bench" "$work/make"
echo PASS
