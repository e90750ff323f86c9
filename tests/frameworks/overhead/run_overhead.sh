#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# What counting costs a Catch2 or doctest suite: a generated suite of
# TESTS test cases (generate_suite.py), built with the framework's plain main
# and counted by allocgate (installed from BUILD_DIR), each run RUNS times.
# Prints the median wall time of each and, with --callgrind, the
# instructions callgrind counts in one run of each. A measurement, not a
# test: nothing is asserted, as a shared machine stretches times.
# Usage: run_overhead.sh BUILD_DIR SOURCE_DIR WORK_DIR catch2_v3|catch2_v2|doctest [TESTS] [RUNS] [--callgrind]
set -euo pipefail
build=$1 source=$2 work=$3 framework=$4 tests=${5:-1000} runs=${6:-5} callgrind=${7:-}
compat=$(cd "$source/.." && pwd)/shared/compat
rm -rf "$work" && mkdir -p "$work"
from=()
case $framework in
  catch2_v3) tar -xzf "$compat/Catch2-3.7.1.tar.gz" -C "$work" && from=(-DCATCH2_SOURCE="$work/Catch2-3.7.1") ;;
  catch2_v2 | doctest) ;;  # Debian's
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
esac
if [ "$callgrind" = --callgrind ]; then
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
