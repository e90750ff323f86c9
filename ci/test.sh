#!/usr/bin/env bash
# Builds and runs every test under each preset: release (g++), clang, clang
# with libc++, then the sanitizers and the fuzzers.
# ALLOCGATE_TEST_PRESETS="release" narrows the list.
set -euo pipefail
cd "$(dirname "$0")/.."
ci/install-deps.sh test

read -r -a presets <<<"${ALLOCGATE_TEST_PRESETS:-release clang libcxx asan-ubsan tsan fuzz}"
for preset in "${presets[@]}"; do
  echo "== $preset" >&2
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset"
  ctest --preset "$preset"
done
