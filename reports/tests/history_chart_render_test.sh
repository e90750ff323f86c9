#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Records three runs in a history database (the canary build, the same with
# canary/optimized regressed, then mended), renders `allocgate history chart
# --html` in headless Chromium and checks on the rendered page that every
# case has its chart drawn and that the two changes are marked and labelled.
# Exit 77 (ctest: skipped) where Chromium is not installed.
# Usage: history_chart_render_test.sh ALLOCGATE_WITH_CANARY ALLOCGATE_REGRESSED WORK_DIR
set -euo pipefail
allocgate=$1
regressed=$2
work=$3

source "$(dirname "$0")/chromium.sh"
require_chromium

rm -rf "$work"
mkdir -p "$work"
db="$work/history.db"
run() {  # BINARY COMMIT DATE
  "$1" run --no-timing --filter '^canary/' --out "$work/$2.json" >/dev/null 2>&1
  "$allocgate" history --db "$db" add --commit "$2" --date "$3" "$work/$2.json" >/dev/null
}
run "$allocgate" c1-clean 2026-12-01
run "$regressed" c2-regress 2026-12-02
run "$allocgate" c3-mended 2026-12-03
"$allocgate" history --db "$db" chart --html --out "$work/history.html"

# The page has no script; a copy with one measures what Chromium drew.
{
  sed 's#</body></html>##' "$work/history.html"
  cat <<'JS'
<script>
const charts = [...document.querySelectorAll('svg.history')];
const drawn = charts.filter(c => { const r = c.getBoundingClientRect(); return r.width > 300 && r.height > 200; });
const lines = [...document.querySelectorAll('polyline.series')].filter(l => l.getTotalLength() > 0);
const labels = [...document.querySelectorAll('text.change-label')]
  .filter(t => t.getBoundingClientRect().width > 0).map(t => t.textContent);
document.body.setAttribute('data-measured',
  `charts=${charts.length} drawn=${drawn.length} lines=${lines.length} changes=${labels.join(',')}`);
</script></body></html>
JS
} >"$work/measured.html"

render "$work/history.html" "$work/measured.html" 900,1400
measured=$(measured)
[ -n "$measured" ] || fail "the page did not render"
echo "rendered: $measured; screenshot $work/screenshot.png"
cases=$("$allocgate" list | grep -c '^canary/')
# Every canary case charted and drawn; allocs/op and bytes/op lines in each.
[[ "$measured" == *"charts=$cases drawn=$cases"* ]] || fail "expected $cases charts drawn: $measured"
lines=$(sed -E 's/.*lines=([0-9]+).*/\1/' <<<"$measured")
[ "$lines" -ge $((2 * cases)) ] || fail "only $lines lines drawn for $cases cases"
# The regression of canary/optimized and its mending, each labelled with its
# commit in every optimized case's chart; nothing in the naive ones.
optimized=$("$allocgate" list | grep -c '^canary/optimized/')
expected=$(printf 'c2-regress,c3-mended,%.0s' $(seq "$optimized"))
[[ "$measured" == *"changes=${expected%,}\""* ]] || fail "changes not marked as expected ($expected): $measured"

# Figures of every length on the axes (a 50 µs case with every digit of its
# double, fractions of an allocation, hundreds of megabytes): each label short
# and drawn inside its chart, never clipped at the edge.
timed_db="$work/timed.db"
for run in 1 2; do
  real=$([ $run = 1 ] && echo 50470.848572323746 || echo 61234.12345678901)
  cat >"$work/timed$run.json" <<JSON
{"context": {"allocgate_schema_version": 1, "allocgate_toolchain": "tc"}, "benchmarks": [
 {"name": "w/v/1", "allocs_per_op": 0.0007776049766718507, "bytes_per_op": 123456789.5, "real_time": $real,
  "ns_per_op_min": 40000.123456789, "ns_per_op_max": 70000.98765432101, "time_unit": "ns"}]}
JSON
  "$allocgate" history --db "$timed_db" add --commit "t$run" --date "2026-12-0$run" "$work/timed$run.json" >/dev/null
done
"$allocgate" history --db "$timed_db" chart --html --out "$work/timed.html"
{
  sed 's#</body></html>##' "$work/timed.html"
  cat <<'JS'
<script>
const texts = [...document.querySelectorAll('svg text')];
const outside = texts.filter(t => {
  const r = t.getBoundingClientRect(), s = t.ownerSVGElement.getBoundingClientRect();
  return r.width > 0 && (r.left < s.left - 0.5 || r.right > s.right + 0.5 || r.top < s.top - 0.5 ||
                         r.bottom > s.bottom + 0.5);
}).map(t => t.textContent);
const ticks = [...document.querySelectorAll('text.tick')].map(t => t.textContent);
document.body.setAttribute('data-measured', `texts=${texts.length} outside=${outside.join('|')} ticks=${ticks.join('|')}`);
</script></body></html>
JS
} >"$work/timed-measured.html"
render "$work/timed.html" "$work/timed-measured.html" 900,1400
measured=$(measured)
echo "rendered: $measured"
[[ "$measured" == *"outside= ticks="* ]] || fail "labels drawn outside the chart: $measured"
expected_ticks='ticks=0.00078|123M|40.0 µs|70.0 µs"'
[[ "$measured" == *"$expected_ticks"* ]] || fail "tick labels not as expected: $measured"
echo "PASS"
