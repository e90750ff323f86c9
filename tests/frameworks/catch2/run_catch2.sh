#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds tutorial_test.cpp against Catch2 3.7.1 (../shared/compat) brought in
# with FetchContent and allocgate installed from BUILD_DIR, runs it, and
# checks each run's figures against what its code makes, and that bounds
# recorded from its report pass again.
# Usage: run_catch2.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -euo pipefail
build=$1 source=$2 work=$3
compat=$(cd "$source/.." && pwd)/shared/compat
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
tar -xzf "$compat/Catch2-3.7.1.tar.gz" -C "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$source/tests/frameworks/catch2" -B "$work/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_PREFIX_PATH="$work/prefix" -DCATCH2_SOURCE="$work/Catch2-3.7.1" >"$work/configure.log" 2>&1 ||
  { cat "$work/configure.log"; fail configure; }
cmake --build "$work/build" -j2 >"$work/build.log" 2>&1 || { tail -40 "$work/build.log"; fail build; }
status=0
ALLOCGATE_OUT="$work/tests.json" "$work/build/tutorial_tests" >"$work/tests.log" 2>&1 || status=$?
[ "$status" = 42 ] || { cat "$work/tests.log"; fail "tutorial_tests exited $status, not 42 (Catch2's for a failed test: a failing check on purpose)"; }
got=$(jq -r '.benchmarks[] | [.name, ."allocs/op", ."bytes/op", ."leaked_bytes/op", (.allocgate_test_failed // false)] | @tsv' "$work/tests.json")
string=$(printf '#include <string>\nint main() { return sizeof(std::string); }' | g++ -x c++ - -o "$work/size" && "$work/size"; echo $?)
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
  "a deliberate leak	2	$((51 + string))	$((51 + string))	false")
diff <(echo "$expected") <(echo "$got") || fail "the runs' figures differ from what their code makes"
# The report gates as a GoogleTest suite's does: bounds recorded once pass again.
allocgate=$build/reports/allocgate
"$allocgate" diff --update --bounds "$work/bounds.json" "$work/tests.json" >"$work/record.log" 2>&1 ||
  { cat "$work/record.log"; fail "recording the bounds"; }
"$allocgate" diff --bounds "$work/bounds.json" "$work/tests.json" >"$work/gate.log" 2>&1 ||
  { cat "$work/gate.log"; fail "the recorded bounds do not pass again"; }
one_time=$(jq -r '.benchmarks[] | select(.name == "a static built on first use") | [.allocgate_one_time_allocs, .allocgate_one_time_bytes] | @tsv' "$work/tests.json")
[ "$one_time" = "$(printf '1\t101')" ] || fail "the static's first use: '$one_time', not 1 allocation of 101 B"

# Beside a main() of the project's own: the same figures.
status=0
"$work/build/own_main_tests" --allocgate-out="$work/own_main.json" >"$work/own_main.log" 2>&1 || status=$?
[ "$status" = 42 ] || { cat "$work/own_main.log"; fail "own_main_tests exited $status, not 42"; }
own=$(jq -r '.benchmarks[] | [.name, ."allocs/op", ."bytes/op", ."leaked_bytes/op", (.allocgate_test_failed // false)] | @tsv' "$work/own_main.json")
diff <(echo "$got") <(echo "$own") || fail "with a main() of its own, the runs' figures differ"

# Shards (Catch2's --shard-count/--shard-index), each writing a report of its
# own into one directory, joined by allocgate merge: the same cases as the
# whole run.
mkdir -p "$work/shards"
for index in 0 1; do
  "$work/build/tutorial_tests" --shard-count 2 --shard-index $index --allocgate-out="$work/shards" >/dev/null 2>&1 || true
done
[ "$(find "$work/shards" -name 'tutorial_tests.*.json' | wc -l)" = 2 ] || fail "two shards did not write two reports"
"$build/reports/allocgate" merge --out "$work/merged.json" "$work/shards"/*.json >"$work/merge.log" 2>&1 ||
  { cat "$work/merge.log"; fail "merging the shards"; }
merged=$(jq -r '.benchmarks[] | [.name, ."allocs/op", ."bytes/op", ."leaked_bytes/op", (.allocgate_test_failed // false)] | @tsv' "$work/merged.json" | sort)
diff <(echo "$got" | sort) <(echo "$merged") || fail "the merged shards differ from the whole run"

# The leak check, with Catch2's spelling of allocgate's flag (taken out
# before Catch2 reads its own): the leaking test fails through Catch2, naming
# the line that allocated; the static does not.
status=0
"$work/build/tutorial_tests" --allocgate-fail-on-leak >"$work/leak.log" 2>&1 || status=$?
[ "$status" = 42 ] || { cat "$work/leak.log"; fail "with the leak check: exit $status, not 42"; }
leak_line=$(grep -n "new std::string(50, 'l')" "$source/tests/frameworks/catch2/tutorial_test.cpp" | cut -d: -f1)
grep -q "a deliberate leak leaked $((51 + string)) bytes in 2 blocks" "$work/leak.log" ||
  { cat "$work/leak.log"; fail "the leak is not reported"; }
grep -q "tutorial_test.cpp:$leak_line" "$work/leak.log" || { cat "$work/leak.log"; fail "the leak's line $leak_line is not named"; }
[ "$(grep -c "leaked" "$work/leak.log")" = 1 ] || { cat "$work/leak.log"; fail "a test that does not leak is reported"; }
grep -Eq "test cases: +10 \| +7 passed \| +2 failed \| +1 skipped" "$work/leak.log" ||
  { cat "$work/leak.log"; fail "Catch2 does not count the leak as a failure"; }
bad=0
"$work/build/tutorial_tests" --allocgate-fail-on-leak=maybe >"$work/bad.log" 2>&1 || bad=$?
[ "$bad" = 2 ] && grep -q "takes true or false" "$work/bad.log" || { cat "$work/bad.log"; fail "a bad flag value: exit $bad"; }

# An added allocation fails the gate, naming the test and the line.
status=0
"$work/build/tutorial_tests_grown" --allocgate-out="$work/grown.json" --allocgate-sites >/dev/null 2>&1 || true
"$allocgate" diff --bounds "$work/bounds.json" "$work/grown.json" >"$work/grown.log" 2>&1 || status=$?
grown_line=$(grep -n "const std::string grown(100, 'g');" "$source/tests/frameworks/catch2/tutorial_test.cpp" | cut -d: -f1)
[ "$status" = 1 ] || { cat "$work/grown.log"; fail "the gate passed an added allocation (exit $status)"; }
grep -q "Factorials are computed" "$work/grown.log" && grep -q "tutorial_test.cpp:$grown_line" "$work/grown.log" ||
  { cat "$work/grown.log"; fail "the gate does not name the test and the line $grown_line"; }
echo "PASS: $(echo "$got" | wc -l) runs of a Catch2 3.7.1 suite, each with the figures its code makes; the leak fails its test at its line; the gate names an added allocation's line"
