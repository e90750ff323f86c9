# SPDX-License-Identifier: Apache-2.0
# The failure sweep's checks over a run of the classic bugs (classic_bugs.h),
# whichever framework ran them: sourced by classic_bugs_test.sh (GoogleTest)
# and tests/frameworks/catch2/run_catch2.sh (Catch2 v3). Needs fail().

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
