#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Every kind of page allocgate writes, opened in Debian's Chromium by
# page_browser_test.js: a run of the workloads with sites, a user's Google
# Benchmark JSON with sites, a compare of a regression (the canary build
# against the regressed one, both with --sites) and a history of three runs.
# Screenshots and pages are left in WORK_DIR.
# Exit 77 (ctest: skipped) where Chromium, Node.js or puppeteer-core is missing.
# A test binary's report with sites: a table per test suite, sorted by a
# click, each test's flame graph drawn only when its details are opened.
# Usage: pages_browser_test.sh ALLOCGATE ALLOCGATE_REGRESSED REPORT WORK_DIR [BENCHMARK_BINARY|-] [TEST_BINARY]
set -euo pipefail
allocgate=$1
regressed=$2
report=$3
work=$4
bench=${5:-}
[ "$bench" = - ] && bench=
tests=${6:-}
here=$(cd "$(dirname "$0")" && pwd)

command -v node >/dev/null || { echo "skipped: node is not installed"; exit 77; }
[ -d "$here/../pages/node_modules/puppeteer-core" ] ||
  { echo "skipped: puppeteer-core is not installed (ci/install-deps.sh test installs it)"; exit 77; }

rm -rf "$work"
mkdir -p "$work"
check() { node "$here/page_browser_test.js" "$@"; }

# A report of the workloads with sites: every workload's tables, charts and
# its variants' flame graphs.
"$allocgate" table --html --out "$work/report.html" "$report"
check "$work/report.html" "$work/report.png" --charts 6 --flames 2 --tooltip-text "v1: 1096"

# A user's Google Benchmark JSON, written with --allocgate_sites.
if [ -n "$bench" ]; then
  "$bench" --allocgate_sites --benchmark_min_time=0.001 --benchmark_repetitions=3 \
    --benchmark_out="$work/bench.json" --benchmark_out_format=json >/dev/null 2>&1
  "$allocgate" table --html --out "$work/bench.html" "$work/bench.json"
  check "$work/bench.html" "$work/bench.png"
fi

# Names with controls, a bidirectional override, line separators and a
# backslash: shown as code points everywhere (tables, flame graphs, charts),
# the backslash as it is.
hostile=$(printf '%s' '{"context": {"allocgate_schema_version": 1, "allocgate_toolchain": "tc"}, "benchmarks": [' \
  '{"name": "evil\u202ecod\u009b/\\u003c/1", "allocs_per_op": 2, "stacks": [{"frames": ["main", "line\u2028sep\u2029para"], "allocs_per_op": 2}]},' \
  '{"name": "evil\u202ecod\u009b/\\u003c/2", "allocs_per_op": 3, "stacks": [{"frames": ["main", "f\u2066g"], "allocs_per_op": 3}]}]}')
printf '%s' "$hostile" >"$work/hostile.json"
"$allocgate" table --html --out "$work/hostile.html" "$work/hostile.json"
check "$work/hostile.html" "$work/hostile.png" --flames 1 --visible 'evil\u202ecod\u009b'

# A regression between two commits: the canary's optimized variant allocates
# again in the regressed build.
"$allocgate" run --no-timing --sites --filter '^canary/' --out "$work/base.json" >/dev/null 2>&1
"$regressed" run --no-timing --sites --filter '^canary/' --out "$work/head.json" >/dev/null 2>&1
"$allocgate" compare --html --out "$work/compare.html" "$work/base.json" "$work/head.json"
changed=$("$allocgate" list | grep -c '^canary/optimized/')
check "$work/compare.html" "$work/compare.png" --charts 0 --flames "$changed" --differential
grep -q 'id="case-canary/optimized/' "$work/compare.html" || { echo "FAIL: no section per changed case"; exit 1; }

# A history of three runs: a regression and its mending, marked in every
# chart of a case that changed.
db="$work/history.db"
"$allocgate" history --db "$db" add --commit c1-clean --date 2026-12-01 "$work/base.json" >/dev/null
"$allocgate" history --db "$db" add --commit c2-regress --date 2026-12-02 "$work/head.json" >/dev/null
"$allocgate" history --db "$db" add --commit c3-mended --date 2026-12-03 "$work/base.json" >/dev/null
"$allocgate" history --db "$db" chart --html --out "$work/history.html"
check "$work/history.html" "$work/history.png" --flames 0 --marks c2-regress,c3-mended
# The hostile names in a history's charts and tables: shown as code points.
"$allocgate" history --db "$work/hostile.db" add --commit h1 --date 2026-12-01 "$work/hostile.json" >/dev/null
"$allocgate" history --db "$work/hostile.db" add --commit h2 --date 2026-12-02 "$work/hostile.json" >/dev/null
"$allocgate" history --db "$work/hostile.db" chart --html --out "$work/hostile-history.html"
check "$work/hostile-history.html" "$work/hostile-history.png" --flames 0 --visible 'evil\u202ecod\u009b'

# Large reports (large_report.py): each page draws at load only what is on
# its first screen, and says there what it cut. By hand, on an idle
# machine, add --max-ms 2000 to check the time each takes to open.
large() { python3 "$here/large_report.py" "$@"; }
large families 100000 200 "$work/families.json"
large tests 100000 1000 "$work/tests100k.json"
large tests 10000 1000 "$work/tests10k.json"
large family 100000 "$work/family.json"
large families 10000 10000 "$work/base10k.json"
large changed 10000 "$work/head10k.json"
for shape in families tests100k tests10k family; do
  "$allocgate" table --html --out "$work/$shape.html" "$work/$shape.json" 2>/dev/null
done
"$allocgate" compare --html --out "$work/compare10k.html" "$work/base10k.json" "$work/head10k.json" >/dev/null 2>&1
check "$work/families.html" "$work/families.png" --large 'shows the first 10000 of 100000 workloads and families'
check "$work/tests100k.html" "$work/tests100k.png" --large 'shows the first 2000 of 10000 test suites'
check "$work/tests10k.html" "$work/tests10k.png" --large -
check "$work/family.html" "$work/family.png" --large '99000 cases of the workloads and families shown are not in them'
check "$work/compare10k.html" "$work/compare10k.png" --large -
for commit in c1 c2 c3; do
  "$allocgate" history --db "$work/large.db" add --commit $commit --date 2026-12-01 "$work/base10k.json" >/dev/null 2>&1
done
"$allocgate" history --db "$work/large.db" chart --html --out "$work/history10k.html"
check "$work/history10k.html" "$work/history10k.png" --large -

if [ -n "$tests" ]; then
  "$tests" --allocgate_sites --gtest_filter=-Failures.*:Death.* --allocgate_out="$work/tests.json" >/dev/null 2>&1
  "$allocgate" table --html --out "$work/tests.html" "$work/tests.json"
  check "$work/tests.html" "$work/tests.png" --charts 0 --flames 1 --tests  # the suite at a glance
  grep -q 'id="suite-Leaks"' "$work/tests.html" || { echo "FAIL: no section for the suite Leaks"; exit 1; }
fi
echo "PASS"
