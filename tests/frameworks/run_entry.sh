#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# One entry of the framework matrix: installs allocgate from its build, builds
# gtest_benchmark/ against a GoogleTest and a Google Benchmark brought as a project
# brings them, and checks that every test and benchmark gets the figures the
# tree's own build gets for the same sources (the reference binaries, whose
# figures tests/zero_code derives from their code).
# Usage: run_entry.sh BUILD_DIR SOURCE_DIR WORK_DIR PRIMER_REF BENCH_REF GTEST BENCHMARK [shared] [first]
#   GTEST, BENCHMARK: a release version from ../shared/compat (1.11.0, 1.7.1...) or "system"
#   shared: both frameworks built as shared libraries; first: find_package(allocgate) before FetchContent
set -euo pipefail
build=$1 source=$2 work=$3 primer_ref=$4 bench_ref=$5 gtest=$6 benchmark=$7
shift 7
shared=OFF first=OFF
for option in "$@"; do
  case $option in
    shared) shared=ON ;;
    first) first=ON ;;
    *) echo "unknown option $option" >&2; exit 2 ;;
  esac
done
compat=$(cd "$source/.." && pwd)/shared/compat
rm -rf "$work"
mkdir -p "$work"

fail() { echo "FAIL: $*" >&2; exit 1; }

# A release source tree, unpacked from ../shared/compat (see its README).
unpack() {
  local archive=$compat/$1.tar.gz
  if [ ! -f "$archive" ]; then
    echo "$archive is missing: the framework matrix needs ../shared/compat beside the checkout" >&2
    exit 1
  fi
  tar -xzf "$archive" -C "$work"
  echo "$work/$1"
}

configure=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$work/prefix" -DSUITES_DIR="$source/tests/zero_code"
           -DALLOCGATE_FIRST=$first -DBUILD_SHARED_LIBS=$shared)
if [ "$gtest" != system ]; then
  configure+=(-DGTEST_SOURCE="$(unpack "googletest-$gtest")" -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON)
fi
if [ "$benchmark" != system ]; then
  configure+=(-DBENCHMARK_SOURCE="$(unpack "benchmark-$benchmark")" -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON)
fi

cmake --install "$build" --prefix "$work/prefix" >/dev/null
start=$SECONDS
cmake -S "$source/tests/frameworks/gtest_benchmark" -B "$work/build" "${configure[@]}" >"$work/configure.log" 2>&1 ||
  { cat "$work/configure.log"; fail "configure"; }
configured=$SECONDS
cmake --build "$work/build" -j2 >"$work/build.log" 2>&1 || { tail -50 "$work/build.log"; fail "build"; }
echo "configure $((configured - start)) s, build $((SECONDS - configured)) s"

# One framework per binary: allocgate's integration was compiled in this build,
# against the framework brought here, and no other GoogleTest is linked.
[ -f "$work/build/liballocgate_gtest.a" ] || fail "allocgate::gtest was not compiled in the consumer's build"
# ldd's list read whole first: grep -q stops at its first match, and ldd,
# still writing, would die of SIGPIPE and fail the pipe (pipefail).
libraries=$(ldd "$work/build/primer_tests")
if grep -q "/usr/lib.*libgtest" <<<"$libraries"; then
  fail "the system's GoogleTest is linked beside the project's"
fi
if [ "$shared" = ON ]; then
  grep -q "$work/build.*libgtest" <<<"$libraries" || fail "GoogleTest is not linked shared"
fi

# The figures of each case, in one line each, sorted by name.
figures() {
  jq -r '.benchmarks[] | select(.run_type == "iteration") |
    [.name, ."allocs/op", ."bytes/op", (.peak_bytes // "-"), (."leaked_bytes/op" // "-"),
     (.allocgate_leaked_blocks // "-"), (.allocgate_test_failed // false)] | @tsv' "$1" | sort
}
status=0
"$work/build/primer_tests" --allocgate_out="$work/tests.json" >"$work/tests.log" 2>&1 || status=$?
[ "$status" = 1 ] || { cat "$work/tests.log"; fail "primer_tests exited $status, not 1 (Failures.* fails on purpose)"; }
diff <(figures "$primer_ref") <(figures "$work/tests.json") || fail "the tests' figures differ from the tree's"
"$work/build/guide_bench" --benchmark_min_time=0.002 --benchmark_out="$work/bench.json" >"$work/bench.log" 2>&1 ||
  { cat "$work/bench.log"; fail "guide_bench"; }
diff <(figures "$bench_ref") <(figures "$work/bench.json") || fail "the benchmarks' figures differ from the tree's"
echo "PASS: GoogleTest $gtest, Google Benchmark $benchmark (shared=$shared, allocgate found first=$first):" \
  "$(figures "$work/tests.json" | wc -l) tests and $(figures "$work/bench.json" | wc -l) benchmarks as the tree's"
