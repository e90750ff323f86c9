#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# yaml-cpp's own suite (Debian's source package, 0.7: GoogleTest from
# Debian's googletest sources, as Debian builds it), plain and with
# allocgate::gtest linked by adopt_gtest.cmake and no line of it changed:
#  - the same tests pass;
#  - the leak check names no test in ALLOCGATE_YAML_RUNS runs (10), and the
#    figures of every run are the first's, so bounds recorded from one hold;
#  - every test swept under allocation failure (--allocgate_fail_each, the
#    first allocation of each distinct stack): every point tried ends with
#    an outcome, the findings each name a line of yaml-cpp's, no test is
#    nondeterministic, and the sweep's time and points are printed.
# Usage: run_yaml_cpp.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -euo pipefail
build=$1 source=$2 work=$3
# shellcheck source=debian_source.sh
. "$source/tests/frameworks/real_suites/debian_source.sh"
[ -d /usr/src/googletest ] || fail "Debian's googletest sources (/usr/src/googletest): apt-get install googletest"
begin_real_suite "$build" "$work"
yaml=$(debian_source yaml-cpp)

common=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DYAML_CPP_BUILD_TESTS=ON -DYAML_BUILD_SHARED_LIBS=OFF)
cmake -S "$yaml" -B plain "${common[@]}" >plain.log 2>&1 && cmake --build plain -j2 --target yaml-cpp-tests >>plain.log 2>&1 ||
  { tail -20 plain.log; fail "building yaml-cpp's suite plain"; }
cmake -S "$yaml" -B adopted "${common[@]}" -DCMAKE_PREFIX_PATH="$work/prefix" \
  -DCMAKE_PROJECT_YAML_CPP_INCLUDE="$source/tests/frameworks/real_suites/adopt_gtest.cmake" \
  -DALLOCGATE_ADOPT_TARGET=yaml-cpp-tests >adopted.log 2>&1 &&
  cmake --build adopted -j2 --target yaml-cpp-tests >>adopted.log 2>&1 || { tail -20 adopted.log; fail "building it adopted"; }

plain=$(plain/test/yaml-cpp-tests 2>&1 | grep -E '^\[  (PASSED|FAILED)  \]' | head -1)
adopted=$(adopted/test/yaml-cpp-tests --allocgate_out="$work/run.json" 2>&1 | grep -E '^\[  (PASSED|FAILED)  \]' | head -1)
[ "$plain" = "$adopted" ] && [[ $plain == "[  PASSED  ]"* ]] || fail "plain: '$plain', adopted: '$adopted'"

runs=${ALLOCGATE_YAML_RUNS:-10}
for ((i = 1; i <= runs; i++)); do
  status=0
  adopted/test/yaml-cpp-tests --allocgate_fail_on_leak --allocgate_out="$work/leak$i.json" >leak$i.log 2>&1 || status=$?
  [ "$status" = 0 ] || { grep -B2 -A8 -m3 " leaked " leak$i.log >&2 || tail -20 leak$i.log; fail "run $i of $runs with the leak check failed"; }
  [ "$(jq -c '[.benchmarks[] | [.name, ."allocs/op", ."bytes/op", .peak_bytes]]' leak$i.json)" = \
    "$(jq -c '[.benchmarks[] | [.name, ."allocs/op", ."bytes/op", .peak_bytes]]' run.json)" ] ||
    fail "run $i of $runs: a test's figures differ from the first run's"
done
echo "leak check: no leak in $runs runs of $(jq '.benchmarks | length' run.json) tests, the same figures in each"

began=$SECONDS
status=0
adopted/test/yaml-cpp-tests --allocgate_fail_each --allocgate_source_root="$yaml" --allocgate_out="$work/sweep.json" \
  >sweep.log 2>&1 || status=$?
took=$((SECONDS - began))
[ "$status" -le 1 ] || { tail -20 sweep.log; fail "the sweep ended with exit $status"; }
tests=$(jq '[.benchmarks[] | select(.allocgate_sweep)] | length' sweep.json)
[ "$tests" = "$(jq '.benchmarks | length' run.json)" ] || fail "$tests tests swept, not every test"
tried=$(jq '[.benchmarks[].allocgate_sweep.tried] | add' sweep.json)
ended=$(jq '[.benchmarks[].allocgate_sweep.outcomes | to_entries[].value] | add' sweep.json)
[ "$tried" = "$ended" ] || fail "$tried points tried, $ended with an outcome"
doubted=$(jq -r '.benchmarks[] | select(.allocgate_sweep.nondeterministic) | .name' sweep.json)
[ -z "$doubted" ] || fail "nondeterministic: $doubted"
elsewhere=$(jq -r '.benchmarks[].allocgate_sweep.findings[] | select(.line | test("\\((src|include|test)/") | not) | .line' sweep.json)
[ -z "$elsewhere" ] || fail "a finding whose line is not yaml-cpp's: $(echo "$elsewhere" | head -3)"
echo "sweep: $tests tests, $tried points in ${took}s; outcomes:"
jq -r '[.benchmarks[].allocgate_sweep.outcomes | to_entries[]] | group_by(.key) | map("  \(.[0].key): \(map(.value) | add)") | .[]' sweep.json
echo "findings by line:"
jq -r '[.benchmarks[].allocgate_sweep.findings[] | "\(.outcome) at \(.line)"] | group_by(.) | map("  \(length) x \(.[0])") | .[]' sweep.json
echo "PASS: yaml-cpp's $tests tests pass adopted as plain, and every one swept under allocation failure"
