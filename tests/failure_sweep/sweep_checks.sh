# SPDX-License-Identifier: Apache-2.0
# The failure sweep's checks over a run of the classic bugs (classic_bugs.h),
# whichever framework ran them: sourced by classic_bugs_test.sh (GoogleTest),
# tests/frameworks/catch2/run_catch2.sh (Catch2 v3) and
# tests/frameworks/catch2_v2/run_catch2_v2.sh and
# tests/frameworks/doctest/run_doctest.sh. Needs fail(); check_framework_sweep
# needs suite_checks.sh's figures_of too.

# The line of classic_bugs.h marked "found here$1".
classic_line() { grep -n -- "found here$1" "$classic_bugs_header" | head -1 | cut -d: -f1; }

# Each test: its findings, "outcome@line" (the line's number), sorted, unique.
sweep_findings() {
  jq -r '.benchmarks[] | [.name, ([.allocgate_sweep.findings[]? | .outcome + "@" + (.line | capture(":(?<n>[0-9]+)\\)$").n // "?")] | unique | join(","))] | @tsv' "$1"
}

# check_classic_findings REPORT LOG: each bug found at its line with its
# outcome, the clean tests clean, no test's sweep doubted.
check_classic_findings() {
  local report=$1 log=$2 expected clean
  expected=$(printf '%s\t%s\n' \
    ClassicBugs.RawNewBeforeAThrowingPushBack "leaked@$(classic_line ': leaked')" \
    ClassicBugs.ANoexceptFunctionThatAllocates "terminated@$(classic_line ': terminated')" \
    ClassicBugs.ACatchAllThatReturnsADefault "swallowed@$(classic_line ': swallowed$')" \
    ClassicBugs.ASizeUpdatedBeforeTheAllocation "swallowed@$(classic_line ': swallowed (the count')" \
    ClassicBugs.ANothrowNullUsed "crashed@$(classic_line ': crashed')" \
    RetryLoop.RetriesOnBadAlloc "" \
    Clean.EveryFailurePropagates "" \
    Clean.AFailureHandledWithAFallback "")
  diff <(echo "$expected") <(sweep_findings "$report") || { cat "$log"; fail "the findings differ"; }
  # The clean tests: every point tried, each propagated or handled.
  clean=$(jq -r '.benchmarks[] | select(.name | startswith("Clean.")) | [.name, .allocgate_sweep.tried, (.allocgate_sweep.outcomes | to_entries | map("\(.key)=\(.value)") | join(","))] | @tsv' "$report")
  echo "$clean" | grep -q $'Clean.EveryFailurePropagates\t[1-9][0-9]*\tpropagated=[1-9]' ||
    fail "the clean test's points did not all propagate: $clean"
  echo "$clean" | grep -q $'Clean.AFailureHandledWithAFallback\t.*handled=1' || fail "the fallback is not handled: $clean"
  [ "$(jq '[.benchmarks[] | select(.allocgate_sweep.nondeterministic)] | length' "$report")" = 0 ] ||
    fail "a test called nondeterministic"
}

# check_retry_hung REPORT LOG: with every later allocation failing, the
# retry loop hung at its line and the clean tests still clean.
check_retry_hung() {
  diff <(printf '%s\t%s\n' RetryLoop.RetriesOnBadAlloc "hung@$(classic_line ' with fail_rest: hung')" \
    Clean.EveryFailurePropagates "" Clean.AFailureHandledWithAFallback "") <(sweep_findings "$1") ||
    { cat "$2"; fail "with every later allocation failing, the findings differ"; }
}

# swept SPELLING BINARY SETTING=VALUE... -- ARG...: BINARY run with
# allocgate's settings (fail-each=sites, out=PATH...) as flags
# (--allocgate-fail-each=sites; SPELLING "flags": Catch2 v3, doctest) or as
# variables (ALLOCGATE_FAIL_EACH=sites; "environment": Catch2 v2, which
# refuses a flag it does not know), then ARGs.
swept() {
  local spelling=$1 binary=$2 flags=() variables=() name
  shift 2
  while [ "$1" != -- ]; do
    name=${1%%=*}
    if [ "$spelling" = environment ]; then
      variables+=("ALLOCGATE_$(echo "$name" | tr a-z- A-Z_)=${1#*=}")
    else
      flags+=("--allocgate-$1")
    fi
    shift
  done
  shift
  env "${variables[@]}" "$binary" "${flags[@]}" "$@"
}

# check_framework_sweep SPELLING BINARY FAILED_STATUS WORK REST_FILTER [ARG...]:
# a Catch2 or doctest build of classic_bugs_cases.cpp swept (with ARGs, the
# settings spelled as swept() does): each bug at its line, the runs' figures
# as without the sweep, the leak's finding run alone by the command printed,
# and, with every later allocation failing too, the retry loop (and the
# clean tests, which REST_FILTER selects) hung. FAILED_STATUS: the
# framework's exit status for a failed test, "nonzero" where it counts them.
check_framework_sweep() {
  local spelling=$1 binary=$2 failed=$3 work=$4 rest_filter=$5 status command at
  shift 5
  failed_with() { [ "$1" = "$failed" ] || { [ "$failed" = nonzero ] && [ "$1" != 0 ]; }; }
  status=0
  swept "$spelling" "$binary" fail-each=sites fail-timeout=5 out="$work/sweep.json" -- "$@" \
    >"$work/sweep.log" 2>&1 || status=$?
  failed_with "$status" || { cat "$work/sweep.log"; fail "the sweep's findings did not fail the run (exit $status)"; }
  check_classic_findings "$work/sweep.json" "$work/sweep.log"
  swept "$spelling" "$binary" out="$work/unswept.json" -- >/dev/null 2>&1 || true
  diff <(figures_of "$work/unswept.json") <(figures_of "$work/sweep.json") || fail "the sweep changed the runs' figures"
  if [ "$spelling" = environment ]; then
    at="ALLOCGATE_FAIL_AT=[0-9]* .*RawNewBeforeAThrowingPushBack'"
  else
    at=".*RawNewBeforeAThrowingPushBack' --allocgate-fail-at=[0-9]*"
  fi
  command=$(grep -o "alone: $at" "$work/sweep.log" | head -1) || true
  [ -n "$command" ] || { cat "$work/sweep.log"; fail "no command to run the leak alone"; }
  status=0
  if [ "$spelling" = environment ]; then
    eval "ALLOCGATE_FAIL_ON_LEAK=1 ${command#alone: }" >"$work/alone.log" 2>&1 || status=$?
  else
    eval "${command#alone: } --allocgate-fail-on-leak" >"$work/alone.log" 2>&1 || status=$?
  fi
  failed_with "$status" && grep -q "leaked .* bytes in 2 blocks" "$work/alone.log" ||
    { cat "$work/alone.log"; fail "the finding run alone: exit $status"; }
  status=0
  swept "$spelling" "$binary" fail-each=sites fail-rest=1 fail-timeout=2 out="$work/rest.json" -- "$rest_filter" "$@" \
    >"$work/rest.log" 2>&1 || status=$?
  failed_with "$status" || { cat "$work/rest.log"; fail "the retry loop did not fail the run (exit $status)"; }
  check_retry_hung "$work/rest.json" "$work/rest.log"
}
