#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Renders `allocgate table --html` in headless Chromium, takes a screenshot,
# and checks on the rendered page that every chart is drawn with real size.
# Exit 77 (ctest: skipped) where Chromium is not installed.
# Usage: html_render_test.sh ALLOCGATE REPORT WORK_DIR
set -euo pipefail
allocgate=$1
report=$2
work=$3

source "$(dirname "$0")/chromium.sh"
require_chromium

rm -rf "$work"
mkdir -p "$work"
"$allocgate" table --html --out "$work/report.html" "$report"

# The page has no script; a copy with one measures what Chromium drew.
{
  sed 's#</body></html>##' "$work/report.html"
  cat <<'JS'
<script>
const charts = [...document.querySelectorAll('svg.chart')];
const drawn = charts.filter(c => { const r = c.getBoundingClientRect(); return r.width > 100 && r.height > 40; });
const bars = [...document.querySelectorAll('rect.bar')].filter(b => b.getBoundingClientRect().width > 0);
const flames = [...document.querySelectorAll('svg.flame g.frame rect')].filter(r => r.getBoundingClientRect().width > 0);
const series = [...document.querySelectorAll('polyline.series')];
const lines = series.filter(l => l.getTotalLength() > 0);
document.body.setAttribute('data-measured',
  `charts=${charts.length} drawn=${drawn.length} bars=${bars.length} series=${series.length} lines=${lines.length} flame=${flames.length}`);
</script></body></html>
JS
} >"$work/measured.html"

render "$work/report.html" "$work/measured.html" 1200,2200
size=$(stat -c %s "$work/screenshot.png")
[ "$size" -gt 20000 ] || fail "screenshot is $size bytes: a blank page?"
measured=$(measured)
[ -n "$measured" ] || fail "the page did not render"
echo "rendered: $measured; screenshot $work/screenshot.png ($size bytes)"
# The fixture has two workloads: allocs/op, time, scaling and flame charts each.
[[ "$measured" == *"charts=8 drawn=8"* ]] || fail "charts missing or not drawn: $measured"
bars=$(sed -E 's/.*bars=([0-9]+).*/\1/' <<<"$measured")
[ "$bars" -ge 6 ] || fail "only $bars bars drawn"  # every non-zero allocs/op and every time
# Two variants per workload; log_report has three sizes (drawn as lines),
# row_parse one (single points).
[[ "$measured" == *"series=4 lines=2"* ]] || fail "scaling series missing: $measured"
flame=$(sed -E 's/.*flame=([0-9]+).*/\1/' <<<"$measured")
[ "$flame" -ge 20 ] || fail "the flame graphs drew $flame frames"
echo "PASS"
