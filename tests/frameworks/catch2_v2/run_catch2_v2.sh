#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds tutorial_test.cpp against Catch2 v2 as a project brings it (Debian's
# catch2, or 2.13.10 from ../shared/compat with FetchContent) and allocgate
# installed from BUILD_DIR, runs it, and checks each run's figures against
# what its code makes; the leak check's failure and its line; a runner built
# with benchmarking refused; the classic bugs swept (ALLOCGATE_FAIL_EACH);
# and that bounds recorded from its report pass
# again and fail on an added allocation, naming it. Built with -O2 -g
# (RelWithDebInfo): optimized, as Catch2's own functions are inlined into
# the tests there, and with the lines a leak is named by.
# Usage: run_catch2_v2.sh BUILD_DIR SOURCE_DIR WORK_DIR [system|2.13.10]
set -euo pipefail
build=$1 source=$2 work=$3 which=${4:-system}
suite=$source/tests/frameworks/catch2_v2/tutorial_test.cpp
# shellcheck source=../suite_checks.sh
. "$source/tests/frameworks/suite_checks.sh"
compat=$(cd "$source/.." && pwd)/shared/compat
rm -rf "$work" && mkdir -p "$work"
from=()
if [ "$which" != system ]; then
  tar -xzf "$compat/Catch2-$which.tar.gz" -C "$work"
  from=(-DCATCH2_SOURCE="$work/Catch2-$which")
fi
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$source/tests/frameworks/catch2_v2" -B "$work/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_PREFIX_PATH="$work/prefix" "${from[@]}" >"$work/configure.log" 2>&1 || { cat "$work/configure.log"; fail configure; }
cmake --build "$work/build" -j2 >"$work/build.log" 2>&1 || { tail -40 "$work/build.log"; fail build; }

status=0
ALLOCGATE_OUT="$work/tests.json" "$work/build/tutorial_tests" >"$work/tests.log" 2>&1 || status=$?
[ "$status" = 2 ] || { cat "$work/tests.log"; fail "tutorial_tests exited $status, not 2 (Catch2 v2's count of failed tests: a failing check and an exception on purpose)"; }
got=$(figures_of "$work/tests.json")
string=$(string_size)
# Catch2 v2's SECTION passes its name as a std::string, built in the test's
# own code: each SECTION a run reaches, entered or not, costs the run that
# string when the name is longer than the short-string buffer (15
# characters in libstdc++), a temporary of length + 1 bytes.
a="resizing bigger changes size and capacity"
b="reserving bigger changes capacity but not size"
c="reserving down unused capacity does not change capacity"
expected=$(printf '%s\n' \
  "Factorials are computed	0	0	0	false" \
  "vectors can be sized and resized/$a	4	$((60 + ${#a} + 1 + ${#b} + 1))	0	false" \
  "vectors can be sized and resized/$b/$c	5	$((60 + ${#a} + 1 + ${#b} + 1 + ${#c} + 1))	0	false" \
  "a string per generated length	1	21	0	false" \
  "a string per generated length #2	1	41	0	false" \
  "a string per generated length #3	1	61	0	false" \
  "a failing check is reported with its figures	1	31	0	true" \
  "a fixture is the test's	2	122	0	false" \
  "a static built on first use	0	0	0	false" \
  "a deliberate leak	2	$((51 + string))	$((51 + string))	false" \
  "a thread's allocations are the test's	2	57	0	false" \
  "a small leak	1	4	4	false" \
  "a worker holds what it was handed	2	57	0	false" \
  "an exception ends the test	2	146	0	true")
diff <(echo "$expected") <(echo "$got") || fail "the runs' figures differ from what their code makes"
check_static "$work/tests.json"

# Shards: the test cases split by their tags, each part a process of its own.
check_shards "$got" "[factorial],[vector]" "~[factorial]~[vector]~[exits]"
check_framework_code_cache "$got" Catch

# A suite built with benchmarking beside an allocgate::catch2 built without.
status=0
"$work/build/benchmarking_tests" >"$work/benchmarking.log" 2>&1 || status=$?
[ "$status" = 2 ] && grep -q "CATCH_CONFIG_ENABLE_BENCHMARKING" "$work/benchmarking.log" ||
  { cat "$work/benchmarking.log"; fail "a runner built with benchmarking is not refused (exit $status)"; }

# The leak check, from the environment: Catch2 v2 refuses a flag it does not know.
status=0
ALLOCGATE_FAIL_ON_LEAK=1 "$work/build/tutorial_tests" >"$work/leak.log" 2>&1 || status=$?
check_leak_failure "$work/leak.log" "$status" 4 $((51 + string)) "test cases: 11 \|  7 passed \| 4 failed"
# Aborting after the first failure (-a, -x 1): the leak is that failure,
# and the run stops there, with its report, instead of terminating.
for abort in -a "-x 1"; do
  status=0
  # shellcheck disable=SC2086  # -x and its count, split
  ALLOCGATE_FAIL_ON_LEAK=1 ALLOCGATE_OUT="$work/abort.json" "$work/build/tutorial_tests" $abort \
    "a deliberate leak,a small leak" >"$work/abort.log" 2>&1 || status=$?
  [ "$status" = 1 ] && grep -q "a deliberate leak leaked" "$work/abort.log" && ! grep -q "a small leak leaked" "$work/abort.log" &&
    ! grep -q terminate "$work/abort.log" && [ "$(jq '.benchmarks | length' "$work/abort.json")" = 1 ] ||
    { cat "$work/abort.log"; fail "the leak check with $abort: exit $status"; }
done
check_verdicts_hold env ALLOCGATE_FAIL_ON_LEAK=1 "$work/build/tutorial_tests"
check_report_outputs "$work/build/tutorial_tests" 2 "[exits]"
check_cxx11_suite
bad=0
ALLOCGATE_FAIL_ON_LEAK=maybe "$work/build/tutorial_tests" >"$work/bad.log" 2>&1 || bad=$?
[ "$bad" = 2 ] && grep -q "takes 1 or 0" "$work/bad.log" || { cat "$work/bad.log"; fail "a bad value: exit $bad"; }
# The failure sweep, from the environment: the classic bugs each found at
# their line (tests/failure_sweep/classic_bugs.h), a finding run alone by
# the command printed, the retry loop hung once memory runs out. (The
# compact reporter: the console's wraps a message at 80 columns.)
classic_bugs_header=$source/tests/failure_sweep/classic_bugs.h
# shellcheck source=../../failure_sweep/sweep_checks.sh
. "$source/tests/failure_sweep/sweep_checks.sh"
check_framework_sweep environment "$work/build/classic_bugs_tests" nonzero "$work" "RetryLoop.*,Clean.*" -r compact

ALLOCGATE_OUT="$work/grown.json" ALLOCGATE_SITES=1 "$work/build/tutorial_tests_grown" >/dev/null 2>&1 || true
check_gate "$work/tests.json" "$work/grown.json" "Factorials are computed"
echo "PASS: Catch2 v2 $which: $(echo "$got" | wc -l) runs with the figures their code makes; shards merged; the leak fails its test at its line; the gate names an added allocation's line; the report written where its path leads; a C++11 suite stays C++11; the classic bugs swept, each at its line"
