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
cmake -S "$source/tests/frameworks/catch2" -B "$work/build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$work/prefix" -DCATCH2_SOURCE="$work/Catch2-3.7.1" >"$work/configure.log" 2>&1 ||
  { cat "$work/configure.log"; fail configure; }
cmake --build "$work/build" -j2 >"$work/build.log" 2>&1 || { tail -40 "$work/build.log"; fail build; }
status=0
ALLOCGATE_OUT="$work/tests.json" "$work/build/tutorial_tests" >"$work/tests.log" 2>&1 || status=$?
[ "$status" = 42 ] || { cat "$work/tests.log"; fail "tutorial_tests exited $status, not 42 (Catch2's for a failed test: a failing check on purpose)"; }
got=$(jq -r '.benchmarks[] | [.name, ."allocs/op", ."bytes/op", ."leaked_bytes/op", (.allocgate_test_failed // false)] | @tsv' "$work/tests.json")
string=$(printf '#include <string>\nint main() { return sizeof(std::string); }' | g++ -x c++ - -o "$work/size" && "$work/size"; echo $?)
expected=$(printf '%s\n' \
  "Factorials are computed	0	0	0	false" \
  "vectors can be sized and resized/resizing bigger changes size and capacity	2	60	0	false" \
  "vectors can be sized and resized/reserving bigger changes capacity but not size/reserving down unused capacity does not change capacity	2	60	0	false" \
  "a string per generated length	1	21	0	false" \
  "a string per generated length #2	1	41	0	false" \
  "a string per generated length #3	1	61	0	false" \
  "a failing check is reported with its figures	1	31	0	true" \
  "a deliberate leak	2	$((51 + string))	$((51 + string))	false")
diff <(echo "$expected") <(echo "$got") || fail "the runs' figures differ from what their code makes"
# The report gates as a GoogleTest suite's does: bounds recorded once pass again.
allocgate=$build/reports/allocgate
"$allocgate" diff --update --bounds "$work/bounds.json" "$work/tests.json" >"$work/record.log" 2>&1 ||
  { cat "$work/record.log"; fail "recording the bounds"; }
"$allocgate" diff --bounds "$work/bounds.json" "$work/tests.json" >"$work/gate.log" 2>&1 ||
  { cat "$work/gate.log"; fail "the recorded bounds do not pass again"; }
echo "PASS: $(echo "$got" | wc -l) runs of a Catch2 3.7.1 suite, each with the figures its code makes"
