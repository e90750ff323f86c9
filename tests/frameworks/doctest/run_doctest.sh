#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds tutorial_test.cpp against doctest as a project brings it (Debian's
# package, or a release from ../shared/compat with FetchContent) and
# allocgate installed from BUILD_DIR, runs it, and checks each run's figures
# against what its code makes; the leak check's failure, its line, and that
# bounds recorded from its report pass again and fail on an added allocation.
# Built with -O2 -g (RelWithDebInfo): optimized, as doctest inlines its own
# functions into the tests there, and with the lines a leak is named by.
# Usage: run_doctest.sh BUILD_DIR SOURCE_DIR WORK_DIR [system|2.5.2]
set -euo pipefail
build=$1 source=$2 work=$3 which=${4:-system}
compat=$(cd "$source/.." && pwd)/shared/compat
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
from=()
if [ "$which" != system ]; then
  tar -xzf "$compat/doctest-$which.tar.gz" -C "$work"
  from=(-DDOCTEST_SOURCE="$work/doctest-$which")
fi
cmake --install "$build" --prefix "$work/prefix" >/dev/null
configure() {  # configure SOURCE BUILD
  cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_PREFIX_PATH="$work/prefix" "${from[@]}" \
    >"$2.configure.log" 2>&1 || { cat "$2.configure.log"; fail configure; }
  cmake --build "$2" -j2 >"$2.build.log" 2>&1 || { tail -40 "$2.build.log"; fail build; }
}
configure "$source/tests/frameworks/doctest" "$work/build"
status=0
ALLOCGATE_OUT="$work/tests.json" "$work/build/tutorial_tests" >"$work/tests.log" 2>&1 || status=$?
[ "$status" = 1 ] || { cat "$work/tests.log"; fail "tutorial_tests exited $status, not 1 (doctest's for a failed test: a failing check on purpose)"; }
got=$(jq -r '.benchmarks[] | [.name, ."allocs/op", ."bytes/op", ."leaked_bytes/op", (.allocgate_test_failed // false)] | @tsv' "$work/tests.json")
string=$(printf '#include <string>\nint main() { return sizeof(std::string); }' | g++ -x c++ - -o "$work/size" && "$work/size"; echo $?)
expected=$(printf '%s\n' \
  "testing the factorial function	0	0	0	false" \
  "vectors can be sized and resized/adding to the vector increases its size	2	60	0	false" \
  "vectors can be sized and resized/reserving increases just the capacity	2	44	0	false" \
  "messages are doctest's	1	41	0	false" \
  "a failing check is reported with its figures	1	31	0	true" \
  "a fixture is the test's	2	122	0	false" \
  "a static built on first use	0	0	0	false" \
  "a deliberate leak	2	$((51 + string))	$((51 + string))	false" \
  "a thread's allocations are the test's	2	57	0	false")
diff <(echo "$expected") <(echo "$got") || fail "the runs' figures differ from what their code makes"
one_time=$(jq -r '.benchmarks[] | select(.name == "a static built on first use") | [.allocgate_one_time_allocs, .allocgate_one_time_bytes] | @tsv' "$work/tests.json")
[ "$one_time" = "$(printf '1\t101')" ] || fail "the static's first use: '$one_time', not 1 allocation of 101 B"

# Shards (doctest's --first/--last), each writing a report of its own into
# one directory, joined by allocgate merge: the same cases as the whole run.
mkdir -p "$work/shards"
for range in "--first=1 --last=4" "--first=5 --last=100"; do
  # shellcheck disable=SC2086  # the range is two flags
  "$work/build/tutorial_tests" $range --allocgate-out="$work/shards" >/dev/null 2>&1 || true
done
[ "$(find "$work/shards" -name 'tutorial_tests.*.json' | wc -l)" = 2 ] || fail "two shards did not write two reports"
"$build/reports/allocgate" merge --out "$work/merged.json" "$work/shards"/*.json >"$work/merge.log" 2>&1 ||
  { cat "$work/merge.log"; fail "merging the shards"; }
merged=$(jq -r '.benchmarks[] | [.name, ."allocs/op", ."bytes/op", ."leaked_bytes/op", (.allocgate_test_failed // false)] | @tsv' "$work/merged.json" | sort)
diff <(echo "$got" | sort) <(echo "$merged") || fail "the merged shards differ from the whole run"

# The leak check, with doctest's spelling of the flag: the leaking test
# fails through doctest, naming the line that allocated; the static does not.
status=0
"$work/build/tutorial_tests" --allocgate-fail-on-leak >"$work/leak.log" 2>&1 || status=$?
[ "$status" = 1 ] || { cat "$work/leak.log"; fail "with the leak check: exit $status, not 1"; }
leak_line=$(grep -n "new std::string(50, 'l')" "$source/tests/frameworks/doctest/tutorial_test.cpp" | cut -d: -f1)
grep -q "a deliberate leak leaked $((51 + string)) bytes in 2 blocks" "$work/leak.log" ||
  { cat "$work/leak.log"; fail "the leak is not reported"; }
grep -q "tutorial_test.cpp:$leak_line" "$work/leak.log" || { cat "$work/leak.log"; fail "the leak's line $leak_line is not named"; }
[ "$(grep -c "leaked" "$work/leak.log")" = 1 ] || { cat "$work/leak.log"; fail "a test that does not leak is reported"; }
grep -q "test cases:  8 |  6 passed | 2 failed" "$work/leak.log" || { cat "$work/leak.log"; fail "doctest does not count the leak as a failure"; }
bad=0
"$work/build/tutorial_tests" --allocgate-fail-on-leak=maybe >"$work/bad.log" 2>&1 || bad=$?
[ "$bad" = 2 ] && grep -q "takes true or false" "$work/bad.log" || { cat "$work/bad.log"; fail "a bad flag value: exit $bad"; }

# The gate: bounds recorded once pass again; an added allocation fails it,
# naming the line.
allocgate=$build/reports/allocgate
"$allocgate" diff --update --bounds "$work/bounds.json" "$work/tests.json" >"$work/record.log" 2>&1 ||
  { cat "$work/record.log"; fail "recording the bounds"; }
"$allocgate" diff --bounds "$work/bounds.json" "$work/tests.json" >"$work/gate.log" 2>&1 ||
  { cat "$work/gate.log"; fail "the recorded bounds do not pass again"; }
status=0
"$work/build/tutorial_tests_grown" --allocgate-out="$work/grown.json" --allocgate-sites >/dev/null 2>&1 || true
"$allocgate" diff --bounds "$work/bounds.json" "$work/grown.json" >"$work/grown.log" 2>&1 || status=$?
grown_line=$(grep -n "const std::string grown(100, 'g');" "$source/tests/frameworks/doctest/tutorial_test.cpp" | cut -d: -f1)
[ "$status" = 1 ] || { cat "$work/grown.log"; fail "the gate passed an added allocation (exit $status)"; }
grep -q "testing the factorial function" "$work/grown.log" && grep -q "tutorial_test.cpp:$grown_line" "$work/grown.log" ||
  { cat "$work/grown.log"; fail "the gate does not name the test and the line $grown_line"; }
echo "PASS: doctest $which: $(echo "$got" | wc -l) runs with the figures their code makes; the leak fails its test at its line; the gate names an added allocation's line"
