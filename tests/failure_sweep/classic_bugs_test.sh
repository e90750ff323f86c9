#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The failure sweep over classic_bugs_test.cpp (the bugs of classic_bugs.h): each bug found at its line
# with its outcome, nothing else flagged, a finding run again alone by the
# command the sweep prints, and the retry loop hung once memory runs out.
# The gate keeps a swept suite so: its findings recorded, a new one fails,
# one marked on purpose fails nothing. A static built on first use is no
# point, whichever test builds it, nor GoogleTest's report of an exception
# out of a test's body (points_test.cpp).
# Usage: classic_bugs_test.sh SUITE_BINARY CLASSIC_BUGS_HEADER WORK_DIR ALLOCGATE POINTS_BINARY
set -euo pipefail
suite=$1
source=$2
work=$3
allocgate=$4
points_suite=$5
rm -rf "$work"
mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
classic_bugs_header=$source
# shellcheck source=sweep_checks.sh
. "$(dirname "$0")/sweep_checks.sh"


status=0
"$suite" --allocgate_fail_each --allocgate_fail_timeout=5 --allocgate_out="$work/sweep.json" >"$work/sweep.log" 2>&1 ||
  status=$?
[ "$status" = 1 ] || { cat "$work/sweep.log"; fail "the sweep's findings did not fail the run (exit $status)"; }
check_classic_findings "$work/sweep.json" "$work/sweep.log"
# The figures are the tests' own, as without the sweep.
"$suite" --allocgate_out="$work/plain.json" >/dev/null 2>&1 || true
diff <(jq -r '.benchmarks[] | [.name, ."allocs/op", ."bytes/op"] | @tsv' "$work/plain.json") \
  <(jq -r '.benchmarks[] | [.name, ."allocs/op", ."bytes/op"] | @tsv' "$work/sweep.json") ||
  fail "the sweep changed the tests' figures"

# A finding run alone, by the command printed: the leak's point, here.
command=$(grep -o "alone: .*RawNewBeforeAThrowingPushBack --allocgate_fail_at=[0-9]*" "$work/sweep.log" | head -1)
[ -n "$command" ] || { cat "$work/sweep.log"; fail "no command to run the leak alone"; }
status=0
${command#alone: } --allocgate_fail_on_leak >"$work/alone.log" 2>&1 || status=$?
[ "$status" = 1 ] && grep -q "leaked .* bytes in 2 blocks" "$work/alone.log" ||
  { cat "$work/alone.log"; fail "the finding run alone: exit $status"; }

# Memory run out: every allocation after the failing one fails too. The
# retry loop never ends, and is killed at the time limit.
status=0
"$suite" --gtest_filter='RetryLoop.*:Clean.*' --allocgate_fail_each --allocgate_fail_rest --allocgate_fail_timeout=2 \
  --allocgate_out="$work/rest.json" >"$work/rest.log" 2>&1 || status=$?
[ "$status" = 1 ] || { cat "$work/rest.log"; fail "the retry loop did not fail the run (exit $status)"; }
check_retry_hung "$work/rest.json" "$work/rest.log"

# The table both FirstUse tests read is built by the first: no point of
# either, so each test's one allocation is its only point, swept whole or alone.
"$points_suite" --gtest_filter='FirstUse.*' --allocgate_fail_each --allocgate_out="$work/first_use.json" >"$work/first_use.log" 2>&1 ||
  { cat "$work/first_use.log"; fail "the FirstUse tests swept: a finding"; }
"$points_suite" --gtest_filter=FirstUse.UsesTheTable --allocgate_fail_each --allocgate_out="$work/first_use_alone.json" \
  >"$work/first_use_alone.log" 2>&1 || { cat "$work/first_use_alone.log"; fail "FirstUse.UsesTheTable swept alone"; }
points=$(jq -r '.benchmarks[] | "\(.name) \(.allocgate_sweep.attempts) \(.allocgate_sweep.outcomes.propagated)"' \
  "$work/first_use.json" "$work/first_use_alone.json")
[ "$points" = $'FirstUse.BuildsTheTable 1 1\nFirstUse.UsesTheTable 1 1\nFirstUse.UsesTheTable 1 1' ] ||
  fail "a static built on first use made points: $points"
# The body's two allocations are its points, each failing propagated; what
# GoogleTest allocates to report the exception is neither.
status=0
"$points_suite" --gtest_filter=OutOfTheBody.ARuntimeError --allocgate_fail_each --allocgate_out="$work/thrown.json" \
  >"$work/thrown.log" 2>&1 || status=$?
[ "$status" = 1 ] || { cat "$work/thrown.log"; fail "the test that throws: exit $status"; }
points=$(jq -c '.benchmarks[] | [.name, ."allocs/op", .allocgate_sweep.attempts, .allocgate_sweep.outcomes]' "$work/thrown.json")
[ "$points" = '["OutOfTheBody.ARuntimeError",2,2,{"propagated":2}]' ] ||
  fail "GoogleTest's report of an exception made points: $points"

# A death assertion's matcher is GoogleTest's: the test's one allocation is
# its one point, each point named as every attempt is. A std::bad_alloc out
# of EXPECT_THROW's and EXPECT_NO_THROW's statements is propagated.
for each in sites all; do
  "$points_suite" --gtest_filter='Death.*:InAnAssertion.*' --allocgate_fail_each=$each \
    --allocgate_out="$work/assertions_$each.json" >"$work/assertions_$each.log" 2>&1 ||
    { cat "$work/assertions_$each.log"; fail "the death and throw assertions swept (=$each): a finding"; }
  points=$(jq -c '[.benchmarks[] | [.name, ."allocs/op", .allocgate_sweep.attempts, .allocgate_sweep.outcomes]]' \
    "$work/assertions_$each.json")
  [ "$points" = '[["Death.TheMatcherIsNoPoint",1,1,{"propagated":1}],'\
'["InAnAssertion.ThrowsBadAllocNotTheExpected",2,2,{"propagated":2}],'\
'["InAnAssertion.ThrowsBadAllocNotNothing",1,1,{"propagated":1}]]' ] ||
    fail "the death and throw assertions' points (=$each): $points"
done

# A sample drawn from a seed, printed, draws the same points again.
"$suite" --gtest_filter='Clean.*' --allocgate_fail_each=2 --allocgate_out="$work/sample.json" >"$work/sample.log" 2>&1
seed=$(grep -o 'allocgate_fail_seed=[0-9]*' "$work/sample.log" | head -1 | cut -d= -f2)
[ -n "$seed" ] || { cat "$work/sample.log"; fail "the sample's seed is not printed"; }
[ "$(jq '[.benchmarks[].allocgate_sweep.tried] | max' "$work/sample.json")" -le 2 ] || fail "more points than the sample's 2"

# The gate: the sweep's findings recorded, then held. The whole suite's six
# findings (the noexcept function's two allocations each terminate).
"$allocgate" diff --update --bounds "$work/bounds.json" "$work/sweep.json" >"$work/update.log" 2>&1 ||
  { cat "$work/update.log"; fail "the sweep's bounds were not recorded"; }
[ "$(jq '[.toolchains[][].sweep | length] | add' "$work/bounds.json")" = 6 ] ||
  { cat "$work/bounds.json"; fail "not the six findings recorded"; }
"$allocgate" diff --bounds "$work/bounds.json" "$work/sweep.json" >"$work/gate.log" 2>&1 ||
  { cat "$work/gate.log"; fail "the gate failed on the findings it recorded"; }
# A finding the bounds do not record, as when the leak is new, fails the gate at its line.
jq '.toolchains[]["ClassicBugs.RawNewBeforeAThrowingPushBack"].sweep = []' "$work/bounds.json" >"$work/before.json"
status=0
"$allocgate" diff --bounds "$work/before.json" "$work/sweep.json" >"$work/gate.log" 2>&1 || status=$?
[ "$status" = 1 ] && grep -q "^REGRESSION ClassicBugs.RawNewBeforeAThrowingPushBack: failure sweep: leaked at .*classic_bugs.h:$(classic_line ': leaked')) with allocation 2 failing" "$work/gate.log" ||
  { cat "$work/gate.log"; fail "a new finding did not fail the gate at its line (exit $status)"; }
status=0
"$allocgate" diff --update --bounds "$work/before.json" "$work/sweep.json" >"$work/update.log" 2>&1 || status=$?
[ "$status" != 0 ] && grep -q "not recording ClassicBugs.RawNewBeforeAThrowingPushBack: failure sweep: leaked" "$work/update.log" ||
  { cat "$work/update.log"; fail "--update recorded a new finding without --allow-loosen"; }
# On purpose: the catch-all's default marked so in the bounds file the test
# runs with, its test passes, and the gate holds it.
jq '.toolchains[]["ClassicBugs.ACatchAllThatReturnsADefault"].sweep[0] += {"on_purpose": true, "note": "0 is the caller'"'"'s default"}' \
  "$work/bounds.json" >"$work/on_purpose.json"
ALLOCGATE_BOUNDS="$work/on_purpose.json" "$suite" --gtest_filter=ClassicBugs.ACatchAllThatReturnsADefault \
  --allocgate_fail_each --allocgate_out="$work/on_purpose_run.json" >"$work/on_purpose.log" 2>&1 ||
  { cat "$work/on_purpose.log"; fail "a finding marked on purpose failed its test"; }
[ "$(jq '.benchmarks[0].allocgate_sweep.findings[0].on_purpose' "$work/on_purpose_run.json")" = true ] ||
  fail "the report does not say the finding is on purpose"
"$suite" --gtest_filter=ClassicBugs.ACatchAllThatReturnsADefault --allocgate_fail_each >/dev/null 2>&1 &&
  fail "without the bounds file, the finding did not fail its test"
echo "PASS: every classic bug found at its line, the clean tests clean, a finding run alone, the retry loop hung, the gate held"
