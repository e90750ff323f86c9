# SPDX-License-Identifier: Apache-2.0
# The checks run_catch2.sh, run_catch2_v2.sh and run_doctest.sh share, on a
# tutorial suite built as a project outside the tree. Sourced; each reads
# $work, $build (allocgate's build tree) and $suite (the suite's source).

fail() { echo "FAIL: $*" >&2; exit 1; }

# Each case of a report, one line each: name, allocs/op, bytes/op, leaked
# bytes, failed.
figures_of() {
  jq -r '.benchmarks[] | [.name, ."allocs/op", ."bytes/op", ."leaked_bytes/op", (.allocgate_test_failed // false)] | @tsv' "$1"
}

# The line of $suite that holds the text $1.
line_of() { grep -nF -- "$1" "$suite" | head -1 | cut -d: -f1; }

# check_static REPORT: the static built on first use is reported apart, once.
check_static() {
  local one_time
  one_time=$(jq -r '.benchmarks[] | select(.name == "a static built on first use") | [.allocgate_one_time_allocs, .allocgate_one_time_bytes] | @tsv' "$1")
  [ "$one_time" = "$(printf '1\t101')" ] || fail "the static's first use: '$one_time', not 1 allocation of 101 B"
}

# check_shards WHOLE_FIGURES SHARD_ARGS...: each shard (its flags one
# word, split here) writes a report into one directory; allocgate merge
# joins them into the whole run's cases.
check_shards() {
  local whole=$1 shard merged
  shift
  mkdir -p "$work/shards"
  for shard in "$@"; do
    # shellcheck disable=SC2086  # a shard's flags, split
    ALLOCGATE_OUT="$work/shards" "$work/build/tutorial_tests" $shard >/dev/null 2>&1 || true
  done
  [ "$(find "$work/shards" -name 'tutorial_tests.*.json' | wc -l)" = $# ] || fail "$# shards did not write $# reports"
  "$build/reports/allocgate" merge --out "$work/merged.json" "$work/shards"/*.json >"$work/merge.log" 2>&1 ||
    { cat "$work/merge.log"; fail "merging the shards"; }
  merged=$(figures_of "$work/merged.json" | sort)
  diff <(echo "$whole" | sort) <(echo "$merged") || fail "the merged shards differ from the whole run"
}

# check_framework_code_cache WHOLE NAMESPACE: a process whose report goes
# into a directory keeps what it found of the framework's code there for the
# next process of the program (ctest's process per test); the next takes it,
# with the same figures, and a cache that does not parse is found again.
check_framework_code_cache() {
  local whole=$1 namespace=$2 dir=$work/cache cache
  rm -rf "$dir" && mkdir -p "$dir"
  ALLOCGATE_OUT="$dir" "$work/build/tutorial_tests" >/dev/null 2>&1 || true
  cache=$(find "$dir" -name ".allocgate-framework-code.$namespace.*")
  [ -n "$cache" ] && [ "$(echo "$cache" | wc -l)" = 1 ] || fail "no cache of $namespace's code beside the report"
  head -1 "$cache" | grep -qx "allocgate framework code 2 $namespace" || fail "the cache's first line: $(head -1 "$cache")"
  rm -f "$dir"/*.json
  ALLOCGATE_OUT="$dir" "$work/build/tutorial_tests" >/dev/null 2>&1 || true
  diff <(echo "$whole") <(figures_of "$dir"/*.json) || fail "with the cache taken, the runs' figures differ"
  rm -f "$dir"/*.json
  echo "f zz 10" >>"$cache"
  ALLOCGATE_OUT="$dir" "$work/build/tutorial_tests" >/dev/null 2>&1 || true
  diff <(echo "$whole") <(figures_of "$dir"/*.json) || fail "beside a cache that does not parse, the figures differ"
  ! grep -q "^f zz" "$cache" || fail "a cache that does not parse was kept"
}

# check_leak_failure LOG STATUS EXPECTED_STATUS LEAKED_BYTES SUMMARY_REGEX:
# with the leak check on, the leaking tests (and they alone) fail through
# the framework, naming the line that allocated; the framework counts them.
# A worker's block and an exception's are not leaks.
check_leak_failure() {
  local log=$1 status=$2 expected=$3 bytes=$4 summary=$5 line
  [ "$status" = "$expected" ] || { cat "$log"; fail "with the leak check: exit $status, not $expected"; }
  line=$(line_of "new std::string(50, 'l')")
  grep -q "a deliberate leak leaked $bytes bytes in 2 blocks" "$log" || { cat "$log"; fail "the leak is not reported"; }
  grep -q "tutorial_test.cpp:$line" "$log" || { cat "$log"; fail "the leak's line $line is not named"; }
  check_leaks_named "$log" || { cat "$log"; fail "the leaks named are not the two the suite makes"; }
  grep -Eq "$summary" "$log" || { cat "$log"; fail "the framework does not count the leak as a failure"; }
}

# check_leaks_named LOG: the log of a run with the leak check names the two
# leaks, the small one at its line, and no other test.
check_leaks_named() {
  grep -q "a deliberate leak leaked" "$1" && grep -q "a small leak leaked 4 bytes in 1 block" "$1" &&
    grep -q "tutorial_test.cpp:$(line_of "new int(4)")" "$1" && [ "$(grep -c " leaked [0-9]* bytes" "$1")" = 2 ]
}

# check_verdicts_hold COMMAND...: the leak check's verdicts are the same in
# every one of ALLOCGATE_VERDICT_RUNS runs (5; ci/test.sh --long: 100)
# with the addresses randomized, and as many with them fixed (setarch -R):
# a verdict must not depend on where a block or a frame happens to be.
check_verdicts_hold() {
  local runs=${ALLOCGATE_VERDICT_RUNS:-5} i layout log
  for layout in randomized fixed; do
    for ((i = 1; i <= runs; i++)); do
      log=$work/verdict.log
      if [ $layout = fixed ]; then
        setarch "$(uname -m)" -R "$@" >"$log" 2>&1 || true
      else
        "$@" >"$log" 2>&1 || true
      fi
      check_leaks_named "$log" || { cat "$log"; fail "run $i of $runs, addresses $layout: the leaks named differ"; }
    done
  done
  echo "the same leaks named in $runs runs with addresses randomized and $runs with them fixed" >&2
}

# check_gate REPORT GROWN_REPORT TEST: bounds recorded from REPORT pass
# again; GROWN_REPORT (the suite with one allocation added in TEST, with
# sites) fails them, naming TEST and the added line.
check_gate() {
  local allocgate=$build/reports/allocgate status=0 line
  "$allocgate" diff --update --bounds "$work/bounds.json" "$1" >"$work/record.log" 2>&1 ||
    { cat "$work/record.log"; fail "recording the bounds"; }
  "$allocgate" diff --bounds "$work/bounds.json" "$1" >"$work/gate.log" 2>&1 ||
    { cat "$work/gate.log"; fail "the recorded bounds do not pass again"; }
  "$allocgate" diff --bounds "$work/bounds.json" "$2" >"$work/grown.log" 2>&1 || status=$?
  line=$(line_of "const std::string grown(100, 'g');")
  [ "$status" = 1 ] || { cat "$work/grown.log"; fail "the gate passed an added allocation (exit $status)"; }
  grep -qF "$3" "$work/grown.log" && grep -q "tutorial_test.cpp:$line" "$work/grown.log" ||
    { cat "$work/grown.log"; fail "the gate does not name the test and the line $line"; }
}

# check_report_outputs BINARY STATUS EXIT_ARGS...: the report goes where
# its path leads and replaces nothing else there (report_output.h): through
# a symlink, the link kept; into a FIFO in place, its reader given the
# report; over a read-only file, its mode kept. A write that fails fails
# the run (exit 1), a path that cannot be written is refused before the
# first test (exit 2, one line), and a run that ends in a test (BINARY
# EXIT_ARGS...) says so and leaves no earlier report for the gate. STATUS:
# the suite's own exit status.
check_report_outputs() {
  local bin=$1 expected=$2 out=$work/outputs status reader
  shift 2
  rm -rf "$out" && mkdir -p "$out/kept"
  ln -s kept/real.json "$out/link.json"
  status=0
  ALLOCGATE_OUT=$out/link.json "$bin" >"$out/log" 2>&1 || status=$?
  [ "$status" = "$expected" ] && [ -L "$out/link.json" ] && jq -e '.benchmarks | length > 0' "$out/kept/real.json" >/dev/null ||
    { cat "$out/log"; fail "a report through a symlink: exit $status, link or target wrong"; }

  mkfifo "$out/fifo"
  cat "$out/fifo" >"$out/from_fifo.json" &
  reader=$!
  status=0
  ALLOCGATE_OUT=$out/fifo "$bin" >"$out/log" 2>&1 || status=$?
  wait "$reader"
  [ "$status" = "$expected" ] && [ -p "$out/fifo" ] && jq -e '.benchmarks | length > 0' "$out/from_fifo.json" >/dev/null ||
    { cat "$out/log"; fail "a report into a FIFO: exit $status, FIFO replaced or its reader given nothing"; }

  echo '{}' >"$out/read_only.json" && chmod 0444 "$out/read_only.json"
  status=0
  ALLOCGATE_OUT=$out/read_only.json "$bin" >"$out/log" 2>&1 || status=$?
  [ "$status" = "$expected" ] && [ "$(stat -c %a "$out/read_only.json")" = 444 ] &&
    jq -e '.benchmarks | length > 0' "$out/read_only.json" >/dev/null ||
    { cat "$out/log"; fail "a report over a read-only file: exit $status, mode $(stat -c %a "$out/read_only.json")"; }

  # A file size limit of 1 KB: the report's write fails as on a full disk.
  # The suite's output goes through a pipe, which the limit does not reach.
  (
    trap '' XFSZ
    ulimit -f 1
    status=0
    ALLOCGATE_OUT=$out/full.json "$bin" 2>&1 || status=$?
    echo "exit $status"
  ) | cat >"$out/log"
  [ "$(tail -1 "$out/log")" = "exit 1" ] && grep -q "^allocgate: report: $out/full.json: " "$out/log" &&
    [ ! -e "$out/full.json" ] || { cat "$out/log"; fail "a report whose write fails: the run does not fail"; }

  status=0
  ALLOCGATE_OUT=$out/missing/dir/r.json "$bin" >"$out/log" 2>&1 || status=$?
  [ "$status" = 2 ] && [ "$(wc -l <"$out/log")" = 1 ] && grep -q "missing/dir/r.json: cannot write: " "$out/log" ||
    { cat "$out/log"; fail "a report that cannot be written: exit $status, not refused in one line before the tests"; }

  echo '{"benchmarks": []}' >"$out/earlier.json"
  status=0
  ALLOCGATE_OUT=$out/earlier.json "$bin" "$@" >"$out/log" 2>&1 || status=$?
  [ "$status" = 0 ] && [ ! -s "$out/earlier.json" ] &&
    grep -qF "allocgate: the run ended (std::exit or std::quick_exit) in ends the process before its report was written: no report at $out/earlier.json" "$out/log" ||
    { cat "$out/log"; fail "a run that ends in a test: exit $status, an earlier report left or nothing said"; }
}

# check_cxx11_suite: the C++11 suite (cxx11_test.cpp, which static_asserts
# its standard), whose main is in an OBJECT library that links the
# integration, as nlohmann/json's is: built, and its one test counted.
check_cxx11_suite() {
  local got
  ALLOCGATE_OUT=$work/cxx11.json "$work/build/cxx11_tests" >"$work/cxx11.log" 2>&1 ||
    { cat "$work/cxx11.log"; fail "the C++11 suite failed"; }
  got=$(figures_of "$work/cxx11.json")
  [ "$got" = "$(printf 'a C++11 suite is counted\t1\t101\t0\tfalse')" ] || fail "the C++11 suite's figures: '$got'"
}

# The size of the standard library's std::string: a leaked one's object.
string_size() {
  printf '#include <string>\nint main() { return sizeof(std::string); }' | g++ -x c++ - -o "$work/size" && "$work/size"
  echo $?
}
