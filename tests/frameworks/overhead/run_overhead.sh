#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# What counting costs a suite: a generated suite of TESTS test cases
# (generate_suite.py), built with the framework's plain main and counted by
# allocgate (installed from BUILD_DIR), each run RUNS times. Prints the
# median wall time of each; with --callgrind, the instructions callgrind
# counts in one run of each; with --ctest, the median wall time of the whole
# suite run by ctest a process per test, as the framework's discovery makes
# it, plain and counted with a report per process in a directory (then
# merged, and every test's report checked to be there). A measurement, not a
# test of speed: no time is asserted, as a shared machine stretches times.
# Usage: run_overhead.sh BUILD_DIR SOURCE_DIR WORK_DIR catch2_v3|catch2_v2|doctest|gtest [TESTS] [RUNS] [--callgrind|--ctest]
set -euo pipefail
build=$1 source=$2 work=$3 framework=$4 tests=${5:-1000} runs=${6:-5} mode=${7:-}
compat=$(cd "$source/.." && pwd)/shared/compat
rm -rf "$work" && mkdir -p "$work"
from=()
case $framework in
  catch2_v3) tar -xzf "$compat/Catch2-3.7.1.tar.gz" -C "$work" && from=(-DCATCH2_SOURCE="$work/Catch2-3.7.1") ;;
  catch2_v2 | doctest | gtest) ;;  # Debian's
  *) echo "unknown framework $framework" >&2; exit 2 ;;
esac
cmake --install "$build" --prefix "$work/prefix" >/dev/null
python3 "$source/tests/frameworks/overhead/generate_suite.py" "$framework" "$tests" "$work/suite.cpp"
cmake -S "$source/tests/frameworks/overhead" -B "$work/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_PREFIX_PATH="$work/prefix" -DFRAMEWORK="$framework" -DSUITE="$work/suite.cpp" "${from[@]}" \
  >"$work/configure.log" 2>&1 || { cat "$work/configure.log"; exit 1; }
cmake --build "$work/build" -j2 >"$work/build.log" 2>&1 || { tail -30 "$work/build.log"; exit 1; }

median_ms() {  # median_ms PROGRAM: its median wall time over $runs runs, in ms
  local times=()
  for _ in $(seq "$runs"); do
    local start end
    start=$(date +%s%N)
    ALLOCGATE_OUT="$work/report.json" "$1" >/dev/null 2>&1
    end=$(date +%s%N)
    times+=($(((end - start) / 1000000)))
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n "$(((runs + 1) / 2))p"
}
plain=$(median_ms "$work/build/suite_plain")
counted=$(median_ms "$work/build/suite_counted")
cases=$(jq '.benchmarks | length' "$work/report.json")
echo "$framework: $tests test cases ($cases counted runs), median of $runs: plain ${plain} ms, counted ${counted} ms"
# Each program run whole, and with a filter no test passes: the difference is
# what the tests' runs cost, apart from what the process costs to start.
case $framework in
  doctest) none=(-tc=none) ;;
  catch2_v3) none=("[none]" --allow-running-no-tests) ;;
  catch2_v2) none=("[none]") ;;
  gtest) none=(--gtest_filter=none) ;;
esac
if [ "$mode" = --callgrind ]; then
  for program in suite_plain suite_counted; do
    for selection in all none; do
      args=()
      [ "$selection" = none ] && args=("${none[@]}")
      valgrind --tool=callgrind --callgrind-out-file="$work/$program.$selection.callgrind" \
        "$work/build/$program" "${args[@]}" >/dev/null 2>"$work/$program.$selection.valgrind.log" || true
      instructions=$(grep -m1 '^summary:' "$work/$program.$selection.callgrind" | cut -d' ' -f2)
      echo "$framework: $program, $selection of the tests: $instructions instructions (callgrind)"
    done
  done
fi
if [ "$mode" = --ctest ]; then
  # Each run alternates plain and counted, so that both meet the same
  # machine; the counted runs start from an empty directory each time (the
  # first process walks what a later one takes from it).
  plain_times=() counted_times=()
  for _ in $(seq "$runs"); do
    start=$(date +%s%N)
    ctest --test-dir "$work/build" -R '^plain\.' -j2 >"$work/ctest.plain.log" 2>&1 ||
      { tail -20 "$work/ctest.plain.log"; exit 1; }
    end=$(date +%s%N)
    plain_times+=($(((end - start) / 1000000)))
    rm -rf "$work/allocs" && mkdir "$work/allocs"
    start=$(date +%s%N)
    ALLOCGATE_OUT="$work/allocs/" ctest --test-dir "$work/build" -R '^counted\.' -j2 >"$work/ctest.counted.log" 2>&1 ||
      { tail -20 "$work/ctest.counted.log"; exit 1; }
    end=$(date +%s%N)
    counted_times+=($(((end - start) / 1000000)))
  done
  "$work/prefix/bin/allocgate" merge --out "$work/merged.json" "$work/allocs/"*.json >/dev/null
  reports=$(find "$work/allocs" -name '*.json' | wc -l)
  merged=$(jq '[.benchmarks[].run_name] | unique | length' "$work/merged.json")
  ctests=$(grep -c 'Test *#' "$work/ctest.counted.log")
  if [ "$reports" -ne "$ctests" ] || [ "$merged" -lt "$tests" ]; then
    echo "$framework: $ctests tests run by ctest, $reports reports, $merged cases merged: a report is missing" >&2
    exit 1
  fi
  median() { printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"; }
  p=$(median "${plain_times[@]}") c=$(median "${counted_times[@]}")
  echo "$framework: $ctests tests under ctest -j2, a process each, median of $runs: plain ${p} ms, counted ${c} ms" \
    "($(awk -v p="$p" -v c="$c" 'BEGIN { printf "%.2f", c / p }')x; $merged cases merged from $reports reports)"
fi
