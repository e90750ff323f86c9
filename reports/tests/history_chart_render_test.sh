#!/usr/bin/env bash
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
echo "PASS"
