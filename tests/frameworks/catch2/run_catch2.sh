#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds tutorial_test.cpp against Catch2 3.7.1 (../shared/compat) brought in
# with FetchContent and allocgate installed from BUILD_DIR, runs it, and
# checks each run's figures against what its code makes; beside a main() of
# its own; shards merged; the leak check's failure and its line; and that
# bounds recorded from its report pass again and fail on an added
# allocation, naming it; the failure sweep over the classic bugs.
# Usage: run_catch2.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -euo pipefail
build=$1 source=$2 work=$3
suite=$source/tests/frameworks/catch2/tutorial_test.cpp
# shellcheck source=../suite_checks.sh
. "$source/tests/frameworks/suite_checks.sh"
compat=$(cd "$source/.." && pwd)/shared/compat
rm -rf "$work" && mkdir -p "$work"
tar -xzf "$compat/Catch2-3.7.1.tar.gz" -C "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$source/tests/frameworks/catch2" -B "$work/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_PREFIX_PATH="$work/prefix" -DCATCH2_SOURCE="$work/Catch2-3.7.1" >"$work/configure.log" 2>&1 ||
  { cat "$work/configure.log"; fail configure; }
cmake --build "$work/build" -j2 >"$work/build.log" 2>&1 || { tail -40 "$work/build.log"; fail build; }
status=0
ALLOCGATE_OUT="$work/tests.json" "$work/build/tutorial_tests" >"$work/tests.log" 2>&1 || status=$?
[ "$status" = 42 ] || { cat "$work/tests.log"; fail "tutorial_tests exited $status, not 42 (Catch2's for a failed test: a failing check on purpose)"; }
got=$(figures_of "$work/tests.json")
string=$(string_size)
# BENCHMARK takes its name as a std::string built in the test's own code:
# one allocation of the name's length + 1 when it is longer than 15.
benchmark="copying a string"
expected=$(printf '%s\n' \
  "Factorials are computed	0	0	0	false" \
  "vectors can be sized and resized/resizing bigger changes size and capacity	2	60	0	false" \
  "vectors can be sized and resized/reserving bigger changes capacity but not size/reserving down unused capacity does not change capacity	2	60	0	false" \
  "a string per generated length	1	21	0	false" \
  "a string per generated length #2	1	41	0	false" \
  "a string per generated length #3	1	61	0	false" \
  "a failing check is reported with its figures	1	31	0	true" \
  "a benchmark's calls are not the run's	2	$((41 + ${#benchmark} + 1))	0	false" \
  "a fixture is the test's	2	122	0	false" \
  "a static built on first use	0	0	0	false" \
  "a thread's allocations are the test's	2	57	0	false" \
  "a deliberate leak	2	$((51 + string))	$((51 + string))	false" \
  "a small leak	1	4	4	false" \
  "a worker holds what it was handed	2	57	0	false" \
  "an exception ends the test	2	146	0	true")
diff <(echo "$expected") <(echo "$got") || fail "the runs' figures differ from what their code makes"
check_static "$work/tests.json"

# Beside a main() of the project's own: the same figures.
status=0
"$work/build/own_main_tests" --allocgate-out="$work/own_main.json" >"$work/own_main.log" 2>&1 || status=$?
[ "$status" = 42 ] || { cat "$work/own_main.log"; fail "own_main_tests exited $status, not 42"; }
diff <(echo "$got") <(figures_of "$work/own_main.json") || fail "with a main() of its own, the runs' figures differ"

# Shards: Catch2's --shard-count/--shard-index.
check_shards "$got" "--shard-count=2 --shard-index=0" "--shard-count=2 --shard-index=1"
check_framework_code_cache "$got" Catch
# Each shard's report says which it is: one alone is refused, not merged.
status=0
"$build/reports/allocgate" merge --out "$work/half.json" "$(find "$work/shards" -name 'tutorial_tests.*.json' | head -1)" \
  >"$work/half.log" 2>&1 || status=$?
[ "$status" != 0 ] && grep -q "shard [12]/2 is missing" "$work/half.log" ||
  { cat "$work/half.log"; fail "one shard of two merged as the whole run (exit $status)"; }

# The leak check, with Catch2's spelling of allocgate's flag (taken out
# before Catch2 reads its own).
status=0
"$work/build/tutorial_tests" --allocgate-fail-on-leak >"$work/leak.log" 2>&1 || status=$?
check_leak_failure "$work/leak.log" "$status" 42 $((51 + string)) "test cases: +13 \| +8 passed \| +4 failed \| +1 skipped"
# (Not its benchmark, whose figures the first run checked: Catch2's timing
# of it is 2.7 of each run's 2.8 seconds.)
check_verdicts_hold "$work/build/tutorial_tests" --allocgate-fail-on-leak --skip-benchmarks
check_report_outputs "$work/build/tutorial_tests" 42 "[exits]"
bad=0
"$work/build/tutorial_tests" --allocgate-fail-on-leak=maybe >"$work/bad.log" 2>&1 || bad=$?
[ "$bad" = 2 ] && grep -q "takes true or false" "$work/bad.log" || { cat "$work/bad.log"; fail "a bad flag value: exit $bad"; }

# The failure sweep, Catch2's spelling: the classic bugs each found at
# their line (tests/failure_sweep/classic_bugs.h), a finding run alone by
# the command printed, the retry loop hung once memory runs out.
classic_bugs_header=$source/tests/failure_sweep/classic_bugs.h
# shellcheck source=../../failure_sweep/sweep_checks.sh
. "$source/tests/failure_sweep/sweep_checks.sh"
# (The compact reporter: the console's wraps a message at 80 columns.)
check_framework_sweep flags "$work/build/classic_bugs_tests" 42 "$work" "RetryLoop.*,Clean.*" -r compact

"$work/build/tutorial_tests_grown" --allocgate-out="$work/grown.json" --allocgate-sites >/dev/null 2>&1 || true
check_gate "$work/tests.json" "$work/grown.json" "Factorials are computed"
echo "PASS: $(echo "$got" | wc -l) runs of a Catch2 3.7.1 suite, each with the figures its code makes; beside its own main; shards merged; the leak fails its test at its line; the classic bugs swept, each at its line; the gate names an added allocation's line"
