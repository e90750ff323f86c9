#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds tutorial_test.cpp against doctest as a project brings it (Debian's
# package, or a release from ../shared/compat with FetchContent) and
# allocgate installed from BUILD_DIR, runs it, and checks each run's figures
# against what its code makes; shards merged; the leak check's failure and
# its line; and that bounds recorded from its report pass again and fail on
# an added allocation, naming it. Built with -O2 -g (RelWithDebInfo):
# optimized, as doctest's functions are inlined into the tests there, and
# with the lines a leak is named by.
# Usage: run_doctest.sh BUILD_DIR SOURCE_DIR WORK_DIR [system|2.5.2]
set -euo pipefail
build=$1 source=$2 work=$3 which=${4:-system}
suite=$source/tests/frameworks/doctest/tutorial_test.cpp
# shellcheck source=../suite_checks.sh
. "$source/tests/frameworks/suite_checks.sh"
compat=$(cd "$source/.." && pwd)/shared/compat
rm -rf "$work" && mkdir -p "$work"
from=()
if [ "$which" != system ]; then
  tar -xzf "$compat/doctest-$which.tar.gz" -C "$work"
  from=(-DDOCTEST_SOURCE="$work/doctest-$which")
fi
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$source/tests/frameworks/doctest" -B "$work/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_PREFIX_PATH="$work/prefix" "${from[@]}" >"$work/configure.log" 2>&1 || { cat "$work/configure.log"; fail configure; }
cmake --build "$work/build" -j2 >"$work/build.log" 2>&1 || { tail -40 "$work/build.log"; fail build; }

status=0
ALLOCGATE_OUT="$work/tests.json" "$work/build/tutorial_tests" >"$work/tests.log" 2>&1 || status=$?
[ "$status" = 1 ] || { cat "$work/tests.log"; fail "tutorial_tests exited $status, not 1 (doctest's for a failed test: a failing check and an exception on purpose)"; }
got=$(figures_of "$work/tests.json")
string=$(string_size)
expected=$(printf '%s\n' \
  "testing the factorial function	0	0	0	false" \
  "vectors can be sized and resized/adding to the vector increases its size	2	60	0	false" \
  "vectors can be sized and resized/reserving increases just the capacity	2	44	0	false" \
  "messages are doctest's	1	41	0	false" \
  "a failing check is reported with its figures	1	31	0	true" \
  "a fixture is the test's	2	122	0	false" \
  "a static built on first use	0	0	0	false" \
  "a deliberate leak	2	$((51 + string))	$((51 + string))	false" \
  "a thread's allocations are the test's	2	57	0	false" \
  "a small leak	1	4	4	false" \
  "a worker holds what it was handed	2	57	0	false" \
  "an exception ends the test	2	146	0	true" \
  "a test case per type<int #1>	1	12	0	false" \
  "a test case per type<int #2>	1	12	0	false" \
  "a test case per type<double>	1	24	0	false")
diff <(echo "$expected") <(echo "$got") || fail "the runs' figures differ from what their code makes"
check_static "$work/tests.json"

# Shards: doctest's --first/--last.
check_shards "$got" "--first=1 --last=4" "--first=5 --last=100"
check_framework_code_cache "$got" doctest

# The leak check, with doctest's spelling of the flag.
status=0
"$work/build/tutorial_tests" --allocgate-fail-on-leak >"$work/leak.log" 2>&1 || status=$?
check_leak_failure "$work/leak.log" "$status" 1 $((51 + string)) "test cases: 14 \| 10 passed \| 4 failed"
check_verdicts_hold "$work/build/tutorial_tests" --allocgate-fail-on-leak
check_report_outputs "$work/build/tutorial_tests" 1 --no-skip "--test-case=ends the process"
check_cxx11_suite
bad=0
"$work/build/tutorial_tests" --allocgate-fail-on-leak=maybe >"$work/bad.log" 2>&1 || bad=$?
[ "$bad" = 2 ] && grep -q "takes true or false" "$work/bad.log" || { cat "$work/bad.log"; fail "a bad flag value: exit $bad"; }

# The failure sweep, doctest's spelling: the classic bugs each found at
# their line (tests/failure_sweep/classic_bugs.h), a finding run alone by
# the command printed, the retry loop hung once memory runs out.
classic_bugs_header=$source/tests/failure_sweep/classic_bugs.h
# shellcheck source=../../failure_sweep/sweep_checks.sh
. "$source/tests/failure_sweep/sweep_checks.sh"
check_framework_sweep flags "$work/build/classic_bugs_tests" 1 "$work" "--test-case=RetryLoop.*,Clean.*"

"$work/build/tutorial_tests_grown" --allocgate-out="$work/grown.json" --allocgate-sites >/dev/null 2>&1 || true
check_gate "$work/tests.json" "$work/grown.json" "testing the factorial function"
echo "PASS: doctest $which: $(echo "$got" | wc -l) runs with the figures their code makes; shards merged; the leak fails its test at its line; the gate names an added allocation's line; the report written where its path leads; a C++11 suite stays C++11; the classic bugs swept, each at its line"
