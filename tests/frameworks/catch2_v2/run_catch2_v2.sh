#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds tutorial_test.cpp against Catch2 v2 as a project brings it (Debian's
# catch2, or 2.13.10 from ../shared/compat with FetchContent) and
# allocgate installed from BUILD_DIR, runs it, and checks each run's figures
# against what its code makes; the leak check's failure, its line, and that
# bounds recorded from its report pass again and fail on an added allocation.
# Built with -O2 -g (RelWithDebInfo): optimized, as Catch2's own functions are
# inlined into the tests there, and with the lines a leak is named by.
# Usage: run_catch2_v2.sh BUILD_DIR SOURCE_DIR WORK_DIR [system|2.13.10]
set -euo pipefail
build=$1 source=$2 work=$3 which=${4:-system}
compat=$(cd "$source/.." && pwd)/shared/compat
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
from=()
if [ "$which" != system ]; then
  tar -xzf "$compat/Catch2-$which.tar.gz" -C "$work"
  from=(-DCATCH2_SOURCE="$work/Catch2-$which")
fi
cmake --install "$build" --prefix "$work/prefix" >/dev/null
configure() {  # configure SOURCE BUILD
  cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_PREFIX_PATH="$work/prefix" "${from[@]}" \
    >"$2.configure.log" 2>&1 || { cat "$2.configure.log"; fail configure; }
  cmake --build "$2" -j2 >"$2.build.log" 2>&1 || { tail -40 "$2.build.log"; fail build; }
}
configure "$source/tests/frameworks/catch2_v2" "$work/build"
status=0
ALLOCGATE_OUT="$work/tests.json" "$work/build/tutorial_tests" >"$work/tests.log" 2>&1 || status=$?
[ "$status" = 1 ] || { cat "$work/tests.log"; fail "tutorial_tests exited $status, not 1 (Catch2 v2's count of failed tests: a failing check on purpose)"; }
got=$(jq -r '.benchmarks[] | [.name, ."allocs/op", ."bytes/op", ."leaked_bytes/op", (.allocgate_test_failed // false)] | @tsv' "$work/tests.json")
string=$(printf '#include <string>\nint main() { return sizeof(std::string); }' | g++ -x c++ - -o "$work/size" && "$work/size"; echo $?)
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
  "a thread's allocations are the test's	2	57	0	false")
diff <(echo "$expected") <(echo "$got") || fail "the runs' figures differ from what their code makes"
one_time=$(jq -r '.benchmarks[] | select(.name == "a static built on first use") | [.allocgate_one_time_allocs, .allocgate_one_time_bytes] | @tsv' "$work/tests.json")
[ "$one_time" = "$(printf '1\t101')" ] || fail "the static's first use: '$one_time', not 1 allocation of 101 B"

# A suite built with benchmarking beside an allocgate::catch2 built without.
status=0
"$work/build/benchmarking_tests" >"$work/benchmarking.log" 2>&1 || status=$?
[ "$status" = 2 ] && grep -q "CATCH_CONFIG_ENABLE_BENCHMARKING" "$work/benchmarking.log" ||
  { cat "$work/benchmarking.log"; fail "a runner built with benchmarking is not refused (exit $status)"; }

# The leak check (the environment: Catch2 refuses a flag it does not know): the leaking test
# fails through Catch2, naming the line that allocated; the static does not.
status=0
ALLOCGATE_FAIL_ON_LEAK=1 "$work/build/tutorial_tests" >"$work/leak.log" 2>&1 || status=$?
[ "$status" = 2 ] || { cat "$work/leak.log"; fail "with the leak check: exit $status, not 1"; }
leak_line=$(grep -n "new std::string(50, 'l')" "$source/tests/frameworks/catch2_v2/tutorial_test.cpp" | cut -d: -f1)
grep -q "a deliberate leak leaked $((51 + string)) bytes in 2 blocks" "$work/leak.log" ||
  { cat "$work/leak.log"; fail "the leak is not reported"; }
grep -q "tutorial_test.cpp:$leak_line" "$work/leak.log" || { cat "$work/leak.log"; fail "the leak's line $leak_line is not named"; }
[ "$(grep -c "leaked" "$work/leak.log")" = 1 ] || { cat "$work/leak.log"; fail "a test that does not leak is reported"; }
grep -q "test cases:  8 |  6 passed | 2 failed" "$work/leak.log" || { cat "$work/leak.log"; fail "Catch2 does not count the leak as a failure"; }
bad=0
ALLOCGATE_FAIL_ON_LEAK=maybe "$work/build/tutorial_tests" >"$work/bad.log" 2>&1 || bad=$?
[ "$bad" = 2 ] && grep -q "takes 1 or 0" "$work/bad.log" || { cat "$work/bad.log"; fail "a bad flag value: exit $bad"; }

# The gate: bounds recorded once pass again; an added allocation fails it,
# naming the line.
allocgate=$build/reports/allocgate
"$allocgate" diff --update --bounds "$work/bounds.json" "$work/tests.json" >"$work/record.log" 2>&1 ||
  { cat "$work/record.log"; fail "recording the bounds"; }
"$allocgate" diff --bounds "$work/bounds.json" "$work/tests.json" >"$work/gate.log" 2>&1 ||
  { cat "$work/gate.log"; fail "the recorded bounds do not pass again"; }
status=0
ALLOCGATE_OUT="$work/grown.json" ALLOCGATE_SITES=1 "$work/build/tutorial_tests_grown" >/dev/null 2>&1 || true
"$allocgate" diff --bounds "$work/bounds.json" "$work/grown.json" >"$work/grown.log" 2>&1 || status=$?
grown_line=$(grep -n "const std::string grown(100, 'g');" "$source/tests/frameworks/catch2_v2/tutorial_test.cpp" | cut -d: -f1)
[ "$status" = 1 ] || { cat "$work/grown.log"; fail "the gate passed an added allocation (exit $status)"; }
grep -q "Factorials are computed" "$work/grown.log" && grep -q "tutorial_test.cpp:$grown_line" "$work/grown.log" ||
  { cat "$work/grown.log"; fail "the gate does not name the test and the line $grown_line"; }
echo "PASS: Catch2 v2 $which: $(echo "$got" | wc -l) runs with the figures their code makes; the leak fails its test at its line; the gate names an added allocation's line"
