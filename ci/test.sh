#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds and runs the tests.
#   ci/test.sh         every push (.ci/run; held to 30 minutes on 2 cores): each
#                      preset runs what it exists to catch. release (g++): every
#                      test; of the consumer projects, the README's quickstart
#                      and the framework matrix's oldest and newest
#                      versions (the system's, in the quickstart).
#                      asan-ubsan and libcxx (clang with libc++): the
#                      hook's, the integrations' and the workloads' tests;
#                      not the report model's (the same code as release's,
#                      its readers fuzzed under ASan and UBSan by the fuzz
#                      preset) nor the docs'. libcxx gates the workloads
#                      against libc++'s bounds with a command of its own;
#                      asan-ubsan's tests run the release build's command.
#                      tsan: the threaded tests. fuzz: the report and bounds
#                      readers under libFuzzer.
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
# Each stage's time, in the log, so that the next growth is seen.
stages=()
release_command=  # the release build's command, once this run has built and tested it
for preset in "${presets[@]}"; do
  echo "== $preset (${SECONDS}s in)" >&2
  configure=$preset
  [ "$preset" = tsan-all ] && configure=tsan
  began=$SECONDS
  # The allocgate command is the same code in every preset: the sanitizer
  # presets' tests run the release build's, built earlier in this run,
  # rather than build it again (libcxx builds its own: libc++'s workloads
  # have bounds of their own).
  prebuilt=
  if ! $long && [ "$preset" = asan-ubsan ]; then prebuilt=$release_command; fi
  if $long; then  # every test of every preset: the report model's under libcxx too
    cmake --preset "$configure" -DALLOCGATE_BUILD_REPORT_TESTS=ON -DALLOCGATE_PREBUILT_COMMAND= >/dev/null
  else
    cmake --preset "$configure" -DALLOCGATE_PREBUILT_COMMAND="$prebuilt" >/dev/null
  fi
  cmake --build --preset "$preset"
  built=$SECONDS
  if $long; then
    ctest --preset "$preset"
  else
    # The consumer projects, minutes each: the packaging tests and all but
    # the oldest and newest frameworks of the matrix (and Catch2's and
    # doctest's).
    # What the docs say is checked once, in the release run.
    skipped="packaging|framework_matrix_long"
    [ "$preset" = release ] || skipped+="|docs"
    ctest --preset "$preset" -LE "$skipped"
  fi
  stages+=("$preset: built in $((built - began))s, tested in $((SECONDS - built))s")
  if [ "$preset" = release ]; then release_command=$PWD/build/release/reports/allocgate; fi
done
printf '== %s\n' "${stages[@]}" >&2
echo "== tests done in ${SECONDS}s" >&2
