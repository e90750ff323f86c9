#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A real Catch2 v3 suite: spdlog's own (Debian's source package, 1.10, 147
# test cases, an async logger's thread pool), its build ported to Catch2 3.7.1
# (../shared/compat, built and installed as a package) as Catch2's migration
# guide says, and as spdlog's later releases did themselves: <catch2/catch.hpp>
# becomes <catch2/catch_all.hpp>, the file defining CATCH_CONFIG_MAIN goes, a
# tag's stray ']' goes, the tests link Catch2::Catch2WithMain; beside
# spdlog's own ctest test of the whole binary, catch_discover_tests adds one
# per test case. The adopted tree differs from the plain one by the
# link alone: allocgate::catch2_main in place of Catch2::Catch2WithMain.
#  - the same tests pass, with the same count of assertions;
#  - the leak check names no test in ALLOCGATE_VERDICT_RUNS runs (5; 100
#    under ci/test.sh --long);
#  - bounds recorded from 3 runs pass every other run;
#  - a case counts what the whole run counted in a random order (of the tags
#    whose tests allow one), in Catch2's first shard, in two shards merged
#    and in a process per test under ctest, wherever spdlog's own state
#    carried from test to test does not change what it does; bounds recorded
#    from 3 ctest runs hold in a fourth;
#  - one allocation injected into pattern_formatter::format fails the tests
#    that log, and none that does not; with the base's sites the gate names
#    the injected line first;
#  - the wall times, plain and counted, whole and a process per test, printed.
# Usage: run_spdlog_catch2_v3.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -euo pipefail
build=$1 source=$2 work=$3
allocgate=$build/reports/allocgate
compat=$(cd "$source/.." && pwd)/shared/compat
# shellcheck source=debian_source.sh
. "$source/tests/frameworks/real_suites/debian_source.sh"
begin_real_suite "$build" "$work"
spdlog=$(debian_source spdlog 1:1.10.0+ds-0.4)

# Catch2 3.7.1 as a system would have it: built and installed as a package.
tar -xzf "$compat/Catch2-3.7.1.tar.gz"
cmake -S Catch2-3.7.1 -B catch2-build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBUILD_TESTING=OFF \
  -DCMAKE_INSTALL_PREFIX="$work/catch2" >catch2.log 2>&1 && cmake --build catch2-build -j2 >>catch2.log 2>&1 &&
  cmake --install catch2-build >>catch2.log 2>&1 || { tail -20 catch2.log; fail "building Catch2 3.7.1"; }

# The port, on a copy of spdlog's tree.
cp -r "$spdlog" ported
tests=ported/tests
sed -i 's|#include <catch2/catch.hpp>|#include <catch2/catch_all.hpp>|' "$tests/includes.h"
sed -i '/^    main.cpp$/d' "$tests/CMakeLists.txt"
rm "$tests/main.cpp"
# Catch2 v3 refuses a tag it cannot parse as the test registers: 1.10 has 22
# with a stray ']' ("[errors]]") and one unclosed ("[convert_to_string_view").
sed -i 's|\]\]")$|]")|; s|"\[convert_to_string_view")$|"[convert_to_string_view]")|' "$tests"/test_*.cpp
sed -i 's|^enable_testing()$|find_package(Catch2 3 REQUIRED)\ninclude(Catch)\nenable_testing()|' "$tests/CMakeLists.txt"
sed -i 's|^    target_link_libraries(${test_target} PRIVATE ${spdlog_lib})$|&\n    target_link_libraries(${test_target} PRIVATE Catch2::Catch2WithMain)|' \
  "$tests/CMakeLists.txt"
sed -i 's|^    add_test(NAME ${test_target} COMMAND ${test_target})$|&\n    catch_discover_tests(${test_target} TEST_PREFIX "${test_target}:" WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})|' \
  "$tests/CMakeLists.txt"
! grep -rq "catch2/catch.hpp" "$tests" && ! grep -h "^TEST_CASE(" "$tests"/test_*.cpp | grep -v '"\(\[[^]["]*\]\)*")$' && grep -q "Catch2::Catch2WithMain" "$tests/CMakeLists.txt" &&
  grep -q "catch_discover_tests" "$tests/CMakeLists.txt" || fail "the port to Catch2 v3 did not apply"
# Adopted: the link, and the package that brings it.
cp -r ported adopted-src
sed -i 's|Catch2::Catch2WithMain|allocgate::catch2_main|;
        s|^find_package(Catch2 3 REQUIRED)$|&\nfind_package(allocgate REQUIRED COMPONENTS catch2)|' adopted-src/tests/CMakeLists.txt
changed=$(diff -r ported adopted-src | grep '^[<>]' || true)
[ "$changed" = "$(printf '%s\n' '> find_package(allocgate REQUIRED COMPONENTS catch2)' \
  '<     target_link_libraries(${test_target} PRIVATE Catch2::Catch2WithMain)' \
  '>     target_link_libraries(${test_target} PRIVATE allocgate::catch2_main)')" ] ||
  { echo "$changed"; fail "the adopted tree differs from the ported one by more than the link"; }

common=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DSPDLOG_BUILD_TESTS=ON -DSPDLOG_FMT_EXTERNAL=ON -DSPDLOG_BUILD_EXAMPLE=OFF)
cmake -S ported -B plain "${common[@]}" -DCMAKE_PREFIX_PATH="$work/catch2" >plain.log 2>&1 &&
  cmake --build plain -j2 >>plain.log 2>&1 || { tail -20 plain.log; fail "building spdlog's ported suite plain"; }
cmake -S adopted-src -B adopted "${common[@]}" -DCMAKE_PREFIX_PATH="$work/catch2;$work/prefix" >adopted.log 2>&1 &&
  cmake --build adopted -j2 >>adopted.log 2>&1 || { tail -20 adopted.log; fail "building spdlog's ported suite adopted"; }
# Its tests write logs under the working directory.
# suite TREE ARGS...: the suite of that tree, run with ARGS.
suite() { (cd "$work/$1/tests" && shift && ./spdlog-utests "$@") 2>&1; }

plain_summary=$(suite plain | grep "^All tests passed" || true)
adopted_summary=$(suite adopted --allocgate-out="$work/run1.json" | grep "^All tests passed" || true)
[ -n "$plain_summary" ] && [ "$plain_summary" = "$adopted_summary" ] || fail "plain: '$plain_summary', adopted: '$adopted_summary'"
[ "$(jq '.benchmarks | length' "$work/run1.json")" -gt 140 ] || fail "the report holds $(jq '.benchmarks | length' run1.json) cases"

runs=${ALLOCGATE_VERDICT_RUNS:-5}
leak_runs "$runs" suite adopted
cases=$(jq '.benchmarks | length' "$work/run1.json")
threaded=$(jq '[.benchmarks[] | select(.allocgate_other_thread_allocs)] | length' "$work/run1.json")

# gate REPORT WHAT [BOUNDS]: the report passes the bounds (runs 1 to 3's by
# default), whole (--strict: no case missing).
gate() {
  "$allocgate" diff --strict --bounds "${3:-$work/bounds.json}" "$1" >"gate.$(basename "$1").log" 2>&1 ||
    { head -20 "gate.$(basename "$1").log"; fail "$2 fails the bounds recorded"; }
}
for ((i = 4; i <= runs; i++)); do gate "$work/leak$i.json" "run $i, unchanged,"; done
gate "$work/run1.json" "the first run"

# same_figures REPORT WHAT [ONLY]: each case of REPORT (of those ONLY, a
# report, holds) counts what the whole run counted, but for the async tests
# and the cases with allocations on other threads in either run: an async
# logger's thread pool and periodic flusher outlive the test that starts
# them, so what they allocate lands in whichever test runs next. Prints how
# many cases were compared.
async_tests=$(suite plain "[async]" --list-tests --verbosity quiet | jq -R . | jq -s 'map({key: ., value: true}) | from_entries')
[ "$(echo "$async_tests" | jq length)" -ge 5 ] || fail "Catch2 lists $(echo "$async_tests" | jq length) async tests"
same_figures() {
  local compare differing compared
  compare='($whole[0].benchmarks | map({key: .name, value: .}) | from_entries) as $w
    | ($only[0].benchmarks | map({key: .name, value: true}) | from_entries) as $o
    | [.benchmarks[] | select($async[.name] | not) | select($w[.name] != null) | select($o[.name])
       | select((.allocgate_other_thread_allocs // 0) == 0 and ($w[.name].allocgate_other_thread_allocs // 0) == 0)
       | {name, now: [.["allocs/op"], .["bytes/op"]], whole: [$w[.name]["allocs/op"], $w[.name]["bytes/op"]]}]'
  local args=(--slurpfile whole "$work/run1.json" --slurpfile only "${3:-$1}" --argjson async "$async_tests")
  differing=$(jq -r "${args[@]}" "$compare | map(select(.now != .whole)) | .[] | \"\\(.name): \\(.now) against \\(.whole)\"" "$1")
  [ -z "$differing" ] || { echo "$differing" >&2; fail "$2 counts otherwise than the whole run"; }
  compared=$(jq "${args[@]}" "$compare | length" "$1")
  [ "$compared" -gt 30 ] || fail "$2: $compared cases compared"
  echo "$compared"
}

# In a random order: spdlog's whole suite crashes in one, plain as adopted
# (its registry and default logger carry over from test to test), so the
# tags whose tests pass in any order, plain first. Their cases, but the async
# ones, count the same in any order, and so in a shard or a process of
# their own.
any_order='[pattern_formatter],[mpmc_blocking_q],[to_hex],[fmt_helper],[dup_filter_sink],[async]'
shuffled_summary=$(suite plain "$any_order" --order rand --rng-seed 7 | grep "^All tests passed" || true)
[ -n "$shuffled_summary" ] || fail "the tests of $any_order fail in a random order, plain"
[ "$(suite adopted "$any_order" --order rand --rng-seed 7 --allocgate-out="$work/shuffled.json" |
  grep "^All tests passed" || true)" = "$shuffled_summary" ] || fail "the run in a random order"
[ "$(jq '.benchmarks | length' "$work/shuffled.json")" -gt 60 ] || fail "the shuffled run's report is short"
shuffled_same=$(same_figures "$work/shuffled.json" "the run in a random order")

# Catch2's two shards, merged: every case once. The first shard is the
# suite's first half in its order, and counts what the whole run counts,
# case for case; the second starts a process where no earlier test set
# spdlog's global pattern, so its loggers build other formatters.
for index in 0 1; do
  mkdir -p "shards/$index"
  suite adopted --shard-count 2 --shard-index $index --allocgate-out="$work/shards/$index" >/dev/null || fail "shard $index"
done
"$allocgate" merge --out "$work/sharded.json" "$work"/shards/*/*.json >merge.log 2>&1 || { cat merge.log; fail "merging the shards"; }
[ "$(jq '.benchmarks | length' "$work/sharded.json")" = "$cases" ] || fail "the shards merged hold $(jq '.benchmarks | length' "$work/sharded.json") cases"
first_shard_same=$(same_figures "$(ls "$work"/shards/0/*.json)" "the first shard")
sharded_same=$(same_figures "$work/sharded.json" "the two shards merged" "$work/shuffled.json")

# A process per test, as catch_discover_tests runs them (one at a time: the
# tests write the same log files), each report into one directory; not
# spdlog's own test of the whole binary. Its cases count as in the whole
# run where the order does not matter; bounds recorded from three ctest
# runs hold in a fourth. The times of the whole and of ctest, plain and
# counted.
start=$(date +%s%N) && suite plain >/dev/null && plain_whole=$((($(date +%s%N) - start) / 1000000))
start=$(date +%s%N) && ALLOCGATE_OUT="$work/timed.json" suite adopted >/dev/null &&
  counted_whole=$((($(date +%s%N) - start) / 1000000))
start=$(date +%s%N)
ctest --test-dir plain/tests -E '^spdlog-utests$' >ctest-plain.log 2>&1 || { tail -20 ctest-plain.log; fail "ctest, plain"; }
plain_ctest=$((($(date +%s%N) - start) / 1000000))
for run in 1 2 3 4; do
  mkdir -p "per-process/$run"
  start=$(date +%s%N)
  ALLOCGATE_OUT="$work/per-process/$run" ctest --test-dir adopted/tests -E '^spdlog-utests$' >ctest-adopted.log 2>&1 ||
    { tail -20 ctest-adopted.log; fail "ctest, adopted, run $run"; }
  [ "$run" = 1 ] && counted_ctest=$((($(date +%s%N) - start) / 1000000))
  processes=$(grep -c "Test *#" ctest-adopted.log)
  reports=$(find "per-process/$run" -name '*.json' | wc -l)
  [ "$reports" = "$processes" ] && [ "$processes" = "$cases" ] ||
    fail "$processes processes under ctest wrote $reports reports ($cases cases)"
  "$allocgate" merge --out "$work/per_process$run.json" "$work/per-process/$run"/*.json >merge-ctest.log 2>&1 ||
    { cat merge-ctest.log; fail "merging ctest's reports"; }
done
per_process_same=$(same_figures "$work/per_process1.json" "a process per test under ctest" "$work/shuffled.json")
"$allocgate" diff --update --bounds "$work/ctest-bounds.json" "$work"/per_process{1,2,3}.json >record-ctest.log 2>&1 ||
  { cat record-ctest.log; fail "recording the bounds from 3 ctest runs"; }
gate "$work/per_process4.json" "a fourth ctest run" "$work/ctest-bounds.json"

suite adopted --allocgate-sites --allocgate-out="$work/base.json" >/dev/null || fail "the run with sites"

# One allocation more per message formatted.
formatter=adopted-src/include/spdlog/pattern_formatter-inl.h
sed -i '/^SPDLOG_INLINE void pattern_formatter::format(const details::log_msg &msg, memory_buf_t &dest)$/{n;a\
    { std::string injected(100, '"'"'i'"'"'); asm volatile("" : : "r"(injected.data()) : "memory"); }
}' "$formatter"
grep -q "injected(100" "$formatter" || fail "the injection did not apply"
cmake --build adopted -j2 >>adopted.log 2>&1 || { tail -20 adopted.log; fail "building the injected suite"; }
suite adopted --allocgate-sites --allocgate-out="$work/injected.json" >/dev/null || true
status=0
"$allocgate" diff --bounds "$work/bounds.json" "$work/injected.json" >injected.log 2>&1 || status=$?
[ "$status" = 1 ] || { cat injected.log; fail "the gate passed an injected allocation (exit $status)"; }
for test in "flush" "multi threads" "basic async test " "tp->wait_empty() " "basic_logging " "custom eol"; do
  grep -qF "REGRESSION $test:" injected.log || { grep REGRESSION injected.log; fail "'$test' is not a regression"; }
done
# Tests that format no message through a pattern_formatter.
for test in "dequeue-empty-nowait" "full_queue" "stopwatch1" "pad2" "create_dir" "level_to_string_view"; do
  ! grep -qF "REGRESSION $test:" injected.log || { grep -F "$test" injected.log; fail "'$test' logs nothing, yet is a regression"; }
done
injected_line=$(grep -n "injected(100" "$formatter" | cut -d: -f1)
status=0
"$allocgate" diff --bounds "$work/bounds.json" --base "$work/base.json" "$work/injected.json" >based.log 2>&1 || status=$?
[ "$status" = 1 ] || { cat based.log; fail "the gate with --base passed an injected allocation (exit $status)"; }
! grep -q "no line allocates more" based.log || { cat based.log; fail "a regression names no line"; }
grep -qF "pattern_formatter-inl.h:$injected_line" based.log || { cat based.log; fail "the injected line is not named"; }
regressions=$(grep -c "^REGRESSION" injected.log)
echo "spdlog on Catch2 3.7.1, wall time: the whole suite $plain_whole ms plain, $counted_whole ms counted;" \
  "$processes processes under ctest $plain_ctest ms plain, $counted_ctest ms counted, each with a report"
echo "PASS: spdlog's suite on Catch2 3.7.1, $cases cases ($threaded on other threads too): the same tests and assertions adopted; no leak in $runs runs; bounds from 3 runs hold in the rest;" \
  "the whole run's figures in a random order ($shuffled_same cases), in the first shard ($first_shard_same), in two shards merged ($sharded_same) and in a process per test ($per_process_same);" \
  "bounds from 3 ctest runs hold in a fourth; an injected allocation fails $regressions tests that log and none that does not, its line named"
