#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds and runs the tests.
#   ci/test.sh         every push (.ci/run; about 30 minutes on 2 cores): every
#                      test under release (g++), libcxx (clang with libc++) and
#                      asan-ubsan, the threaded tests under tsan, the fuzzers;
#                      of the consumer projects, the README's quickstart and the
#                      framework matrix's oldest, newest and system versions
#   ci/test.sh --long  every preset in full: adds the packaging tests (four consumer variants, a plain Release packaged)
#                      (tests/packaging), every GoogleTest and Google Benchmark
#                      release of the framework matrix (tests/frameworks), the clang preset (clang with
#                      libstdc++) and every test under tsan (tsan-all); the Catch2 and
#                      doctest suites' leak verdicts each in 100 runs of each address
#                      layout (5 by default)
# ALLOCGATE_TEST_PRESETS="release" narrows the list.
set -euo pipefail
cd "$(dirname "$0")/.."
ci/install-deps.sh test
echo "== format" >&2
CLANG_FORMAT=clang-format-14 ci/format.sh --check

long=false
[ "${1:-}" = --long ] && long=true
if $long; then
  default="release clang libcxx asan-ubsan tsan-all fuzz"
  export ALLOCGATE_VERDICT_RUNS=100  # tests/frameworks: each leak verdict in 100 runs of each address layout
else
  default="release libcxx asan-ubsan tsan fuzz"
fi
read -r -a presets <<<"${ALLOCGATE_TEST_PRESETS:-$default}"
for preset in "${presets[@]}"; do
  echo "== $preset (${SECONDS}s in)" >&2
  configure=$preset
  [ "$preset" = tsan-all ] && configure=tsan
  cmake --preset "$configure" >/dev/null
  cmake --build --preset "$preset"
  if $long; then
    ctest --preset "$preset"
  else
    # The consumer projects, minutes each: the packaging tests and all but
    # the oldest, newest and system frameworks of the matrix.
    ctest --preset "$preset" -LE "packaging|framework_matrix_long"
  fi
done
echo "== tests done in ${SECONDS}s" >&2
