#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# spdlog's own suite (Debian's source package, 1.10: Catch2 v2 as Debian ships
# it, 147 test cases, an async logger's thread pool), built as Debian builds it
# (its patches, the system's fmt and Catch2), plain and with allocgate::catch2
# linked by adopt_catch2_v2.cmake and no line of spdlog's changed:
#  - the same tests pass, with the same count of assertions;
#  - the leak check names no test in ALLOCGATE_VERDICT_RUNS runs (5; 100 under
#    ci/test.sh --long): the blocks a pool's worker holds are kept;
#  - bounds recorded from 3 runs pass every other run, the threaded tests with
#    the tolerance their report asks for;
#  - one allocation injected into pattern_formatter::format fails the async
#    tests that format many messages, on the worker as on the test's thread,
#    and with sites and the base's report the gate names the injected line
#    first, for the tests that format on the pool's worker too.
# Usage: run_spdlog.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -euo pipefail
build=$1 source=$2 work=$3
allocgate=$build/reports/allocgate
# shellcheck source=debian_source.sh
. "$source/tests/frameworks/real_suites/debian_source.sh"
begin_real_suite "$build" "$work"
spdlog=$(debian_source spdlog 1:1.10.0+ds-0.4)

common=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DSPDLOG_BUILD_TESTS=ON -DSPDLOG_FMT_EXTERNAL=ON -DSPDLOG_BUILD_EXAMPLE=OFF)
cmake -S "$spdlog" -B plain "${common[@]}" >plain.log 2>&1 && cmake --build plain -j2 >>plain.log 2>&1 ||
  { tail -20 plain.log; fail "building spdlog's suite plain"; }
cmake -S "$spdlog" -B adopted "${common[@]}" -DCMAKE_PREFIX_PATH="$work/prefix" \
  -DCMAKE_PROJECT_spdlog_utests_INCLUDE="$source/tests/frameworks/real_suites/adopt_catch2_v2.cmake" >adopted.log 2>&1 &&
  cmake --build adopted -j2 >>adopted.log 2>&1 || { tail -20 adopted.log; fail "building spdlog's suite adopted"; }
# Its tests write logs under the working directory.
suite() { (cd "$work/$1/tests" && shift && "$@" ./spdlog-utests) 2>&1; }

plain_summary=$(suite plain env | tail -2 | head -1)
adopted_summary=$(ALLOCGATE_OUT="$work/run1.json" suite adopted env | tail -2 | head -1)
[ "$plain_summary" = "$adopted_summary" ] && [[ $plain_summary == "All tests passed"* ]] ||
  fail "plain: '$plain_summary', adopted: '$adopted_summary'"

runs=${ALLOCGATE_VERDICT_RUNS:-5}
leak_runs "$runs" suite adopted env
cases=$(jq '.benchmarks | length' "$work/run1.json")
threaded=$(jq '[.benchmarks[] | select(.allocgate_other_thread_allocs)] | length' "$work/run1.json")

for ((i = 4; i <= runs; i++)); do
  "$allocgate" diff --bounds "$work/bounds.json" "$work/leak$i.json" >gate$i.log 2>&1 ||
    { grep REGRESSION gate$i.log; fail "run $i, unchanged, fails the bounds recorded from runs 1 to 3"; }
done
"$allocgate" diff --bounds "$work/bounds.json" "$work/run1.json" >gate.log 2>&1 ||
  { grep REGRESSION gate.log; fail "the first run fails the bounds"; }

ALLOCGATE_SITES=1 ALLOCGATE_OUT="$work/base.json" suite adopted env >/dev/null || fail "the run with sites"

# One allocation more per message formatted.
formatter=$spdlog/include/spdlog/pattern_formatter-inl.h
sed -i '/^SPDLOG_INLINE void pattern_formatter::format(const details::log_msg &msg, memory_buf_t &dest)$/{n;a\
    { std::string injected(100, '"'"'i'"'"'); asm volatile("" : : "r"(injected.data()) : "memory"); }
}' "$formatter"
grep -q "injected(100" "$formatter" || fail "the injection did not apply"
cmake --build adopted -j2 >>adopted.log 2>&1 || { tail -20 adopted.log; fail "building the injected suite"; }
ALLOCGATE_SITES=1 ALLOCGATE_OUT="$work/injected.json" suite adopted env >/dev/null || true
status=0
"$allocgate" diff --bounds "$work/bounds.json" "$work/injected.json" >injected.log 2>&1 || status=$?
[ "$status" = 1 ] || { cat injected.log; fail "the gate passed an injected allocation (exit $status)"; }
for test in "flush" "multi threads" "basic async test " "tp->wait_empty() " "basic_logging "; do
  grep -qF "REGRESSION $test:" injected.log || { grep REGRESSION injected.log; fail "'$test' is not a regression"; }
done
# Every regression leads with the injected line, however many of its
# messages the pool's worker formatted: none says no line grew.
injected_line=$(grep -n "injected(100" "$formatter" | cut -d: -f1)
status=0
"$allocgate" diff --bounds "$work/bounds.json" --base "$work/base.json" "$work/injected.json" >based.log 2>&1 || status=$?
[ "$status" = 1 ] || { cat based.log; fail "the gate with --base passed an injected allocation (exit $status)"; }
! grep -q "no line allocates more" based.log || { cat based.log; fail "a regression names no line"; }
grep -qF "pattern_formatter-inl.h:$injected_line" based.log || { cat based.log; fail "the injected line is not named"; }
echo "PASS: spdlog's suite, $cases cases ($threaded on other threads too): the same tests and assertions adopted; no leak in $runs runs; bounds from 3 runs hold in the rest; an injected allocation fails its async tests, its line named"
