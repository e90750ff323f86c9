#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# nlohmann/json's own suite (Debian's source package, 3.11.2: doctest 2.4.6
# bundled as a header directory, tests/thirdparty/doctest; the main compiled
# once in an OBJECT library, test_main, that each of its one-binary-per-file
# tests links; C++11 unless a file asks for more; run by ctest, a process
# per binary), built as its autopkgtest builds it, plain and adopted: the
# README's two lines (find_package and a link of allocgate::doctest to
# test_main) added to tests/CMakeLists.txt, no other line changed.
#  - allocgate::doctest is compiled against the suite's bundled doctest.h
#    (2.4.6), not Debian's doctest-dev (2.4.9), and configure says so;
#  - each binary runs the same test cases and assertions adopted as plain,
#    with the same result (the suite's downloaded test data is not reachable
#    here: the tests that read it fail alike in both);
#  - under ctest with ALLOCGATE_OUT=dir/ every binary writes its report (a
#    templated test case's instances, all named "<>" by doctest 2.4.6, by
#    their place in the type list), and
#    allocgate merge --by-program joins them (one file is built as several
#    binaries, one per C++ standard, with the same test names);
#  - the leak check names no case in ALLOCGATE_JSON_RUNS runs of the whole
#    suite (10), the case of json's issue #714 included, which
#    ends in a thrown std::ios_base::failure whose blocks doctest frees after
#    the case;
#  - bounds recorded from the first run pass the others.
# The four Unicode binaries that walk every code point (unicode2 to 5, run
# with --no-skip) take minutes each at -O0 and are left to ctest's full run;
# the cmake_* tests configure projects that fetch json from git, no tests.
# Usage: run_json.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -euo pipefail
build=$1 source=$2 work=$3
allocgate=$build/reports/allocgate
# shellcheck source=debian_source.sh
. "$source/tests/frameworks/real_suites/debian_source.sh"
begin_real_suite "$build" "$work"
json=$(debian_source nlohmann-json3 3.11.2-2)

# The test data json's ctest fixture clones from GitHub, out of reach: an
# empty directory in its place, so the fixture passes and the tests run.
mkdir -p "$work/test_data"
common=(-DJSON_TestDataDirectory="$work/test_data")
cmake -S "$json" -B plain "${common[@]}" >plain.log 2>&1 && cmake --build plain -j2 >>plain.log 2>&1 ||
  { tail -20 plain.log; fail "building json's suite plain"; }

# The adoption, as docs/testing.md says: link allocgate::doctest to the
# library that compiles the main. In a copy of the sources: ctest's fixture
# builds a target, which configures again, and the plain tree must stay plain.
cp -a "$json" "$work/json-adopted"
json=$work/json-adopted
sed -i '/^add_library(test_main OBJECT src\/unit.cpp)$/a\
find_package(allocgate REQUIRED COMPONENTS doctest)\
target_link_libraries(test_main PRIVATE allocgate::doctest)' "$json/tests/CMakeLists.txt"
# Its ABI tests compile their own main, in a static library: linked the same.
echo 'target_link_libraries(abi_compat_main PRIVATE allocgate::doctest)' >>"$json/tests/abi/CMakeLists.txt"
grep -q "allocgate::doctest" "$json/tests/CMakeLists.txt" || fail "the link did not apply"
cmake -S "$json" -B adopted "${common[@]}" -DCMAKE_PREFIX_PATH="$work/prefix" >adopted.log 2>&1 ||
  { tail -20 adopted.log; fail "configuring json's suite adopted"; }
header=$(readlink -f "$json/tests/thirdparty/doctest/doctest.h")
grep -qF "allocgate::doctest: compiled against doctest 2.4.6 ($header), as test_main" adopted.log ||
  { grep -i allocgate adopted.log; fail "allocgate::doctest is not compiled against the suite's doctest.h"; }
cmake --build adopted -j2 >>adopted.log 2>&1 || { tail -20 adopted.log; fail "building json's suite adopted"; }

skipped='test-unicode[2-5]_|^cmake_'
# suite DIR [env...]: ctest over DIR's tests; prints each binary's doctest
# summary ("N: [doctest] test cases: ..." and "assertions: ..."), sorted.
suite() {
  local dir=$1
  shift
  (cd "$work/$dir" && env "$@" ctest -E "$skipped" -j2 -V 2>&1) >"$work/$dir.ctest.log" || true
  grep -E '^[0-9]+: \[doctest\] (test cases|assertions):' "$work/$dir.ctest.log" | sort
}
plain_summary=$(suite plain)
binaries=$(echo "$plain_summary" | grep -c "test cases:")
[ "$binaries" -gt 50 ] || fail "only $binaries binaries ran plain"
rm -rf "$work/reports" && mkdir "$work/reports"
began=$SECONDS
adopted_summary=$(suite adopted ALLOCGATE_OUT="$work/reports/")
counted_took=$((SECONDS - began))
diff <(echo "$plain_summary") <(echo "$adopted_summary") >summary.diff ||
  { cat summary.diff; fail "the adopted suite's test cases or assertions differ from plain"; }
reports=$(find "$work/reports" -name '*.json' | wc -l)
[ "$reports" = "$binaries" ] || fail "$reports reports for $binaries binaries"
"$allocgate" merge --by-program --out "$work/run0.json" "$work/reports"/*.json >merge.log 2>&1 || { cat merge.log; fail "allocgate merge"; }
cases=$(jq '.benchmarks | length' "$work/run0.json")
# A templated test case whose types have no TYPE_TO_STRING is named "<>" by
# doctest 2.4.6 for every type: each instance named by its place instead
# (bjdata's trait: 16 + 4 types in two TEST_CASE_TEMPLATE_INVOKEs, on a
# 64-bit target).
trait=$(jq -r '.benchmarks[].name | select(test("^test-bjdata_cpp11/value_in_range_of trait<"))' "$work/run0.json")
[ "$trait" = "$(printf 'test-bjdata_cpp11/value_in_range_of trait<#%s>\n' $(seq 20))" ] ||
  fail "bjdata's templated test case's instances are not named by their place: $trait"
# ... and a type listed twice (std::uint8_t is unsigned char) names two alike.
ascii=$(jq -r '.benchmarks[].name | select(test("^test-deserialization_cpp11/deserialization of different character types \\(ASCII\\)<unsigned char"))' "$work/run0.json")
[ "$ascii" = "$(printf 'test-deserialization_cpp11/deserialization of different character types (ASCII)<unsigned char #%s>\n' 1 2)" ] ||
  fail "deserialization's two unsigned char instances are not named by their place: $ascii"

runs=${ALLOCGATE_JSON_RUNS:-10}
for ((i = 1; i <= runs; i++)); do
  rm -rf "$work/reports" && mkdir "$work/reports"
  summary=$(suite adopted ALLOCGATE_OUT="$work/reports/" ALLOCGATE_FAIL_ON_LEAK=1)
  ! grep -q " leaked " "$work/adopted.ctest.log" ||
    { grep -B2 -A6 " leaked " "$work/adopted.ctest.log" >&2; fail "run $i of $runs with the leak check names a leak"; }
  [ "$summary" = "$plain_summary" ] || fail "run $i of $runs with the leak check: the results differ from plain"
  "$allocgate" merge --by-program --out "$work/leak$i.json" "$work/reports"/*.json >merge.log 2>&1 ||
    { cat merge.log; fail "allocgate merge of run $i"; }
done
# json's issue #714: the case ends in the std::ios_base::failure its stream
# throws (its file is not there), which holds 2 blocks until doctest's catch.
issue=$(jq -r '.benchmarks[] | select(.name | test("issue #714")) | [."leaked_bytes/op", .allocgate_test_failed] | @tsv' \
  "$work/leak1.json" | sort -u)
[ "$issue" = "$(printf '0\ttrue')" ] || fail "issue #714's case: '$issue', not failed with nothing leaked"

"$allocgate" diff --update --bounds "$work/bounds.json" "$work/run0.json" >record.log 2>&1 ||
  { cat record.log; fail "recording the bounds"; }
for ((i = 1; i <= runs; i++)); do
  "$allocgate" diff --bounds "$work/bounds.json" "$work/leak$i.json" >gate$i.log 2>&1 ||
    { grep REGRESSION gate$i.log | head; fail "run $i, unchanged, fails the bounds recorded from the first"; }
done
echo "PASS: json's suite, $binaries binaries under ctest, $cases cases: the same test cases and assertions adopted; compiled against its own doctest 2.4.6; a report per process merged; no leak in $runs runs (issue #714's exception included); bounds hold (counted ctest run ${counted_took}s)"
